package persistence

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
)

type voucherPrototypeRow struct {
	bun.BaseModel `bun:"table:voucher_prototypes,alias:vp"`

	ID         int64            `bun:"id,pk,autoincrement"`
	PartnerID  int64            `bun:"partner_id,notnull"`
	Name       domain.Localized `bun:"name,type:jsonb,notnull"`
	UniverseID *int64           `bun:"universe_id"`
}

type giftcardPrototypeRow struct {
	bun.BaseModel `bun:"table:giftcard_prototypes,alias:g"`

	ID                int64            `bun:"id,pk,autoincrement"`
	PartnerID         int64            `bun:"partner_id,notnull"`
	Title             domain.Localized `bun:"title,type:jsonb,notnull"`
	Description       domain.Localized `bun:"description,type:jsonb,notnull"`
	TermsOfUse        domain.Localized `bun:"terms_of_use,type:jsonb,notnull"`
	CustomizedAmount  bool             `bun:"customized_amount,notnull"`
	MinimumAmount     decimal.Decimal  `bun:"minimum_amount,type:numeric(12,2),notnull"`
	PredefinedAmounts []string         `bun:"predefined_amounts,array,notnull"` // numeric(12,2)[] as text
	MoneyPotActivated bool             `bun:"money_pot_activated,notnull"`
	MoneyPotLogo      string           `bun:"money_pot_logo,notnull"`
	ValidityPeriod    int              `bun:"validity_period,notnull"`
	ValidityUnit      string           `bun:"validity_unit,notnull"`

	PartnerName     string `bun:"partner_name,scanonly"`
	PartnerCurrency string `bun:"partner_currency,scanonly"`
}

func toRowGiftcardPrototype(p *catalogue.GiftcardPrototype) *giftcardPrototypeRow {
	amounts := make([]string, len(p.PredefinedAmounts))
	for i, a := range p.PredefinedAmounts {
		amounts[i] = a.String()
	}
	return &giftcardPrototypeRow{ID: p.ID, PartnerID: p.PartnerID, Title: localizedNotNil(p.Title),
		Description: localizedNotNil(p.Description), TermsOfUse: localizedNotNil(p.TermsOfUse),
		CustomizedAmount: p.CustomizedAmount, MinimumAmount: p.MinimumAmount, PredefinedAmounts: amounts,
		MoneyPotActivated: p.MoneyPotActivated, MoneyPotLogo: p.MoneyPotLogo,
		ValidityPeriod: p.ValidityPeriod, ValidityUnit: p.ValidityUnit}
}

func (r *giftcardPrototypeRow) toDomain() (*catalogue.GiftcardPrototype, error) {
	amounts := make([]decimal.Decimal, len(r.PredefinedAmounts))
	for i, s := range r.PredefinedAmounts {
		a, err := decimal.NewFromString(s)
		if err != nil {
			return nil, fmt.Errorf("giftcard prototype %d: predefined amount %q: %w", r.ID, s, err)
		}
		amounts[i] = a
	}
	return &catalogue.GiftcardPrototype{ID: r.ID, PartnerID: r.PartnerID, Title: r.Title, Description: r.Description,
		TermsOfUse: r.TermsOfUse, CustomizedAmount: r.CustomizedAmount, MinimumAmount: r.MinimumAmount,
		PredefinedAmounts: amounts, MoneyPotActivated: r.MoneyPotActivated, MoneyPotLogo: r.MoneyPotLogo,
		ValidityPeriod: r.ValidityPeriod, ValidityUnit: r.ValidityUnit,
		PartnerName: r.PartnerName, PartnerCurrency: r.PartnerCurrency}, nil
}

// PrototypeStore is the domain.PrototypeStore on PostgreSQL.
type PrototypeStore struct{ db bun.IDB }

var _ catalogue.PrototypeStore = (*PrototypeStore)(nil)

// NewPrototypeStore returns the store on db.
func NewPrototypeStore(db bun.IDB) *PrototypeStore { return &PrototypeStore{db: db} }

// CreateUniverse inserts u and sets u.ID.
func (s *PrototypeStore) CreateUniverse(ctx context.Context, u *catalogue.Universe) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := &universeRow{ParentID: u.ParentID, Name: localizedNotNil(u.Name), Order: u.Order}
	if _, err := s.db.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert universe: %w", err)
	}
	u.ID = row.ID
	return nil
}

