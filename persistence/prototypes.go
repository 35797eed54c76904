package persistence

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/domain/prototypes"
)

// adminPrototypeRow is the full voucher_prototypes row the administration
// API writes; the catalogue's voucherPrototypeRow reads part of it.
type adminPrototypeRow struct {
	bun.BaseModel `bun:"table:voucher_prototypes,alias:vp"`

	ID              int64            `bun:"id,pk,autoincrement"`
	PartnerID       int64            `bun:"partner_id,notnull"`
	Name            domain.Localized `bun:"name,type:jsonb,notnull"`
	Description     domain.Localized `bun:"description,type:jsonb,notnull"`
	LongDescription domain.Localized `bun:"long_description,type:jsonb,notnull"`
	RentConditions  domain.Localized `bun:"rent_conditions,type:jsonb,notnull"`
	HowToBookHTML   domain.Localized `bun:"how_to_book_html,type:jsonb,notnull"`
	PDFDescription  domain.Localized `bun:"pdf_description,type:jsonb,notnull"`
	IsActive        bool             `bun:"is_active,notnull"`
	Type            string           `bun:"type,notnull"`
	IsHighlight     bool             `bun:"is_highlight,notnull"`
	PriceScope      int              `bun:"price_scope,notnull"`
	MaxCapacity     int              `bun:"max_capacity,notnull"`
	MinCapacity     int              `bun:"min_capacity,notnull"`
	StayPrice       decimal.Decimal  `bun:"stay_price,type:numeric(12,2),notnull"`
	AdultsPrice     *decimal.Decimal `bun:"adults_price,type:numeric(12,2)"`
	ChildrenPrice   *decimal.Decimal `bun:"children_price,type:numeric(12,2)"`
	BabyPrice       *decimal.Decimal `bun:"baby_price,type:numeric(12,2)"`
	UniverseID      *int64           `bun:"universe_id"`
	EnvironmentID   *int64           `bun:"environment_id"`
	LastActiveDay   *time.Time       `bun:"last_active_day,type:date"`
	Ranking         int              `bun:"ranking,notnull"`
	CoverImageID    *int64           `bun:"cover_image_id"`

	PartnerUUID uuid.UUID `bun:"partner_uuid,scanonly"`
	NbOrders    int       `bun:"nb_orders,scanonly"`
	ImageIDs    []int64   `bun:"image_ids,array,scanonly"`
}

func toAdminPrototypeRow(p *prototypes.AdminVoucherPrototype) *adminPrototypeRow {
	return &adminPrototypeRow{ID: p.ID, PartnerID: p.PartnerID, Name: localizedNotNil(p.Name),
		Description: localizedNotNil(p.Description), LongDescription: localizedNotNil(p.LongDescription),
		RentConditions: localizedNotNil(p.RentConditions), HowToBookHTML: localizedNotNil(p.HowToBookHTML),
		PDFDescription: localizedNotNil(p.PDFText), IsActive: p.IsActive, Type: p.Type, IsHighlight: p.IsHighlight,
		PriceScope: p.PriceScope, MaxCapacity: p.MaxCapacity, MinCapacity: p.MinCapacity, StayPrice: p.StayPrice,
		AdultsPrice: p.AdultsPrice, ChildrenPrice: p.ChildrenPrice, BabyPrice: p.BabyPrice,
		UniverseID: p.UniverseID, EnvironmentID: p.EnvironmentID, LastActiveDay: p.LastActiveDay,
		Ranking: p.Ranking, CoverImageID: p.CoverImageID}
}

func (r *adminPrototypeRow) toDomain() *prototypes.AdminVoucherPrototype {
	images := r.ImageIDs
	if images == nil {
		images = []int64{}
	}
	return &prototypes.AdminVoucherPrototype{ID: r.ID, PartnerID: r.PartnerID, PartnerUUID: r.PartnerUUID,
		Name: r.Name, Description: r.Description, LongDescription: r.LongDescription,
		RentConditions: r.RentConditions, HowToBookHTML: r.HowToBookHTML, PDFText: r.PDFDescription,
		IsActive: r.IsActive, IsHighlight: r.IsHighlight, Type: r.Type, PriceScope: r.PriceScope,
		MaxCapacity: r.MaxCapacity, MinCapacity: r.MinCapacity, Ranking: r.Ranking, StayPrice: r.StayPrice,
		AdultsPrice: r.AdultsPrice, ChildrenPrice: r.ChildrenPrice, BabyPrice: r.BabyPrice,
		UniverseID: r.UniverseID, EnvironmentID: r.EnvironmentID, LastActiveDay: r.LastActiveDay,
		ImageIDs: images, CoverImageID: r.CoverImageID, NbOrders: r.NbOrders}
}

// AdminPrototypeStore is the domain.AdminPrototypeStore on PostgreSQL.
type AdminPrototypeStore struct{ db bun.IDB }

