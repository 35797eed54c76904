package persistence

import (
	"context"
	"fmt"
	"reflect"

	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
)

type boxRow struct {
	bun.BaseModel `bun:"table:network_voucher_boxes,alias:b"`

	ID                     int64            `bun:"id,pk,autoincrement"`
	MarketplaceID          int64            `bun:"marketplace_id,notnull"`
	Name                   domain.Localized `bun:"name,type:jsonb,notnull"`
	ShortDescription       domain.Localized `bun:"short_description,type:jsonb,notnull"`
	LongDescription        domain.Localized `bun:"long_description,type:jsonb,notnull"`
	IsActive               bool             `bun:"is_active,notnull"`
	IsHighlight            bool             `bun:"is_highlight,notnull"`
	DisplayNbOffers        bool             `bun:"display_nb_offers,notnull"`
	Price                  decimal.Decimal  `bun:"price,type:numeric(12,2),notnull"`
	Ranking                int              `bun:"ranking,notnull"`
	PeopleIncluded         int              `bun:"people_included,notnull"`
	MaxNumberUsages        int              `bun:"max_number_usages,notnull"`
	MaxDaysAfterFirstUsage int              `bun:"max_days_after_first_usage,notnull"`

	NbOffers    int             `bun:"nb_offers,scanonly"`
	UniverseIDs []int64         `bun:"universe_ids,array,scanonly"`
	Images      []string        `bun:"images,array,scanonly"`
	Offers      []offerAlongRow `bun:"offers,scanonly,type:json"` // selectListedBoxes
	// Partners are the listings of the page's offers' partners, on one
	// row of the page (withOfferPartners).
	Partners []*listedPartnerRow `bun:"partners,scanonly,type:json"`
}

// offerAlongRow is an offer read along with its box (selectListedBoxes).
type offerAlongRow struct {
	ID        int64 `json:"id"`
	PartnerID int64 `json:"partner_id"`
}

func toRowBox(b *catalogue.Box) *boxRow {
	return &boxRow{ID: b.ID, MarketplaceID: b.MarketplaceID, Name: localizedNotNil(b.Name),
		ShortDescription: localizedNotNil(b.ShortDescription), LongDescription: localizedNotNil(b.LongDescription),
		IsActive: b.IsActive, IsHighlight: b.IsHighlight, DisplayNbOffers: b.DisplayNbOffers, Price: b.Price,
		Ranking: b.Ranking, PeopleIncluded: b.PeopleIncluded, MaxNumberUsages: b.MaxNumberUsages,
		MaxDaysAfterFirstUsage: b.MaxDaysAfterFirstUsage}
}

func (r *boxRow) toDomain() *catalogue.Box {
	b := &catalogue.Box{ID: r.ID, MarketplaceID: r.MarketplaceID, Name: r.Name, ShortDescription: r.ShortDescription,
		LongDescription: r.LongDescription, IsActive: r.IsActive, IsHighlight: r.IsHighlight,
		DisplayNbOffers: r.DisplayNbOffers, Price: r.Price, Ranking: r.Ranking, PeopleIncluded: r.PeopleIncluded,
		MaxNumberUsages: r.MaxNumberUsages, MaxDaysAfterFirstUsage: r.MaxDaysAfterFirstUsage,
		NbOffers: r.NbOffers, UniverseIDs: r.UniverseIDs, Images: r.Images}
	if b.UniverseIDs == nil {
		b.UniverseIDs = []int64{}
	}
	if b.Images == nil {
		b.Images = []string{}
	}
	for _, o := range r.Offers {
		b.Offers = append(b.Offers, &catalogue.BoxOffer{ID: o.ID, BoxID: r.ID, PartnerID: o.PartnerID, Status: catalogue.BoxOfferStatusValidated})
	}
	return b
}

type boxOfferRow struct {
	bun.BaseModel `bun:"table:box_offers,alias:o"`

	ID        int64  `bun:"id,pk,autoincrement"`
	BoxID     int64  `bun:"box_id,notnull"`
	PartnerID int64  `bun:"partner_id,notnull"`
	Status    string `bun:"status,notnull"`
}

