package persistence

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
)

type workshopCategoryRow struct {
	bun.BaseModel `bun:"table:workshop_categories,alias:c"`

	ID                     int64            `bun:"id,pk,autoincrement"`
	PartnerID              int64            `bun:"partner_id,notnull"`
	Name                   domain.Localized `bun:"name,type:jsonb,notnull"`
	Price                  decimal.Decimal  `bun:"price,type:numeric(12,2),notnull"`
	SpecificValidityPeriod *int             `bun:"specific_validity_period"`
}

func (r *workshopCategoryRow) toDomain() *catalogue.WorkshopCategory {
	return &catalogue.WorkshopCategory{ID: r.ID, PartnerID: r.PartnerID, Name: r.Name, Price: r.Price,
		SpecificValidityPeriod: r.SpecificValidityPeriod}
}

type workshopLevelRow struct {
	bun.BaseModel `bun:"table:workshop_levels,alias:lv"`

	ID   int64            `bun:"id,pk,autoincrement"`
	Name domain.Localized `bun:"name,type:jsonb,notnull"`
}

type workshopRow struct {
	bun.BaseModel `bun:"table:workshops,alias:w"`

	ID                            int64            `bun:"id,pk,autoincrement"`
	PartnerID                     int64            `bun:"partner_id,notnull"`
	CategoryID                    int64            `bun:"category_id,notnull"`
	LevelID                       *int64           `bun:"level_id"`
	Name                          domain.Localized `bun:"name,type:jsonb,notnull"`
	ShortDescription              domain.Localized `bun:"short_description,type:jsonb,notnull"`
	LongDescription               domain.Localized `bun:"long_description,type:jsonb,notnull"`
	BookingConditions             domain.Localized `bun:"booking_conditions,type:jsonb,notnull"`
	Images                        []string         `bun:"images,array,notnull"`
	CanBePrivatized               bool             `bun:"can_be_privatized,notnull"`
	DisplayCalendar               bool             `bun:"display_calendar,notnull"`
	Address                       string           `bun:"address,notnull"`
	ActivateWorkshopsGroupPayment bool             `bun:"activate_workshops_group_payment,notnull"`

	Category *workshopCategoryRow `bun:"rel:belongs-to,join:category_id=id"`
	Level    *workshopLevelRow    `bun:"rel:belongs-to,join:level_id=id"`
}

func (r *workshopRow) toDomain() *catalogue.Workshop {
	w := &catalogue.Workshop{ID: r.ID, PartnerID: r.PartnerID, CategoryID: r.CategoryID, LevelID: r.LevelID,
		Name: r.Name, ShortDescription: r.ShortDescription, LongDescription: r.LongDescription,
		BookingConditions: r.BookingConditions, Images: storedStrings(r.Images), CanBePrivatized: r.CanBePrivatized,
		DisplayCalendar: r.DisplayCalendar, Address: r.Address, ActivateWorkshopsGroupPayment: r.ActivateWorkshopsGroupPayment,
		Themes: []catalogue.WorkshopTag{}, Targets: []catalogue.WorkshopTag{}, Skills: []catalogue.WorkshopTag{},
		Recipes: []catalogue.WorkshopTag{}, Sessions: []catalogue.WorkshopSession{}}
	if r.Category != nil {
		w.Category = r.Category.toDomain()
	}
	if r.Level != nil && r.LevelID != nil {
		w.Level = &catalogue.WorkshopTag{ID: r.Level.ID, Name: r.Level.Name}
	}
	return w
}

type workshopSessionRow struct {
	bun.BaseModel `bun:"table:workshop_sessions,alias:s"`

	ID              int64     `bun:"id,pk,autoincrement"`
	WorkshopID      int64     `bun:"workshop_id,notnull"`
	StartingAt      time.Time `bun:"starting_at,notnull"`
	EndingAt        time.Time `bun:"ending_at,notnull"`
	MinCapacity     int       `bun:"min_capacity,notnull"`
	MaxCapacity     int       `bun:"max_capacity,notnull"`
	AvailablePlaces int       `bun:"available_places,notnull"`
}

func (r *workshopSessionRow) toDomain() catalogue.WorkshopSession {
	return catalogue.WorkshopSession{ID: r.ID, WorkshopID: r.WorkshopID, StartingAt: r.StartingAt, EndingAt: r.EndingAt,
		MinCapacity: r.MinCapacity, MaxCapacity: r.MaxCapacity, AvailablePlaces: r.AvailablePlaces}
}