var _ prototypes.AdminPrototypeStore = (*AdminPrototypeStore)(nil)

// lockPartner serialises, per partner, the writes that link global
// options to prototypes: a prototype created while a global option is
// created gets its link either way.
func lockPartner(ctx context.Context, tx bun.IDB, partnerID int64) error {
	if _, err := tx.NewRaw("SELECT 1 FROM partners WHERE id = ? FOR NO KEY UPDATE", partnerID).Exec(ctx); err != nil {
		return fmt.Errorf("lock partner: %w", err)
	}
	return nil
}

func replaceImages(ctx context.Context, tx bun.IDB, id int64, images []int64) error {
	if _, err := tx.NewRaw("DELETE FROM voucher_prototype_images WHERE voucher_prototype_id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("unlink voucher prototype images: %w", err)
	}
	if len(images) == 0 {
		return nil
	}
	_, err := tx.NewRaw(`INSERT INTO voucher_prototype_images (voucher_prototype_id, media_id, position)
		SELECT ?, t.m, t.ord - 1 FROM unnest(?::bigint[]) WITH ORDINALITY AS t(m, ord)`, id, pgdialect.Array(images)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("link voucher prototype images: %w", err)
	}
	return nil
}

// CreateAdminVoucherPrototype inserts p, its images and its links to its
// partner's global options (several statements: the service runs them in
// its transaction), and sets p.ID.
func (s *AdminPrototypeStore) CreateAdminVoucherPrototype(ctx context.Context, p *prototypes.AdminVoucherPrototype) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := toAdminPrototypeRow(p)
	if err := lockPartner(ctx, s.db, p.PartnerID); err != nil {
		return err
	}
	if _, err := s.db.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert voucher prototype: %w", err)
	}
	if err := replaceImages(ctx, s.db, row.ID, p.ImageIDs); err != nil {
		return err
	}
	_, err := s.db.NewRaw(`INSERT INTO voucher_prototype_options (voucher_prototype_id, option_id)
		SELECT ?, id FROM options WHERE partner_id = ? AND is_global ON CONFLICT DO NOTHING`, row.ID, p.PartnerID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("link global options: %w", err)
	}
	p.ID = row.ID
	return nil
}

// LockAdminVoucherPrototype reads the prototype under a row lock
// (FOR UPDATE): concurrent updates of one prototype apply one after the
// other, so none is lost between its read and its write.
func (s *AdminPrototypeStore) LockAdminVoucherPrototype(ctx context.Context, id int64) (*prototypes.AdminVoucherPrototype, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if _, err := s.db.NewRaw("SELECT id FROM voucher_prototypes WHERE id = ? FOR UPDATE", id).Exec(ctx); err != nil {
		return nil, fmt.Errorf("lock voucher prototype: %w", err)
	}
	ps, err := adminPrototypesByID(ctx, s.db, []int64{id})
	if err != nil {
		return nil, err
	}
	if ps[0] == nil {
		return nil, domain.ErrNotFound
	}
	return ps[0], nil
}

// UpdateAdminVoucherPrototype writes p (not its partner) and replaces its
// images (two statements: the service runs them in its transaction).
func (s *AdminPrototypeStore) UpdateAdminVoucherPrototype(ctx context.Context, p *prototypes.AdminVoucherPrototype) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	res, err := s.db.NewUpdate().Model(toAdminPrototypeRow(p)).WherePK().ExcludeColumn("partner_id").Exec(ctx)
	if err != nil {
		return fmt.Errorf("update voucher prototype: %w", err)
	}
	if err := oneRow(res); err != nil {
		return err
	}
	return replaceImages(ctx, s.db, p.ID, p.ImageIDs)
}

// PrototypeAdminStores binds the prototype administration's stores to db,
// a pool or a transaction.
func PrototypeAdminStores(db bun.IDB) prototypes.Stores {
	return prototypes.Stores{Prototypes: &AdminPrototypeStore{db: db}, Partners: &PartnerStore{db: db}}
}

// selectAdminPrototypes selects prototypes with their partner uuid, sold
// vouchers and images.
func selectAdminPrototypes(db bun.IDB, rows *[]adminPrototypeRow) *bun.SelectQuery {
	return db.NewSelect().Model(rows).Column(columnsOf[adminPrototypeRow](db)...).
		ColumnExpr("p.uuid AS partner_uuid").
		ColumnExpr(`(SELECT count(*) FROM vouchers v WHERE v.voucher_prototype_id = vp.id
			AND v.state NOT IN ('draft', 'error')) AS nb_orders`).
		ColumnExpr(`ARRAY(SELECT i.media_id FROM voucher_prototype_images i
			WHERE i.voucher_prototype_id = vp.id ORDER BY i.position) AS image_ids`).
		Join("JOIN partners p ON p.id = vp.partner_id")
}