// boxOrderColumns maps each domain.BoxOrderFields value to its column of
// network_voucher_boxes: the only text of an ordering that reaches SQL.
// catalogue.ParseBoxOrdering puts the id in every order.
var boxOrderColumns = map[string]string{"id": "id", "ranking": "ranking", "price": "price"}

// BoxStore is the domain.BoxStore on PostgreSQL.
type BoxStore struct{ db bun.IDB }

var _ catalogue.BoxStore = (*BoxStore)(nil)

// UniversesByID returns the universes in ids order.
func (s *BoxStore) UniversesByID(ctx context.Context, ids []int64) ([]*catalogue.Universe, error) {
	return universesByID(ctx, s.db, ids)
}

// CreateBox inserts b, its universe links and its images (several
// statements: the service runs them in its transaction) and sets b.ID.
func (s *BoxStore) CreateBox(ctx context.Context, b *catalogue.Box) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := toRowBox(b)
	if _, err := s.db.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert box: %w", err)
	}
	if len(b.UniverseIDs) > 0 {
		_, err := s.db.NewRaw(`INSERT INTO network_voucher_box_universes (box_id, universe_id)
			SELECT ?, unnest(?::bigint[]) ON CONFLICT DO NOTHING`, row.ID, pgdialect.Array(b.UniverseIDs)).Exec(ctx)
		if err != nil {
			return fmt.Errorf("link box universes: %w", err)
		}
	}
	if len(b.Images) > 0 {
		_, err := s.db.NewRaw(`INSERT INTO network_voucher_box_images (box_id, position, url)
			SELECT ?, i.ord, i.url FROM unnest(?::text[]) WITH ORDINALITY AS i (url, ord)`, row.ID, pgdialect.Array(b.Images)).Exec(ctx)
		if err != nil {
			return fmt.Errorf("insert box images: %w", err)
		}
	}
	b.ID = row.ID
	return nil
}

// CreateBoxOffer inserts o, with the status the domain chose, and sets
// o.ID.
func (s *BoxStore) CreateBoxOffer(ctx context.Context, o *catalogue.BoxOffer) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := &boxOfferRow{BoxID: o.BoxID, PartnerID: o.PartnerID, Status: o.Status}
	if _, err := s.db.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert box offer: %w", err)
	}
	o.ID = row.ID
	return nil
}

// selectBoxes reads boxes with their validated offer count and universe
// ids, computed in the same statement; the caller adds the WHERE (boxList).
// It names boxRow's columns: the table has others (the administration's).
func (s *BoxStore) selectBoxes(rows *[]boxRow) *bun.SelectQuery {
	return s.boxCounts(s.db.NewSelect().Model(rows).ColumnExpr("?TableColumns"))
}

// boxCounts adds to q, a SELECT of boxes, their validated offer count and
// universe ids.
func (s *BoxStore) boxCounts(q *bun.SelectQuery) *bun.SelectQuery {
	return q.
		ColumnExpr("(SELECT count(*) FROM box_offers o WHERE o.box_id = b.id AND o.status = ?) AS nb_offers",
			catalogue.BoxOfferStatusValidated).
		ColumnExpr(`ARRAY(SELECT bu.universe_id FROM network_voucher_box_universes bu
			WHERE bu.box_id = b.id ORDER BY bu.universe_id) AS universe_ids`)
}