// workshopTagTables names each vocabulary's table and, but for levels, the
// table and column that link it to workshops. Only these names reach SQL.
var workshopTagTables = map[catalogue.WorkshopTagKind]struct{ table, links, column string }{
	catalogue.WorkshopLevel:  {"workshop_levels", "", ""},
	catalogue.WorkshopTheme:  {"workshop_themes", "workshop_theme_links", "theme_id"},
	catalogue.WorkshopTarget: {"workshop_targets", "workshop_target_links", "target_id"},
	catalogue.WorkshopSkill:  {"workshop_skills", "workshop_skill_links", "skill_id"},
	catalogue.WorkshopRecipe: {"workshop_recipes", "workshop_recipe_links", "recipe_id"},
}

// linkedWorkshopTags are the vocabularies a workshop links to, in the order
// of the query that loads them.
var linkedWorkshopTags = []catalogue.WorkshopTagKind{catalogue.WorkshopTheme, catalogue.WorkshopTarget, catalogue.WorkshopSkill, catalogue.WorkshopRecipe}

// msgNoSuchPK is DRF's message for a related id that names no row.
const msgNoSuchPK = "Invalid pk - object does not exist."

// foreignKeyViolation returns the constraint name when err is a foreign-key
// violation (SQLSTATE 23503), else "".
func foreignKeyViolation(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23503" {
		return pgErr.ConstraintName
	}
	return ""
}

type workshopTagRow struct {
	ID   int64            `bun:"id"`
	Name domain.Localized `bun:"name,type:jsonb"`
}

// WorkshopStore is the domain.WorkshopStore on PostgreSQL.
type WorkshopStore struct{ db bun.IDB }

var _ catalogue.WorkshopStore = (*WorkshopStore)(nil)

// NewWorkshopStore returns the store on db.
func NewWorkshopStore(db bun.IDB) *WorkshopStore { return &WorkshopStore{db: db} }

// CreateWorkshopCategory inserts c and sets its ID.
func (s *WorkshopStore) CreateWorkshopCategory(ctx context.Context, c *catalogue.WorkshopCategory) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := &workshopCategoryRow{PartnerID: c.PartnerID, Name: storedText(c.Name), Price: c.Price,
		SpecificValidityPeriod: c.SpecificValidityPeriod}
	if _, err := s.db.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert workshop category: %w", err)
	}
	c.ID = row.ID
	return nil
}

// CreateWorkshopTag inserts a term of the kind's vocabulary and sets its ID.
func (s *WorkshopStore) CreateWorkshopTag(ctx context.Context, kind catalogue.WorkshopTagKind, t *catalogue.WorkshopTag) error {
	tables, ok := workshopTagTables[kind]
	if !ok {
		return fmt.Errorf("insert workshop tag: unknown kind %q", kind)
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	err := s.db.NewRaw("INSERT INTO ? (name) VALUES (?) RETURNING id", bun.Ident(tables.table), storedText(t.Name)).
		Scan(ctx, &t.ID)
	if err != nil {
		return fmt.Errorf("insert workshop %s: %w", kind, err)
	}
	return nil
}

// CreateWorkshop inserts w and its vocabulary links (several statements:
// the service runs them in its transaction) and sets its ID. A category of another partner is a CodeInvalid error on
// "category".
func (s *WorkshopStore) CreateWorkshop(ctx context.Context, w *catalogue.Workshop) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := &workshopRow{PartnerID: w.PartnerID, CategoryID: w.CategoryID, LevelID: w.LevelID,
		Name: storedText(w.Name), ShortDescription: storedText(w.ShortDescription),
		LongDescription: storedText(w.LongDescription), BookingConditions: storedText(w.BookingConditions),
		Images: storedStrings(w.Images), CanBePrivatized: w.CanBePrivatized, DisplayCalendar: w.DisplayCalendar,
		Address: w.Address, ActivateWorkshopsGroupPayment: w.ActivateWorkshopsGroupPayment}
	links := map[catalogue.WorkshopTagKind][]int64{catalogue.WorkshopTheme: w.ThemeIDs, catalogue.WorkshopTarget: w.TargetIDs,
		catalogue.WorkshopSkill: w.SkillIDs, catalogue.WorkshopRecipe: w.RecipeIDs}
	if _, err := s.db.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		switch foreignKeyViolation(err) {
		case "workshops_category_fkey":
			return invalidField("category", domain.VNotFound, msgNoSuchPK)
		case "workshops_level_id_fkey":
			return invalidField("level", domain.VNotFound, msgNoSuchPK)
		}
		return fmt.Errorf("insert workshop: %w", err)
	}
	for _, kind := range linkedWorkshopTags {
		if len(links[kind]) == 0 {
			continue
		}
		t := workshopTagTables[kind]
		_, err := s.db.NewRaw("INSERT INTO ? (workshop_id, ?) SELECT ?, unnest(?::bigint[]) ON CONFLICT DO NOTHING",
			bun.Ident(t.links), bun.Ident(t.column), row.ID, pgdialect.Array(links[kind])).Exec(ctx)
		if foreignKeyViolation(err) != "" {
			return invalidField(string(kind)+"s", domain.VNotFound, msgNoSuchPK)
		}
		if err != nil {
			return fmt.Errorf("link workshop %ss: %w", kind, err)
		}
	}
	w.ID = row.ID
	return nil
}