// CreateTheme inserts t and sets t.ID.
func (s *PrototypeStore) CreateTheme(ctx context.Context, t *catalogue.Theme) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := &themeRow{Name: localizedNotNil(t.Name)}
	if _, err := s.db.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert theme: %w", err)
	}
	t.ID = row.ID
	return nil
}

// CreateVoucherPrototype inserts p and its theme links (two statements: run
// them in a transaction) and sets p.ID.
func (s *PrototypeStore) CreateVoucherPrototype(ctx context.Context, p *catalogue.VoucherPrototype) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := &voucherPrototypeRow{PartnerID: p.PartnerID, Name: localizedNotNil(p.Name), UniverseID: p.UniverseID}
	if _, err := s.db.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert voucher prototype: %w", err)
	}
	if len(p.ThemeIDs) > 0 {
		_, err := s.db.NewRaw(`INSERT INTO voucher_prototype_themes (voucher_prototype_id, theme_id)
			SELECT ?, unnest(?::bigint[]) ON CONFLICT DO NOTHING`, row.ID, pgdialect.Array(p.ThemeIDs)).Exec(ctx)
		if err != nil {
			return fmt.Errorf("link voucher prototype themes: %w", err)
		}
	}
	p.ID = row.ID
	return nil
}

// CreateGiftcardPrototype inserts p and sets its ID, PartnerName and
// PartnerCurrency.
func (s *PrototypeStore) CreateGiftcardPrototype(ctx context.Context, p *catalogue.GiftcardPrototype) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := toRowGiftcardPrototype(p)
	_, err := s.db.NewInsert().Model(row).
		Returning("id, (SELECT p.name FROM partners p WHERE p.id = giftcard_prototypes.partner_id) AS partner_name, " +
			"(SELECT p.currency FROM partners p WHERE p.id = giftcard_prototypes.partner_id) AS partner_currency").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("insert giftcard prototype: %w", err)
	}
	p.ID, p.PartnerName, p.PartnerCurrency = row.ID, row.PartnerName, row.PartnerCurrency
	return nil
}

// FindPrototypeUniverses returns the universes of the partner's voucher
// prototypes with their ancestors.
func (s *PrototypeStore) FindPrototypeUniverses(ctx context.Context, partnerID int64) ([]*catalogue.Universe, error) {
	return findUniverseClosure(ctx, s.db, `SELECT vp.universe_id FROM voucher_prototypes vp
			WHERE vp.partner_id = ? AND vp.universe_id IS NOT NULL`, partnerID)
}

// FindPrototypeThemes returns the distinct themes of the partner's voucher
// prototypes, by id.
func (s *PrototypeStore) FindPrototypeThemes(ctx context.Context, partnerID int64) ([]*catalogue.Theme, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []themeRow
	err := s.db.NewSelect().Model(&rows).
		Where(`th.id IN (SELECT vt.theme_id FROM voucher_prototype_themes vt
			JOIN voucher_prototypes vp ON vp.id = vt.voucher_prototype_id WHERE vp.partner_id = ?)`, partnerID).
		OrderExpr("th.id").
		Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("select themes: %w", err)
	}
	themes := make([]*catalogue.Theme, len(rows))
	for i := range rows {
		themes[i] = &catalogue.Theme{ID: rows[i].ID, Name: rows[i].Name}
	}
	return themes, nil
}

// selectGiftcardPrototypes is the prototypes f selects, with their
// partner's name and currency.
func (s *PrototypeStore) selectGiftcardPrototypes(rows *[]giftcardPrototypeRow, f catalogue.GiftcardPrototypeFilter) *bun.SelectQuery {
	q := s.db.NewSelect().Model(rows).
		ColumnExpr("g.*, p.name AS partner_name, p.currency AS partner_currency").
		Join("JOIN partners AS p ON p.id = g.partner_id")
	if f.WithNetwork {
		q = q.Where(`(g.partner_id = ? OR g.partner_id IN
			(SELECT np.partner_id FROM network_partners np WHERE np.marketplace_id = ?))`,
			f.ScopePartnerID, f.ScopePartnerID)
	} else {
		q = q.Where("g.partner_id = ?", f.ScopePartnerID)
	}
	if f.PartnerID != nil {
		q = q.Where("g.partner_id = ?", *f.PartnerID)
	}
	return q
}

