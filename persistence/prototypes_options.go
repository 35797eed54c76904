package persistence

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/domain"
	"salesplatform/domain/prototypes"
	"salesplatform/domain/vouchers"
)

type optionRow struct {
	bun.BaseModel `bun:"table:options,alias:o"`

	ID           int64            `bun:"id,pk,autoincrement"`
	PartnerID    int64            `bun:"partner_id,notnull"`
	CategoryID   *int64           `bun:"category_id"`
	Name         domain.Localized `bun:"name,type:jsonb,notnull"`
	Description  domain.Localized `bun:"description,type:jsonb,notnull"`
	Price        decimal.Decimal  `bun:"price,type:numeric(12,2),notnull"`
	SellingPrice decimal.Decimal  `bun:"selling_price,type:numeric(12,2),notnull"`
	Countable    bool             `bun:"countable,notnull"`
	IsActive     bool             `bun:"is_active,notnull"`
	IsGlobal     bool             `bun:"is_global,notnull"`
	Ranking      int              `bun:"ranking,notnull"`

	PartnerUUID    uuid.UUID `bun:"partner_uuid,scanonly"`
	HasBeenOrdered bool      `bun:"has_been_ordered,scanonly"`
	PrototypeIDs   []int64   `bun:"prototype_ids,array,scanonly"`
}

type optionServiceTableRow struct {
	bun.BaseModel `bun:"table:option_services"`

	OptionID   int64           `bun:"option_id,pk"`
	Position   int             `bun:"position,pk"`
	Cost       decimal.Decimal `bun:"service_cost,type:numeric(12,2),notnull"`
	BuyingVAT  decimal.Decimal `bun:"service_buying_vat,type:numeric(5,2),notnull"`
	SellingVAT decimal.Decimal `bun:"service_selling_vat,type:numeric(5,2),notnull"`
	Price      decimal.Decimal `bun:"service_price,type:numeric(12,2),notnull"`
}

type optionCategoryRow struct {
	bun.BaseModel `bun:"table:option_categories,alias:oc"`

	ID               int64            `bun:"id,pk,autoincrement"`
	PartnerID        int64            `bun:"partner_id,notnull"`
	Name             domain.Localized `bun:"name,type:jsonb,notnull"`
	Description      domain.Localized `bun:"description,type:jsonb,notnull"`
	IsActive         bool             `bun:"is_active,notnull"`
	Ranking          int              `bun:"ranking,notnull"`
	MinNumberOptions *int             `bun:"min_number_options"`
	MaxNumberOptions *int             `bun:"max_number_options"`

	PartnerUUID uuid.UUID `bun:"partner_uuid,scanonly"`
}

// CreateOption inserts o, its services and its prototype links (those of
// o.VoucherPrototypeIDs, and every prototype of its partner when global;
// several statements: the service runs them in its transaction), and sets
// o.ID.
func (s *AdminPrototypeStore) CreateOption(ctx context.Context, o *vouchers.VoucherOption) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := &optionRow{PartnerID: o.PartnerID, CategoryID: o.CategoryID, Name: localizedNotNil(o.Name),
		Description: localizedNotNil(o.Description), Price: o.Price, SellingPrice: o.SellingPrice,
		Countable: o.Countable, IsActive: o.IsActive, IsGlobal: o.IsGlobal, Ranking: o.Ranking}
	if err := lockPartner(ctx, s.db, o.PartnerID); err != nil {
		return err
	}
	if _, err := s.db.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert option: %w", err)
	}
	if len(o.Services) > 0 {
		services := make([]optionServiceTableRow, len(o.Services))
		for i, sv := range o.Services {
			services[i] = optionServiceTableRow{OptionID: row.ID, Position: i, Cost: sv.Cost, BuyingVAT: sv.BuyingVAT,
				SellingVAT: sv.SellingVAT, Price: sv.Price}
		}
		if _, err := s.db.NewInsert().Model(&services).Exec(ctx); err != nil {
			return fmt.Errorf("insert option services: %w", err)
		}
	}
	_, err := s.db.NewRaw(`INSERT INTO voucher_prototype_options (voucher_prototype_id, option_id)
		SELECT vp.id, ? FROM voucher_prototypes vp
		WHERE vp.partner_id = ? AND (? OR vp.id = ANY(?::bigint[])) ON CONFLICT DO NOTHING`,
		row.ID, o.PartnerID, o.IsGlobal, pgdialect.Array(o.VoucherPrototypeIDs)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("link option prototypes: %w", err)
	}
	o.ID = row.ID
	return nil
}