// AddWorkshopSession inserts a session of an existing workshop and sets its
// ID.
func (s *WorkshopStore) AddWorkshopSession(ctx context.Context, ses *catalogue.WorkshopSession) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := &workshopSessionRow{WorkshopID: ses.WorkshopID, StartingAt: ses.StartingAt, EndingAt: ses.EndingAt,
		MinCapacity: ses.MinCapacity, MaxCapacity: ses.MaxCapacity, AvailablePlaces: ses.AvailablePlaces}
	if _, err := s.db.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert workshop session: %w", err)
	}
	ses.ID = row.ID
	return nil
}

// FindWorkshop returns the partner's workshop with its category and level
// (joined), its vocabularies (one query for the four) and its upcoming
// sessions (one query).
func (s *WorkshopStore) FindWorkshop(ctx context.Context, partnerID, id int64, sessionsAfter time.Time) (*catalogue.Workshop, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := new(workshopRow)
	err := s.db.NewSelect().Model(row).Relation("Category").Relation("Level").
		Where("w.id = ? AND w.partner_id = ?", id, partnerID).Scan(ctx)
	if err != nil {
		return nil, notFound(err)
	}
	w := row.toDomain()
	byID := map[int64]*catalogue.Workshop{w.ID: w}
	if err := s.loadTags(ctx, byID); err != nil {
		return nil, err
	}
	if err := s.loadSessions(ctx, byID, sessionsAfter); err != nil {
		return nil, err
	}
	return w, nil
}

// loadTags fills the workshops' themes, targets, skills and recipes, each
// by id, in one query.
func (s *WorkshopStore) loadTags(ctx context.Context, workshops map[int64]*catalogue.Workshop) error {
	ids := make([]int64, 0, len(workshops))
	for id := range workshops {
		ids = append(ids, id)
	}
	var q string
	var args []any
	for i, kind := range linkedWorkshopTags {
		t := workshopTagTables[kind]
		if i > 0 {
			q += " UNION ALL "
		}
		q += "SELECT ? AS kind, l.workshop_id, x.id, x.name FROM ? l JOIN ? x ON x.id = l.? WHERE l.workshop_id IN (?)"
		args = append(args, string(kind), bun.Ident(t.links), bun.Ident(t.table), bun.Ident(t.column), bun.In(ids))
	}
	q += " ORDER BY kind, workshop_id, id"
	var rows []struct {
		Kind       catalogue.WorkshopTagKind `bun:"kind"`
		WorkshopID int64                     `bun:"workshop_id"`
		workshopTagRow
	}
	if err := s.db.NewRaw(q, args...).Scan(ctx, &rows); err != nil {
		return fmt.Errorf("select workshop vocabularies: %w", err)
	}
	for _, r := range rows {
		w := workshops[r.WorkshopID]
		tag := catalogue.WorkshopTag{ID: r.ID, Name: r.Name}
		switch r.Kind {
		case catalogue.WorkshopTheme:
			w.Themes = append(w.Themes, tag)
		case catalogue.WorkshopTarget:
			w.Targets = append(w.Targets, tag)
		case catalogue.WorkshopSkill:
			w.Skills = append(w.Skills, tag)
		case catalogue.WorkshopRecipe:
			w.Recipes = append(w.Recipes, tag)
		}
	}
	return nil
}