// selectListedBoxes is selectBoxes with only the descriptions f.Texts
// names and, when f.Offers asks, each box's window of validated offers
// (FindBoxOffers' window, by id, as a JSON array of offerAlongRow), its
// values written by vals.
func (s *BoxStore) selectListedBoxes(rows *[]boxRow, f catalogue.BoxFilter, vals *sqlArgs) *bun.SelectQuery {
	skip := map[string]bool{
		"short_description": f.Texts&catalogue.BoxShortDescription == 0,
		"long_description":  f.Texts&catalogue.BoxLongDescription == 0,
	}
	q := s.db.NewSelect().Model(rows)
	for _, field := range q.DB().Table(reflect.TypeFor[boxRow]()).Fields {
		if !skip[field.Name] {
			q = q.ColumnExpr("b.?", bun.Ident(field.Name))
		}
	}
	if w := f.Offers; w != nil {
		q = q.ColumnExpr(`(SELECT coalesce(json_agg(json_build_object('id', x.id, 'partner_id', x.partner_id) ORDER BY x.id), '[]')
			FROM (SELECT o.id, o.partner_id FROM box_offers o WHERE o.box_id = b.id AND o.status = ?
				ORDER BY o.id LIMIT ? OFFSET ?) x) AS offers`,
			catalogue.BoxOfferStatusValidated, vals.val(w.Size), vals.val(w.Offset()))
	}
	return s.boxCounts(q)
}

// withOfferPartners is query, a page of boxes read with their offers
// (selectListedBoxes), with the listings, without profile, of the offers'
// partners that one of filters selects (scopePartners, as
// FindPartnerListings reads them): read once for the whole page, in one
// join, and given in the partners column of one of its rows. order is the
// page's ORDER BY on its rows, the CTE page.
func withOfferPartners(db bun.IDB, query, order string, filters []catalogue.PartnerFilter, vals *sqlArgs) (string, error) {
	q := db.NewSelect().TableExpr("partners AS p").
		ColumnExpr(`json_build_object('id', p.id, 'name', p.name,
			'labels', coalesce(` + partnerLabelsJSON + ` FILTER (WHERE pl.id IS NOT NULL), '[]')) AS j`).
		Join("LEFT JOIN partner_labels AS pl ON pl.partner_id = p.id").
		Where("p.id IN (SELECT (e->>'partner_id')::bigint FROM page, json_array_elements(page.offers) e)").
		GroupExpr("p.id")
	var err error
	q = q.WhereGroup(" AND ", func(all *bun.SelectQuery) *bun.SelectQuery {
		for _, f := range filters {
			all = all.WhereGroup(" OR ", func(one *bun.SelectQuery) *bun.SelectQuery {
				scoped, scopeErr := scopePartners(one, f, vals)
				if scopeErr != nil {
					err = scopeErr
					return one
				}
				return scoped
			})
		}
		return all
	})
	if err != nil {
		return "", err
	}
	return `WITH page AS MATERIALIZED (` + query + `)
		SELECT page.*, CASE WHEN page.id = (SELECT min(id) FROM page)
			THEN (SELECT coalesce(json_agg(l.j), '[]') FROM (` + q.String() + `) l) END AS partners
		FROM page ORDER BY ` + order, nil
}

// boxList is the list of the boxes f selects, its values written by vals.
func boxList(f catalogue.BoxFilter, vals *sqlArgs) list {
	where := "b.marketplace_id = ?"
	if f.ActiveOnly {
		where += " AND b.is_active"
	}
	return list{from: "network_voucher_boxes b", where: where, args: []any{vals.val(f.MarketplaceID)}, id: "b.id", vals: vals}
}