// OptionsByID returns the options in ids order with their services and
// prototype ids.
func (s *AdminPrototypeStore) OptionsByID(ctx context.Context, ids []int64) ([]*vouchers.VoucherOption, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []optionRow
	err := s.db.NewSelect().Model(&rows).Column(columnsOf[optionRow](s.db)...).ColumnExpr("p.uuid AS partner_uuid").
		ColumnExpr("EXISTS (SELECT 1 FROM voucher_options vo WHERE vo.option_id = o.id) AS has_been_ordered").
		ColumnExpr(`ARRAY(SELECT l.voucher_prototype_id FROM voucher_prototype_options l
			WHERE l.option_id = o.id ORDER BY l.voucher_prototype_id) AS prototype_ids`).
		Join("JOIN partners p ON p.id = o.partner_id").
		Where("o.id IN (?)", bun.In(ids)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("select options: %w", err)
	}
	var services []optionServiceTableRow
	err = s.db.NewSelect().Model(&services).Where("option_id IN (?)", bun.In(ids)).
		Order("option_id", "position").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("select option services: %w", err)
	}
	byID := make(map[int64]*vouchers.VoucherOption, len(rows))
	for _, r := range rows {
		protos := r.PrototypeIDs
		if protos == nil {
			protos = []int64{}
		}
		byID[r.ID] = &vouchers.VoucherOption{ID: r.ID, PartnerID: r.PartnerID, PartnerUUID: r.PartnerUUID,
			CategoryID: r.CategoryID, Name: r.Name, Description: r.Description, Price: r.Price,
			SellingPrice: r.SellingPrice, Countable: r.Countable, IsActive: r.IsActive, IsGlobal: r.IsGlobal,
			Ranking: r.Ranking, Services: []vouchers.OptionService{}, VoucherPrototypeIDs: protos,
			HasBeenOrdered: r.HasBeenOrdered}
	}
	for _, sv := range services {
		if o := byID[sv.OptionID]; o != nil {
			o.Services = append(o.Services, vouchers.OptionService{Cost: sv.Cost, BuyingVAT: sv.BuyingVAT,
				SellingVAT: sv.SellingVAT, Price: sv.Price})
		}
	}
	return inIDOrder(ids, byID), nil
}

// CreateOptionCategory inserts c and sets c.ID.
func (s *AdminPrototypeStore) CreateOptionCategory(ctx context.Context, c *prototypes.OptionCategory) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := &optionCategoryRow{PartnerID: c.PartnerID, Name: localizedNotNil(c.Name),
		Description: localizedNotNil(c.Description), IsActive: c.IsActive, Ranking: c.Ranking,
		MinNumberOptions: c.MinNumberOptions, MaxNumberOptions: c.MaxNumberOptions}
	if _, err := s.db.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert option category: %w", err)
	}
	c.ID = row.ID
	return nil
}

// OptionCategoriesByID returns the categories in ids order.
func (s *AdminPrototypeStore) OptionCategoriesByID(ctx context.Context, ids []int64) ([]*prototypes.OptionCategory, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []optionCategoryRow
	err := s.db.NewSelect().Model(&rows).Column(columnsOf[optionCategoryRow](s.db)...).ColumnExpr("p.uuid AS partner_uuid").
		Join("JOIN partners p ON p.id = oc.partner_id").Where("oc.id IN (?)", bun.In(ids)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("select option categories: %w", err)
	}
	byID := make(map[int64]*prototypes.OptionCategory, len(rows))
	for i := range rows {
		byID[rows[i].ID] = rows[i].toDomain()
	}
	return inIDOrder(ids, byID), nil
}

func (r *optionCategoryRow) toDomain() *prototypes.OptionCategory {
	return &prototypes.OptionCategory{ID: r.ID, PartnerID: r.PartnerID, PartnerUUID: r.PartnerUUID,
		Name: r.Name, Description: r.Description, IsActive: r.IsActive, Ranking: r.Ranking,
		MinNumberOptions: r.MinNumberOptions, MaxNumberOptions: r.MaxNumberOptions}
}