// FindGiftcardPrototypes returns one page of the prototypes f selects, by
// id, and their total count.
func (s *PrototypeStore) FindGiftcardPrototypes(ctx context.Context, f catalogue.GiftcardPrototypeFilter) ([]*catalogue.GiftcardPrototype, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []giftcardPrototypeRow
	count, err := s.selectGiftcardPrototypes(&rows, f).
		OrderExpr("g.id").Limit(f.Page.Size).Offset(f.Page.Offset()).
		ScanAndCount(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("select giftcard prototypes: %w", err)
	}
	protos := make([]*catalogue.GiftcardPrototype, len(rows))
	for i := range rows {
		if protos[i], err = rows[i].toDomain(); err != nil {
			return nil, 0, err
		}
	}
	return protos, count, nil
}

// FindGiftcardPrototype returns the prototype with that id among those f
// selects; domain.ErrNotFound when there is none.
func (s *PrototypeStore) FindGiftcardPrototype(ctx context.Context, f catalogue.GiftcardPrototypeFilter, id int64) (*catalogue.GiftcardPrototype, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []giftcardPrototypeRow
	if err := s.selectGiftcardPrototypes(&rows, f).Where("g.id = ?", id).Scan(ctx); err != nil {
		return nil, fmt.Errorf("select giftcard prototype: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	return rows[0].toDomain()
}

// GetGiftcardPrototype returns the prototype with that id, whoever owns it.
func (s *PrototypeStore) GetGiftcardPrototype(ctx context.Context, id int64) (*catalogue.GiftcardPrototype, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []giftcardPrototypeRow
	err := s.db.NewSelect().Model(&rows).
		ColumnExpr("g.*, p.name AS partner_name, p.currency AS partner_currency").
		Join("JOIN partners AS p ON p.id = g.partner_id").Where("g.id = ?", id).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("select giftcard prototype: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	return rows[0].toDomain()
}

// UpdateGiftcardPrototype writes p's columns.
func (s *PrototypeStore) UpdateGiftcardPrototype(ctx context.Context, p *catalogue.GiftcardPrototype) error {
	return updateRow(ctx, s.db, toRowGiftcardPrototype(p), "giftcard prototype", "id", "partner_id")
}

// GetVoucherPrototype returns the prototype with its theme ids.
func (s *PrototypeStore) GetVoucherPrototype(ctx context.Context, id int64) (*catalogue.VoucherPrototype, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := new(voucherPrototypeRow)
	if err := s.db.NewSelect().Model(row).Where("vp.id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err)
	}
	themes := []int64{}
	err := s.db.NewRaw("SELECT theme_id FROM voucher_prototype_themes WHERE voucher_prototype_id = ? ORDER BY theme_id", id).
		Scan(ctx, &themes)
	if err != nil {
		return nil, fmt.Errorf("select voucher prototype themes: %w", err)
	}
	return &catalogue.VoucherPrototype{ID: row.ID, PartnerID: row.PartnerID, Name: row.Name, UniverseID: row.UniverseID,
		ThemeIDs: themes}, nil
}

// FileVoucherPrototype writes p's universe and replaces its themes when
// p.ThemeIDs is not nil (several statements: the service runs them in its
// transaction).
func (s *PrototypeStore) FileVoucherPrototype(ctx context.Context, p *catalogue.VoucherPrototype) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	res, err := s.db.NewUpdate().Model((*voucherPrototypeRow)(nil)).Set("universe_id = ?", p.UniverseID).
		Where("id = ?", p.ID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("update voucher prototype: %w", err)
	}
	if err := oneRow(res); err != nil {
		return err
	}
	if p.ThemeIDs == nil {
		return nil
	}
	if _, err := s.db.NewRaw("DELETE FROM voucher_prototype_themes WHERE voucher_prototype_id = ?", p.ID).Exec(ctx); err != nil {
		return fmt.Errorf("unlink voucher prototype themes: %w", err)
	}
	if len(p.ThemeIDs) > 0 {
		_, err := s.db.NewRaw(`INSERT INTO voucher_prototype_themes (voucher_prototype_id, theme_id)
			SELECT ?, unnest(?::bigint[]) ON CONFLICT DO NOTHING`, p.ID, pgdialect.Array(p.ThemeIDs)).Exec(ctx)
		if err != nil {
			return fmt.Errorf("link voucher prototype themes: %w", err)
		}
	}
	return nil
}

// GetUniverse returns the universe with that id.
func (s *PrototypeStore) GetUniverse(ctx context.Context, id int64) (*catalogue.Universe, error) {
	row, err := rowByID[universeRow](ctx, s.db, "u", id)
	if err != nil {
		return nil, err
	}
	return row.toDomain(), nil
}

// universeTreeLock names the advisory lock that serialises writes to the
// universe tree: 0x756e6976 is "univ".
const universeTreeLock int64 = 0x756e6976

// LockUniverseTree takes the universe tree's advisory lock until the
// transaction ends: two moves checked and written at once could make a
// cycle.
func (s *PrototypeStore) LockUniverseTree(ctx context.Context) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if _, err := s.db.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?)", universeTreeLock); err != nil {
		return fmt.Errorf("lock the universe tree: %w", err)
	}
	return nil
}