// FindBoxes returns one page of the boxes f selects in f.Order, and their
// total count: a numbered page, or a keyset page (Size+1 rows in its
// reading direction).
func (s *BoxStore) FindBoxes(ctx context.Context, f catalogue.BoxFilter) ([]*catalogue.Box, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	// The order on the table (b) and on the page's rows (withOfferPartners).
	keys, pageKeys := make([]sortKey, len(f.Order)), make([]sortKey, len(f.Order))
	for i, o := range f.Order {
		col, ok := boxOrderColumns[o.Field]
		if !ok {
			return nil, 0, fmt.Errorf("order boxes: unknown field %q", o.Field)
		}
		keys[i], pageKeys[i] = sortKey{expr: "b." + col, desc: o.Desc}, sortKey{expr: "page." + col, desc: o.Desc}
	}
	count, err := boxList(f, nil).count(ctx, s.db, f.Page)
	if err != nil {
		return nil, 0, err
	}
	// The page, prepared: the catalogue's every request reads one.
	var rows []boxRow
	vals := &sqlArgs{prepared: true}
	page := boxList(f, vals).page(keys, f.Page)
	query := page.prepared(s.db, s.selectListedBoxes(&rows, f, vals), vals)
	if f.Offers != nil && len(f.OfferPartners) > 0 {
		if query, err = withOfferPartners(s.db, query, orderList(pageKeys, page.backward), f.OfferPartners, vals); err != nil {
			return nil, 0, err
		}
	}
	if err := scanPrepared(ctx, s.db, &rows, query, vals.params...); err != nil {
		return nil, 0, fmt.Errorf("select boxes: %w", err)
	}
	partners := map[int64]*catalogue.PartnerListing{}
	for _, r := range rows {
		for _, p := range r.Partners {
			partners[p.ID] = p.toDomain()
		}
	}
	boxes := make([]*catalogue.Box, len(rows))
	for i := range rows {
		boxes[i] = rows[i].toDomain()
		if len(f.OfferPartners) > 0 {
			for _, o := range boxes[i].Offers {
				o.Partner = partners[o.PartnerID]
			}
		}
	}
	return boxes, count, nil
}