type prototypeOptionLinkRow struct {
	ID          int64 `bun:"id"`
	PrototypeID int64 `bun:"voucher_prototype_id"`
	OptionID    int64 `bun:"option_id"`
	Count       int   `bun:"count"`
	Included    bool  `bun:"included"`
}

// FindPrototypeOptionLinks returns the same page of each prototype's
// option links (by option ranking, then option id) and their counts.
func (s *AdminPrototypeStore) FindPrototypeOptionLinks(ctx context.Context, prototypeIDs []int64, page domain.PageRequest) ([][]*prototypes.PrototypeOptionLink, []int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []prototypeOptionLinkRow
	err := s.db.NewRaw(`SELECT id, voucher_prototype_id, option_id, count, included FROM (
			SELECT l.*, row_number() OVER (PARTITION BY l.voucher_prototype_id ORDER BY o.ranking, o.id) AS rn
			FROM voucher_prototype_options l JOIN options o ON o.id = l.option_id
			WHERE l.voucher_prototype_id = ANY(?::bigint[])) t
		WHERE rn > ? AND rn <= ? ORDER BY voucher_prototype_id, rn`,
		pgdialect.Array(prototypeIDs), page.Offset(), page.Offset()+page.Size).Scan(ctx, &rows)
	if err != nil {
		return nil, nil, fmt.Errorf("select prototype options: %w", err)
	}
	var counts []struct {
		PrototypeID int64 `bun:"voucher_prototype_id"`
		N           int   `bun:"n"`
	}
	err = s.db.NewRaw(`SELECT voucher_prototype_id, count(*) AS n FROM voucher_prototype_options
		WHERE voucher_prototype_id = ANY(?::bigint[]) GROUP BY voucher_prototype_id`, pgdialect.Array(prototypeIDs)).Scan(ctx, &counts)
	if err != nil {
		return nil, nil, fmt.Errorf("count prototype options: %w", err)
	}
	optionIDs := make([]int64, 0, len(rows))
	seen := map[int64]bool{}
	for _, r := range rows {
		if !seen[r.OptionID] {
			seen[r.OptionID] = true
			optionIDs = append(optionIDs, r.OptionID)
		}
	}
	options := map[int64]*vouchers.VoucherOption{}
	if len(optionIDs) > 0 {
		os, err := s.OptionsByID(ctx, optionIDs)
		if err != nil {
			return nil, nil, err
		}
		for _, o := range os {
			if o != nil {
				options[o.ID] = o
			}
		}
	}
	index := make(map[int64]int, len(prototypeIDs))
	links := make([][]*prototypes.PrototypeOptionLink, len(prototypeIDs))
	total := make([]int, len(prototypeIDs))
	for i, id := range prototypeIDs {
		index[id] = i
		links[i] = []*prototypes.PrototypeOptionLink{}
	}
	for _, r := range rows {
		i := index[r.PrototypeID]
		links[i] = append(links[i], &prototypes.PrototypeOptionLink{ID: r.ID, PrototypeID: r.PrototypeID,
			Count: r.Count, Included: r.Included, Option: options[r.OptionID]})
	}
	for _, c := range counts {
		total[index[c.PrototypeID]] = c.N
	}
	return links, total, nil
}

// SavePrototypeOptionLink inserts the link or updates its count and
// included flag, and sets l.ID.
func (s *AdminPrototypeStore) SavePrototypeOptionLink(ctx context.Context, l *prototypes.PrototypeOptionLink) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	err := s.db.NewRaw(`INSERT INTO voucher_prototype_options (voucher_prototype_id, option_id, count, included)
		VALUES (?, ?, ?, ?) ON CONFLICT (voucher_prototype_id, option_id)
		DO UPDATE SET count = EXCLUDED.count, included = EXCLUDED.included RETURNING id`,
		l.PrototypeID, l.Option.ID, l.Count, l.Included).Scan(ctx, &l.ID)
	if err != nil {
		return fmt.Errorf("save prototype option: %w", err)
	}
	return nil
}

// optionOrder is the SQL of each of domain.OptionOrderings, for the
// options (o) and the categories (oc) lists.
func optionOrder(alias, ordering string) string {
	switch ordering {
	case "-ranking":
		return alias + ".ranking DESC, " + alias + ".id DESC"
	case "id":
		return alias + ".id"
	case "-id":
		return alias + ".id DESC"
	}
	return alias + ".ranking, " + alias + ".id"
}