var adminPrototypeOrder = map[string]string{
	"": "vp.id", "id": "vp.id", "-id": "vp.id DESC", "ranking": "vp.ranking, vp.id", "-ranking": "vp.ranking DESC, vp.id DESC",
}

// FindAdminVoucherPrototypes returns a page of the prototypes f selects
// and how many it selects.
func (s *AdminPrototypeStore) FindAdminVoucherPrototypes(ctx context.Context, f prototypes.AdminPrototypeFilter, page domain.PageRequest) ([]*prototypes.AdminVoucherPrototype, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []adminPrototypeRow
	q := selectAdminPrototypes(s.db, &rows)
	if f.PartnerID != nil {
		q = q.Where("vp.partner_id = ?", *f.PartnerID)
	}
	if f.IsActive != nil {
		q = q.Where("vp.is_active = ?", *f.IsActive)
	}
	if f.Type != nil {
		q = q.Where("vp.type = ?", *f.Type)
	}
	if f.UniverseID != nil {
		q = q.Where("vp.universe_id = ?", *f.UniverseID)
	}
	if f.Search != "" {
		q = whereLocalizedContains(q, "vp.name", f.Search)
	}
	count, err := q.OrderExpr(adminPrototypeOrder[f.Ordering]).Limit(page.Size).Offset(page.Offset()).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("select voucher prototypes: %w", err)
	}
	out := make([]*prototypes.AdminVoucherPrototype, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out, count, nil
}

// whereLocalizedContains keeps the rows whose Localized column holds
// search, in any language, case-insensitively.
func whereLocalizedContains(q *bun.SelectQuery, column, search string) *bun.SelectQuery {
	return q.Where("EXISTS (SELECT 1 FROM jsonb_each_text("+column+") n WHERE n.value ILIKE ? ESCAPE '\\')",
		"%"+likeEscape(search)+"%")
}

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// AdminVoucherPrototypesByID returns the prototypes in ids order.
func (s *AdminPrototypeStore) AdminVoucherPrototypesByID(ctx context.Context, ids []int64) ([]*prototypes.AdminVoucherPrototype, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	return adminPrototypesByID(ctx, s.db, ids)
}

func adminPrototypesByID(ctx context.Context, db bun.IDB, ids []int64) ([]*prototypes.AdminVoucherPrototype, error) {
	var rows []adminPrototypeRow
	if err := selectAdminPrototypes(db, &rows).Where("vp.id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("select voucher prototypes: %w", err)
	}
	byID := make(map[int64]*prototypes.AdminVoucherPrototype, len(rows))
	for i := range rows {
		byID[rows[i].ID] = rows[i].toDomain()
	}
	return inIDOrder(ids, byID), nil
}

// missing returns the ids among ids that query (over t.id, with args)
// does not find.
func (s *AdminPrototypeStore) missing(ctx context.Context, ids []int64, exists string, args ...any) ([]int64, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	out := []int64{}
	err := s.db.NewRaw("SELECT t.id FROM unnest(?::bigint[]) WITH ORDINALITY AS t(id, ord) WHERE NOT EXISTS ("+exists+") ORDER BY t.ord",
		append([]any{pgdialect.Array(ids)}, args...)...).Scan(ctx, &out)
	if err != nil {
		return nil, fmt.Errorf("check ids: %w", err)
	}
	return out, nil
}

// MissingMedia returns the ids that name no media of partnerID.
func (s *AdminPrototypeStore) MissingMedia(ctx context.Context, partnerID int64, ids []int64) ([]int64, error) {
	return s.missing(ctx, ids, "SELECT 1 FROM media m WHERE m.id = t.id AND m.partner_id = ?", partnerID)
}

// MissingPrototypes returns the ids that name no prototype of partnerID.
func (s *AdminPrototypeStore) MissingPrototypes(ctx context.Context, partnerID int64, ids []int64) ([]int64, error) {
	return s.missing(ctx, ids, "SELECT 1 FROM voucher_prototypes x WHERE x.id = t.id AND x.partner_id = ?", partnerID)
}

// EnvironmentExists reports whether the environment exists.
func (s *AdminPrototypeStore) EnvironmentExists(ctx context.Context, id int64) (bool, error) {
	missing, err := s.missing(ctx, []int64{id}, "SELECT 1 FROM environments e WHERE e.id = t.id")
	return len(missing) == 0, err
}

// UniversesByID returns the universes in ids order.
func (s *AdminPrototypeStore) UniversesByID(ctx context.Context, ids []int64) ([]*catalogue.Universe, error) {
	return universesByID(ctx, s.db, ids)
}

// columnsOf lists the stored columns of row model T, so that a select
// adding expressions reads exactly them (not columns other code added).
func columnsOf[T any](db bun.IDB) []string {
	var cols []string
	for _, f := range db.Dialect().Tables().Get(reflect.TypeFor[T]()).Fields {
		if !f.Tag.HasOption("scanonly") {
			cols = append(cols, f.Name)
		}
	}
	return cols
}