// FindBox returns the box with that id among those f selects, with its
// images; domain.ErrNotFound when there is none.
func (s *BoxStore) FindBox(ctx context.Context, f catalogue.BoxFilter, id int64) (*catalogue.Box, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []boxRow
	l := boxList(f, nil)
	err := s.selectBoxes(&rows).
		ColumnExpr(`ARRAY(SELECT i.url FROM network_voucher_box_images i
			WHERE i.box_id = b.id ORDER BY i.position) AS images`).
		Where(l.where, l.args...).
		Where("b.id = ?", id).
		Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("select box: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	return rows[0].toDomain(), nil
}

// FindBoxUniverses returns the universes linked to the boxes f selects, with
// their ancestors.
func (s *BoxStore) FindBoxUniverses(ctx context.Context, f catalogue.BoxFilter) ([]*catalogue.Universe, error) {
	return findUniverseClosure(ctx, s.db, `SELECT bu.universe_id FROM network_voucher_box_universes bu
			JOIN network_voucher_boxes b ON b.id = bu.box_id
			WHERE b.marketplace_id = ? AND (b.is_active OR NOT ?)`, f.MarketplaceID, f.ActiveOnly)
}

// boxOfferWindowRow is an offer of FindBoxOffers' window query.
type boxOfferWindowRow struct {
	windowRow
	ID        int64  `bun:"id"`
	PartnerID int64  `bun:"partner_id"`
	Status    string `bun:"status"`
}

// FindBoxOffers returns the window f.Page of the offers of each box of
// f.BoxIDs that f.Boxes selects, and their counts, in one prepared
// statement.
func (s *BoxStore) FindBoxOffers(ctx context.Context, f catalogue.BoxOfferFilter) ([]*catalogue.BoxOffer, map[int64]int, error) {
	counts := map[int64]int{}
	if len(f.BoxIDs) == 0 {
		return nil, counts, nil
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []boxOfferWindowRow
	err := scanPrepared(ctx, s.db, &rows, preparedWindowSQL(`
		SELECT o.box_id AS parent_id, o.id, o.partner_id, o.status,
		       row_number() OVER (PARTITION BY o.box_id ORDER BY o.id) AS rn,
		       count(*) OVER (PARTITION BY o.box_id) AS total
		FROM box_offers o
		JOIN network_voucher_boxes b ON b.id = o.box_id
		WHERE o.box_id = ANY($1) AND b.marketplace_id = $2 AND (b.is_active OR NOT $3) AND o.status = $4`, 4),
		append([]any{f.BoxIDs, f.Boxes.MarketplaceID, f.Boxes.ActiveOnly, f.Status}, windowArgs(f.Page)...)...)
	if err != nil {
		return nil, nil, fmt.Errorf("select box offers: %w", err)
	}
	var offers []*catalogue.BoxOffer
	for _, r := range rows {
		if r.inWindow(f.Page, counts) {
			offers = append(offers, &catalogue.BoxOffer{ID: r.ID, BoxID: r.ParentID, PartnerID: r.PartnerID, Status: r.Status})
		}
	}
	return offers, counts, nil
}

// FindBoxImages returns the images of the boxes of ids that f selects, in
// one statement.
func (s *BoxStore) FindBoxImages(ctx context.Context, f catalogue.BoxFilter, ids []int64) (map[int64][]string, error) {
	out := map[int64][]string{}
	if len(ids) == 0 {
		return out, nil
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []struct {
		BoxID int64  `bun:"box_id"`
		URL   string `bun:"url"`
	}
	err := s.db.NewRaw(`SELECT i.box_id, i.url FROM network_voucher_box_images i
		JOIN network_voucher_boxes b ON b.id = i.box_id
		WHERE i.box_id IN (?) AND b.marketplace_id = ? AND (b.is_active OR NOT ?)
		ORDER BY i.box_id, i.position`, bun.In(ids), f.MarketplaceID, f.ActiveOnly).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("select box images: %w", err)
	}
	for _, r := range rows {
		out[r.BoxID] = append(out[r.BoxID], r.URL)
	}
	return out, nil
}

// GetBox returns the box with that id, active or not, with its universe
// ids and images.
func (s *BoxStore) GetBox(ctx context.Context, id int64) (*catalogue.Box, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var marketplaceID int64
	err := s.db.NewRaw("SELECT marketplace_id FROM network_voucher_boxes WHERE id = ?", id).Scan(ctx, &marketplaceID)
	if err != nil {
		return nil, notFound(err)
	}
	return s.FindBox(ctx, catalogue.BoxFilter{MarketplaceID: marketplaceID}, id)
}

// UpdateBox writes b's columns and replaces its universe links and images
// when they are not nil (several statements: the service runs them in its
// transaction).
func (s *BoxStore) UpdateBox(ctx context.Context, b *catalogue.Box) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	res, err := s.db.NewUpdate().Model(toRowBox(b)).ExcludeColumn("id", "marketplace_id").WherePK().Exec(ctx)
	if err != nil {
		return fmt.Errorf("update box: %w", err)
	}
	if err := oneRow(res); err != nil {
		return err
	}
	if b.UniverseIDs != nil {
		if _, err := s.db.NewRaw("DELETE FROM network_voucher_box_universes WHERE box_id = ?", b.ID).Exec(ctx); err != nil {
			return fmt.Errorf("unlink box universes: %w", err)
		}
		if len(b.UniverseIDs) > 0 {
			_, err := s.db.NewRaw(`INSERT INTO network_voucher_box_universes (box_id, universe_id)
				SELECT ?, unnest(?::bigint[]) ON CONFLICT DO NOTHING`, b.ID, pgdialect.Array(b.UniverseIDs)).Exec(ctx)
			if err != nil {
				return fmt.Errorf("link box universes: %w", err)
			}
		}
	}
	if b.Images != nil {
		if _, err := s.db.NewRaw("DELETE FROM network_voucher_box_images WHERE box_id = ?", b.ID).Exec(ctx); err != nil {
			return fmt.Errorf("delete box images: %w", err)
		}
		if len(b.Images) > 0 {
			_, err := s.db.NewRaw(`INSERT INTO network_voucher_box_images (box_id, position, url)
				SELECT ?, i.ord, i.url FROM unnest(?::text[]) WITH ORDINALITY AS i (url, ord)`, b.ID, pgdialect.Array(b.Images)).Exec(ctx)
			if err != nil {
				return fmt.Errorf("insert box images: %w", err)
			}
		}
	}
	return nil
}

// MissingUniverses returns the ids that name no universe.
func (s *BoxStore) MissingUniverses(ctx context.Context, ids []int64) ([]int64, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var missing []int64
	err := s.db.NewRaw("SELECT i FROM unnest(?::bigint[]) AS i WHERE NOT EXISTS (SELECT 1 FROM universes u WHERE u.id = i)",
		pgdialect.Array(ids)).Scan(ctx, &missing)
	if err != nil {
		return nil, fmt.Errorf("check universes: %w", err)
	}
	return missing, nil
}

// GetBoxOffer returns the offer with that id.
func (s *BoxStore) GetBoxOffer(ctx context.Context, id int64) (*catalogue.BoxOffer, error) {
	row, err := rowByID[boxOfferRow](ctx, s.db, "o", id)
	if err != nil {
		return nil, err
	}
	return &catalogue.BoxOffer{ID: row.ID, BoxID: row.BoxID, PartnerID: row.PartnerID, Status: row.Status}, nil
}

// FindManagedBoxOffers returns a page of the offers in the marketplace's
// boxes, by id, and their count.
func (s *BoxStore) FindManagedBoxOffers(ctx context.Context, marketplaceID int64, boxID *int64, status string, page domain.PageRequest) ([]*catalogue.BoxOffer, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []boxOfferRow
	q := s.db.NewSelect().Model(&rows).
		Join("JOIN network_voucher_boxes b ON b.id = o.box_id").
		Where("b.marketplace_id = ?", marketplaceID).
		OrderExpr("o.id").Limit(page.Size).Offset(page.Offset())
	if boxID != nil {
		q = q.Where("o.box_id = ?", *boxID)
	}
	if status != "" {
		q = q.Where("o.status = ?", status)
	}
	count, err := q.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("select managed box offers: %w", err)
	}
	out := make([]*catalogue.BoxOffer, len(rows))
	for i, r := range rows {
		out[i] = &catalogue.BoxOffer{ID: r.ID, BoxID: r.BoxID, PartnerID: r.PartnerID, Status: r.Status}
	}
	return out, count, nil
}