// FindOptions returns a page of the options f selects and their count:
// their ids first, then the whole records through OptionsByID.
func (s *AdminPrototypeStore) FindOptions(ctx context.Context, f prototypes.OptionFilter, page domain.PageRequest) ([]*vouchers.VoucherOption, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var ids []int64
	q := s.db.NewSelect().Model((*optionRow)(nil)).Column("o.id")
	if f.PartnerID != nil {
		q = q.Where("o.partner_id = ?", *f.PartnerID)
	}
	if f.CategoryID != nil {
		q = q.Where("o.category_id = ?", *f.CategoryID)
	}
	if f.IsActive != nil {
		q = q.Where("o.is_active = ?", *f.IsActive)
	}
	if f.IsGlobal != nil {
		q = q.Where("o.is_global = ?", *f.IsGlobal)
	}
	if f.Search != "" {
		q = whereLocalizedContains(q, "o.name", f.Search)
	}
	count, err := q.OrderExpr(optionOrder("o", f.Ordering)).Limit(page.Size).Offset(page.Offset()).ScanAndCount(ctx, &ids)
	if err != nil {
		return nil, 0, fmt.Errorf("select options: %w", err)
	}
	if len(ids) == 0 {
		return []*vouchers.VoucherOption{}, count, nil
	}
	options, err := s.OptionsByID(ctx, ids)
	return options, count, err
}

// FindOptionCategories returns a page of the categories f selects and
// their count.
func (s *AdminPrototypeStore) FindOptionCategories(ctx context.Context, f prototypes.OptionCategoryFilter, page domain.PageRequest) ([]*prototypes.OptionCategory, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []optionCategoryRow
	q := s.db.NewSelect().Model(&rows).Column(columnsOf[optionCategoryRow](s.db)...).ColumnExpr("p.uuid AS partner_uuid").
		Join("JOIN partners p ON p.id = oc.partner_id")
	if f.PartnerID != nil {
		q = q.Where("oc.partner_id = ?", *f.PartnerID)
	}
	if f.IsActive != nil {
		q = q.Where("oc.is_active = ?", *f.IsActive)
	}
	if f.Search != "" {
		q = whereLocalizedContains(q, "oc.name", f.Search)
	}
	count, err := q.OrderExpr(optionOrder("oc", f.Ordering)).Limit(page.Size).Offset(page.Offset()).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("select option categories: %w", err)
	}
	out := make([]*prototypes.OptionCategory, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out, count, nil
}

// FindCategoryOptions returns the same page of each category's options
// (by ranking, then id) and their counts: one windowed statement for the
// ids and counts, and OptionsByID's two for the records.
func (s *AdminPrototypeStore) FindCategoryOptions(ctx context.Context, categoryIDs []int64, page domain.PageRequest) ([][]*vouchers.VoucherOption, []int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []struct {
		ID         int64 `bun:"id"`
		CategoryID int64 `bun:"category_id"`
		Total      int   `bun:"total"`
	}
	err := s.db.NewRaw(`SELECT id, category_id, total FROM (
			SELECT o.id, o.category_id,
				row_number() OVER (PARTITION BY o.category_id ORDER BY o.ranking, o.id) AS rn,
				count(*) OVER (PARTITION BY o.category_id) AS total
			FROM options o WHERE o.category_id = ANY(?::bigint[])) t
		WHERE rn > ? AND rn <= ? ORDER BY category_id, rn`,
		pgdialect.Array(categoryIDs), page.Offset(), page.Offset()+page.Size).Scan(ctx, &rows)
	if err != nil {
		return nil, nil, fmt.Errorf("select category options: %w", err)
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	var options []*vouchers.VoucherOption
	if len(ids) > 0 {
		if options, err = s.OptionsByID(ctx, ids); err != nil {
			return nil, nil, err
		}
	}
	index := make(map[int64]int, len(categoryIDs))
	for i, id := range categoryIDs {
		index[id] = i
	}
	out := make([][]*vouchers.VoucherOption, len(categoryIDs))
	counts := make([]int, len(categoryIDs))
	for i, r := range rows {
		if options[i] == nil {
			continue
		}
		j := index[r.CategoryID]
		out[j] = append(out[j], options[i])
		counts[j] = r.Total
	}
	return out, counts, nil
}