// loadSessions fills the workshops' sessions starting after after, in one
// query.
func (s *WorkshopStore) loadSessions(ctx context.Context, workshops map[int64]*catalogue.Workshop, after time.Time) error {
	ids := make([]int64, 0, len(workshops))
	for id := range workshops {
		ids = append(ids, id)
	}
	var rows []workshopSessionRow
	err := s.db.NewSelect().Model(&rows).
		Where("s.workshop_id IN (?) AND s.starting_at > ?", bun.In(ids), after).
		Order("s.starting_at", "s.id").Scan(ctx)
	if err != nil {
		return fmt.Errorf("select workshop sessions: %w", err)
	}
	for i := range rows {
		w := workshops[rows[i].WorkshopID]
		w.Sessions = append(w.Sessions, rows[i].toDomain())
	}
	return nil
}

// FindWorkshopSessions returns one page of the selected sessions and their
// number.
func (s *WorkshopStore) FindWorkshopSessions(ctx context.Context, f catalogue.WorkshopSessionFilter) ([]*catalogue.WorkshopSession, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []workshopSessionRow
	q := s.db.NewSelect().Model(&rows).
		Join("JOIN workshops AS w ON w.id = s.workshop_id").
		Where("w.partner_id = ? AND s.starting_at > ?", f.PartnerID, f.After)
	if f.WorkshopID != nil {
		q = q.Where("s.workshop_id = ?", *f.WorkshopID)
	}
	count, err := q.Order("s.starting_at", "s.id").Limit(f.Page.Size).Offset(f.Page.Offset()).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("select workshop sessions: %w", err)
	}
	out := make([]*catalogue.WorkshopSession, len(rows))
	for i := range rows {
		ses := rows[i].toDomain()
		out[i] = &ses
	}
	return out, count, nil
}

// FindWorkshopThemes returns one page of the themes of the partner's
// workshops, by id, and their number.
func (s *WorkshopStore) FindWorkshopThemes(ctx context.Context, partnerID int64, page domain.PageRequest) ([]*catalogue.WorkshopTag, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []workshopTagRow
	count, err := s.db.NewSelect().TableExpr("workshop_themes AS t").Column("t.id", "t.name").
		Where(`EXISTS (SELECT 1 FROM workshop_theme_links l JOIN workshops w ON w.id = l.workshop_id
			WHERE l.theme_id = t.id AND w.partner_id = ?)`, partnerID).
		Order("t.id").Limit(page.Size).Offset(page.Offset()).ScanAndCount(ctx, &rows)
	if err != nil {
		return nil, 0, fmt.Errorf("select workshop themes: %w", err)
	}
	out := make([]*catalogue.WorkshopTag, len(rows))
	for i, r := range rows {
		out[i] = &catalogue.WorkshopTag{ID: r.ID, Name: r.Name}
	}
	return out, count, nil
}