// FindBoxOfferOf returns the partner's (latest) offer in the box.
func (s *BoxStore) FindBoxOfferOf(ctx context.Context, boxID, partnerID int64) (*catalogue.BoxOffer, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := new(boxOfferRow)
	err := s.db.NewSelect().Model(row).Where("o.box_id = ? AND o.partner_id = ?", boxID, partnerID).
		OrderExpr("o.id DESC").Limit(1).Scan(ctx)
	if err != nil {
		return nil, notFound(err)
	}
	return &catalogue.BoxOffer{ID: row.ID, BoxID: row.BoxID, PartnerID: row.PartnerID, Status: row.Status}, nil
}

// SetBoxOfferStatus moves the offer from one status to another with one
// conditional UPDATE: false when its status is no longer from.
func (s *BoxStore) SetBoxOfferStatus(ctx context.Context, id int64, from, to string) (bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	res, err := s.db.NewRaw("UPDATE box_offers SET status = ? WHERE id = ? AND status = ?", to, id, from).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("update box offer: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// InNetwork reports whether the partner is in the marketplace's network.
func (s *BoxStore) InNetwork(ctx context.Context, marketplaceID, partnerID int64) (bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var in bool
	err := s.db.NewRaw("SELECT EXISTS (SELECT 1 FROM network_partners WHERE marketplace_id = ? AND partner_id = ?)",
		marketplaceID, partnerID).Scan(ctx, &in)
	if err != nil {
		return false, fmt.Errorf("check network: %w", err)
	}
	return in, nil
}

// BoxStores binds the box service's stores to db, a pool or a transaction.
func BoxStores(db bun.IDB) catalogue.BoxStores {
	return catalogue.BoxStores{Boxes: &BoxStore{db: db}, Partners: &PartnerStore{db: db}}
}