// UpdateUniverse writes u's parent, name and order.
func (s *PrototypeStore) UpdateUniverse(ctx context.Context, u *catalogue.Universe) error {
	row := &universeRow{ID: u.ID, ParentID: u.ParentID, Name: localizedNotNil(u.Name), Order: u.Order}
	return updateRow(ctx, s.db, row, "universe", "id")
}

// FindUniverseLineage returns the universe and its ancestors, from it up
// to its root, in one recursive query. The depth guard stops on a stored
// cycle.
func (s *PrototypeStore) FindUniverseLineage(ctx context.Context, id int64) ([]*catalogue.Universe, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []universeRow
	err := s.db.NewRaw(`WITH RECURSIVE lineage (id, parent_id, name, "order", depth) AS (
			SELECT u.id, u.parent_id, u.name, u."order", 0 FROM universes u WHERE u.id = ?
			UNION ALL
			SELECT u.id, u.parent_id, u.name, u."order", l.depth + 1 FROM universes u JOIN lineage l ON u.id = l.parent_id
			WHERE l.depth < 100
		)
		SELECT id, parent_id, name, "order" FROM lineage ORDER BY depth`, id).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("select universe lineage: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	out := make([]*catalogue.Universe, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out, nil
}

// FindUniverseDescendants returns every universe below id, in one
// recursive query.
func (s *PrototypeStore) FindUniverseDescendants(ctx context.Context, id int64) ([]*catalogue.Universe, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []universeRow
	err := s.db.NewRaw(`WITH RECURSIVE below (id) AS (
			SELECT u.id FROM universes u WHERE u.parent_id = ?
			UNION
			SELECT u.id FROM universes u JOIN below b ON u.parent_id = b.id
		)
		SELECT u.id, u.parent_id, u.name, u."order" FROM universes u WHERE u.id IN (SELECT id FROM below)`, id).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("select universe descendants: %w", err)
	}
	out := make([]*catalogue.Universe, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out, nil
}

// UpdateTheme writes a theme's name.
func (s *PrototypeStore) UpdateTheme(ctx context.Context, t *catalogue.Theme) error {
	return updateRow(ctx, s.db, &themeRow{ID: t.ID, Name: localizedNotNil(t.Name)}, "theme")
}

// MissingThemes returns the ids that name no theme.
func (s *PrototypeStore) MissingThemes(ctx context.Context, ids []int64) ([]int64, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var missing []int64
	err := s.db.NewRaw("SELECT i FROM unnest(?::bigint[]) AS i WHERE NOT EXISTS (SELECT 1 FROM themes t WHERE t.id = i)",
		pgdialect.Array(ids)).Scan(ctx, &missing)
	if err != nil {
		return nil, fmt.Errorf("check themes: %w", err)
	}
	return missing, nil
}

// PrototypeStores binds the prototype service's stores to db, a pool or a
// transaction.
func PrototypeStores(db bun.IDB) catalogue.PrototypeStores {
	return catalogue.PrototypeStores{Prototypes: &PrototypeStore{db: db}, Partners: &PartnerStore{db: db}}
}