// FindWorkshops returns the partner's workshops among ids with their
// category and level (joined) and vocabularies (one query): two statements.
func (s *WorkshopStore) FindWorkshops(ctx context.Context, partnerID int64, ids []int64) ([]*catalogue.Workshop, error) {
	if len(ids) == 0 {
		return []*catalogue.Workshop{}, nil
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []workshopRow
	err := s.db.NewSelect().Model(&rows).Relation("Category").Relation("Level").
		Where("w.id IN (?) AND w.partner_id = ?", bun.In(ids), partnerID).Order("w.id").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("select workshops: %w", err)
	}
	out := make([]*catalogue.Workshop, len(rows))
	byID := make(map[int64]*catalogue.Workshop, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
		byID[out[i].ID] = out[i]
	}
	if len(out) > 0 {
		if err := s.loadTags(ctx, byID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// workshopSessionWindowRow is a session of FindSessionsOfWorkshops' window
// query.
type workshopSessionWindowRow struct {
	windowRow
	ID              int64     `bun:"id"`
	StartingAt      time.Time `bun:"starting_at"`
	EndingAt        time.Time `bun:"ending_at"`
	MinCapacity     int       `bun:"min_capacity"`
	MaxCapacity     int       `bun:"max_capacity"`
	AvailablePlaces int       `bun:"available_places"`
}

// FindSessionsOfWorkshops returns the window f.Page of each selected
// workshop's sessions, and their counts, in one statement.
func (s *WorkshopStore) FindSessionsOfWorkshops(ctx context.Context, f catalogue.WorkshopSessionBatchFilter) ([]*catalogue.WorkshopSession, map[int64]int, error) {
	counts := map[int64]int{}
	if len(f.WorkshopIDs) == 0 {
		return nil, counts, nil
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []workshopSessionWindowRow
	err := s.db.NewRaw(windowSQL(`
		SELECT s.workshop_id AS parent_id, s.id, s.starting_at, s.ending_at, s.min_capacity, s.max_capacity,
		       s.available_places,
		       row_number() OVER (PARTITION BY s.workshop_id ORDER BY s.starting_at, s.id) AS rn,
		       count(*) OVER (PARTITION BY s.workshop_id) AS total
		FROM workshop_sessions s
		JOIN workshops w ON w.id = s.workshop_id
		WHERE s.workshop_id IN (?) AND w.partner_id = ? AND s.starting_at > ?`),
		append([]any{bun.In(f.WorkshopIDs), f.PartnerID, f.After}, windowArgs(f.Page)...)...).
		Scan(ctx, &rows)
	if err != nil {
		return nil, nil, fmt.Errorf("select sessions of workshops: %w", err)
	}
	var out []*catalogue.WorkshopSession
	for _, r := range rows {
		if r.inWindow(f.Page, counts) {
			out = append(out, &catalogue.WorkshopSession{ID: r.ID, WorkshopID: r.ParentID, StartingAt: r.StartingAt,
				EndingAt: r.EndingAt, MinCapacity: r.MinCapacity, MaxCapacity: r.MaxCapacity,
				AvailablePlaces: r.AvailablePlaces})
		}
	}
	return out, counts, nil
}

// GetWorkshop returns the workshop with that id, whoever owns it, without
// its relations.
func (s *WorkshopStore) GetWorkshop(ctx context.Context, id int64) (*catalogue.Workshop, error) {
	row, err := rowByID[workshopRow](ctx, s.db, "w", id)
	if err != nil {
		return nil, err
	}
	return row.toDomain(), nil
}

// UpdateWorkshop writes w's columns and replaces the links w gives
// (several statements: the service runs them in its transaction).
func (s *WorkshopStore) UpdateWorkshop(ctx context.Context, w *catalogue.Workshop) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := &workshopRow{ID: w.ID, PartnerID: w.PartnerID, CategoryID: w.CategoryID, LevelID: w.LevelID,
		Name: storedText(w.Name), ShortDescription: storedText(w.ShortDescription),
		LongDescription: storedText(w.LongDescription), BookingConditions: storedText(w.BookingConditions),
		Images: storedStrings(w.Images), CanBePrivatized: w.CanBePrivatized, DisplayCalendar: w.DisplayCalendar,
		Address: w.Address, ActivateWorkshopsGroupPayment: w.ActivateWorkshopsGroupPayment}
	links := map[catalogue.WorkshopTagKind][]int64{catalogue.WorkshopTheme: w.ThemeIDs, catalogue.WorkshopTarget: w.TargetIDs,
		catalogue.WorkshopSkill: w.SkillIDs, catalogue.WorkshopRecipe: w.RecipeIDs}
	res, err := s.db.NewUpdate().Model(row).ExcludeColumn("id", "partner_id").WherePK().Exec(ctx)
	if err != nil {
		switch foreignKeyViolation(err) {
		case "workshops_category_fkey":
			return invalidField("categoryId", domain.VNotFound, msgNoSuchPK)
		case "workshops_level_id_fkey":
			return invalidField("levelId", domain.VNotFound, msgNoSuchPK)
		}
		return fmt.Errorf("update workshop: %w", err)
	}
	if err := oneRow(res); err != nil {
		return err
	}
	for _, kind := range linkedWorkshopTags {
		if links[kind] == nil {
			continue
		}
		t := workshopTagTables[kind]
		if _, err := s.db.NewRaw("DELETE FROM ? WHERE workshop_id = ?", bun.Ident(t.links), row.ID).Exec(ctx); err != nil {
			return fmt.Errorf("unlink workshop %ss: %w", kind, err)
		}
		if len(links[kind]) == 0 {
			continue
		}
		_, err := s.db.NewRaw("INSERT INTO ? (workshop_id, ?) SELECT ?, unnest(?::bigint[]) ON CONFLICT DO NOTHING",
			bun.Ident(t.links), bun.Ident(t.column), row.ID, pgdialect.Array(links[kind])).Exec(ctx)
		if foreignKeyViolation(err) != "" {
			return invalidField(string(kind)+"Ids", domain.VNotFound, msgNoSuchPK)
		}
		if err != nil {
			return fmt.Errorf("link workshop %ss: %w", kind, err)
		}
	}
	return nil
}

// GetWorkshopCategory returns the category with that id.
func (s *WorkshopStore) GetWorkshopCategory(ctx context.Context, id int64) (*catalogue.WorkshopCategory, error) {
	row, err := rowByID[workshopCategoryRow](ctx, s.db, "c", id)
	if err != nil {
		return nil, err
	}
	return row.toDomain(), nil
}

// UpdateWorkshopCategory writes the category's name, price and validity.
func (s *WorkshopStore) UpdateWorkshopCategory(ctx context.Context, c *catalogue.WorkshopCategory) error {
	row := &workshopCategoryRow{ID: c.ID, PartnerID: c.PartnerID, Name: storedText(c.Name), Price: c.Price,
		SpecificValidityPeriod: c.SpecificValidityPeriod}
	return updateRow(ctx, s.db, row, "workshop category", "id", "partner_id")
}

// GetWorkshopSession returns the session with that id.
func (s *WorkshopStore) GetWorkshopSession(ctx context.Context, id int64) (*catalogue.WorkshopSession, error) {
	row, err := rowByID[workshopSessionRow](ctx, s.db, "s", id)
	if err != nil {
		return nil, err
	}
	ses := row.toDomain()
	return &ses, nil
}

// UpdateWorkshopSession writes the session's dates, capacities and places.
func (s *WorkshopStore) UpdateWorkshopSession(ctx context.Context, ses *catalogue.WorkshopSession) error {
	row := &workshopSessionRow{ID: ses.ID, WorkshopID: ses.WorkshopID, StartingAt: ses.StartingAt, EndingAt: ses.EndingAt,
		MinCapacity: ses.MinCapacity, MaxCapacity: ses.MaxCapacity, AvailablePlaces: ses.AvailablePlaces}
	return updateRow(ctx, s.db, row, "workshop session", "id", "workshop_id")
}

// UpdateWorkshopTag writes a term's name.
func (s *WorkshopStore) UpdateWorkshopTag(ctx context.Context, kind catalogue.WorkshopTagKind, t *catalogue.WorkshopTag) error {
	tables, ok := workshopTagTables[kind]
	if !ok {
		return fmt.Errorf("update workshop tag: unknown kind %q", kind)
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	res, err := s.db.NewRaw("UPDATE ? SET name = ? WHERE id = ?", bun.Ident(tables.table), storedText(t.Name), t.ID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("update workshop %s: %w", kind, err)
	}
	return oneRow(res)
}

// MissingWorkshopTags returns the ids that name no term of the kind.
func (s *WorkshopStore) MissingWorkshopTags(ctx context.Context, kind catalogue.WorkshopTagKind, ids []int64) ([]int64, error) {
	tables, ok := workshopTagTables[kind]
	if !ok {
		return nil, fmt.Errorf("check workshop tags: unknown kind %q", kind)
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var missing []int64
	err := s.db.NewRaw("SELECT i FROM unnest(?::bigint[]) AS i WHERE NOT EXISTS (SELECT 1 FROM ? x WHERE x.id = i)",
		pgdialect.Array(ids), bun.Ident(tables.table)).Scan(ctx, &missing)
	if err != nil {
		return nil, fmt.Errorf("check workshop %ss: %w", kind, err)
	}
	return missing, nil
}

// WorkshopStores binds the workshop service's stores to db, a pool or a
// transaction.
func WorkshopStores(db bun.IDB) catalogue.WorkshopStores {
	return catalogue.WorkshopStores{Workshops: &WorkshopStore{db: db}, Partners: &PartnerStore{db: db}}
}
