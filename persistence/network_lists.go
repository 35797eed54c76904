package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/domain"
	"salesplatform/domain/network"
)

// NetworkListStore is the network.ListStore on PostgreSQL: the graph's
// lists, lookups by id and batches of the network area, with the row
// types and columns of the area's other stores.
type NetworkListStore struct{ db bun.IDB }

var _ network.ListStore = (*NetworkListStore)(nil)

// tenantArg is the argument of the "(?::bigint IS NULL OR … = ?)"
// conditions: NULL for every marketplace.
func tenantArg(tenant *int64) any {
	if tenant == nil {
		return nil
	}
	return *tenant
}

// Giftcards implements network.ListStore.
func (s *NetworkListStore) Giftcards(ctx context.Context, tenant *int64, page domain.PageRequest) ([]*network.Giftcard, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	l := list{from: "network_giftcards g", where: "TRUE", id: "g.id"}
	if tenant != nil {
		l.where, l.args = "g.marketplace_id = ?", []any{*tenant}
	}
	count, err := l.count(ctx, s.db, page)
	if err != nil {
		return nil, 0, err
	}
	keys := []sortKey{{expr: "g.creation_date", desc: true}, {expr: "g.id", desc: true}}
	query, args := l.page(keys, page).raw(networkGiftcardSelect + ", 0 AS full_count" + networkGiftcardFrom)
	var rows []networkGiftcardRow
	if err := s.db.NewRaw(query, args...).Scan(ctx, &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, 0, fmt.Errorf("list network giftcards: %w", err)
	}
	out := make([]*network.Giftcard, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out, count, nil
}

// GiftcardsByID implements network.ListStore.
func (s *NetworkListStore) GiftcardsByID(ctx context.Context, ids []int64, tenant *int64) ([]*network.Giftcard, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []networkGiftcardRow
	err := s.db.NewRaw(networkGiftcardSelect+", 0 AS full_count"+networkGiftcardFrom+`
		WHERE g.id = ANY(?0::bigint[]) AND (?1::bigint IS NULL OR g.marketplace_id = ?1)`,
		pgdialect.Array(ids), tenantArg(tenant)).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("select network giftcards by id: %w", err)
	}
	cards := make([]*network.Giftcard, len(rows))
	for i := range rows {
		cards[i] = rows[i].toDomain()
	}
	return domain.InKeyOrder(ids, cards, func(g *network.Giftcard) int64 { return g.ID }), nil
}

// childList is a list of records of many parents that the graph reads in
// one batch: its table (aliased x in the window), its parent column, its
// order (over x), and its tenant condition (over x, one argument).
type childList struct {
	table, parent, order, tenant string
}

// The lists of the cards' usages, ledgers and holds, the boxes' offers and
// the vouchers' usages.
var (
	cardTenant      = "x.network_giftcard_id IN (SELECT c.id FROM network_giftcards c WHERE c.marketplace_id = ?)"
	usagesOfCard    = childList{"network_giftcard_usages", "network_giftcard_id", "x.id", cardTenant}
	ledgerOfCard    = childList{"network_giftcard_movements", "network_giftcard_id", "x.id", cardTenant}
	holdsOfCard     = childList{"network_giftcard_holds", "network_giftcard_id", "x.id DESC", cardTenant}
	offersOfBox     = childList{"box_offers", "box_id", "x.ranking, x.id", "x.box_id IN (SELECT b.id FROM network_voucher_boxes b WHERE b.marketplace_id = ?)"}
	usagesOfVoucher = childList{"network_voucher_usages", "network_voucher_id", "x.id",
		"x.network_voucher_id IN (SELECT v.id FROM network_vouchers v JOIN network_voucher_boxes b ON b.id = v.box_id WHERE b.marketplace_id = ?)"}
)

func (c childList) scope(tenant *int64) (string, []any) {
	if tenant == nil {
		return "TRUE", nil
	}
	return c.tenant, []any{*tenant}
}

// readChildren reads, for each parent of ids, the rows of page of its
// list, with selectFrom (a SELECT with its FROM and joins, whose rows have
// their id in idColumn) in orderBy (the list's order, over selectFrom),
// and the length of each list. Its statements are two, whatever the
// number of parents.
func readChildren[R, T any](ctx context.Context, db bun.IDB, c childList, selectFrom, idColumn, orderBy string,
	ids []int64, tenant *int64, page domain.PageRequest, toDomain func(*R) T, parentOf func(T) int64) ([][]T, []int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	scope, scopeArgs := c.scope(tenant)
	parents := pgdialect.Array(ids)
	var rows []R
	err := db.NewRaw(selectFrom+` WHERE `+idColumn+` IN (SELECT id FROM (
			SELECT x.id, row_number() OVER (PARTITION BY x.`+c.parent+` ORDER BY `+c.order+`) AS rn
			FROM `+c.table+` x WHERE x.`+c.parent+` = ANY(?::bigint[]) AND `+scope+`) r
		WHERE rn > ? AND rn <= ?) ORDER BY `+orderBy,
		append(append([]any{parents}, scopeArgs...), page.Offset(), page.Offset()+page.Size)...).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, nil, fmt.Errorf("select %s: %w", c.table, err)
	}
	var counts []struct {
		Parent int64 `bun:"parent"`
		N      int   `bun:"n"`
	}
	err = db.NewRaw(`SELECT x.`+c.parent+` AS parent, count(*) AS n FROM `+c.table+` x
		WHERE x.`+c.parent+` = ANY(?::bigint[]) AND `+scope+` GROUP BY 1`, append([]any{parents}, scopeArgs...)...).Scan(ctx, &counts)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, nil, fmt.Errorf("count %s: %w", c.table, err)
	}
	byParent := map[int64][]T{}
	for i := range rows {
		item := toDomain(&rows[i])
		byParent[parentOf(item)] = append(byParent[parentOf(item)], item)
	}
	n := make(map[int64]int, len(counts))
	for _, k := range counts {
		n[k.Parent] = k.N
	}
	items, total := make([][]T, len(ids)), make([]int, len(ids))
	for i, id := range ids {
		items[i], total[i] = byParent[id], n[id]
	}
	return items, total, nil
}

const (
	networkUsageFrom = `SELECT ` + networkUsageColumns + ` FROM network_giftcard_usages AS u`
	networkHoldFrom  = `SELECT ` + networkHoldColumns + ` FROM network_giftcard_holds h` + networkHoldJoins
)

// UsagesOfCards implements network.ListStore.
func (s *NetworkListStore) UsagesOfCards(ctx context.Context, cardIDs []int64, tenant *int64, page domain.PageRequest) ([][]*network.Usage, []int, error) {
	return readChildren(ctx, s.db, usagesOfCard, networkUsageFrom, "u.id", "u.id", cardIDs, tenant, page, (*networkUsageRow).toDomain,
		func(u *network.Usage) int64 { return u.CardID })
}

// HoldsOfCards implements network.ListStore.
func (s *NetworkListStore) HoldsOfCards(ctx context.Context, cardIDs []int64, tenant *int64, page domain.PageRequest) ([][]*network.Hold, []int, error) {
	return readChildren(ctx, s.db, holdsOfCard, networkHoldFrom, "h.id", "h.id DESC", cardIDs, tenant, page, (*networkHoldRow).toDomain,
		func(h *network.Hold) int64 { return h.CardID })
}

// networkMovementRow is a movement of a card's ledger.
type networkMovementRow struct {
	ID            int64           `bun:"id"`
	CardID        int64           `bun:"network_giftcard_id"`
	Kind          string          `bun:"kind"`
	Amount        decimal.Decimal `bun:"amount"`
	BalanceAfter  decimal.Decimal `bun:"balance_after"`
	UsageID       *int64          `bun:"usage_id"`
	HoldID        *int64          `bun:"hold_id"`
	PartnerID     *int64          `bun:"partner_id"`
	ActorID       *int64          `bun:"actor_user_id"`
	ReservationID string          `bun:"reservation_id"`
	Comment       string          `bun:"comment"`
	PayoutID      *int64          `bun:"payout_id"`
	CreatedAt     time.Time       `bun:"created_at"`
}

const networkMovementFrom = `SELECT m.id, m.network_giftcard_id, m.kind, m.amount, m.balance_after, m.usage_id, m.hold_id,
	m.partner_id, m.actor_user_id, m.reservation_id, m.comment, m.payout_id, m.created_at
	FROM network_giftcard_movements m`

func movementOf(r *networkMovementRow) *network.Movement {
	return &network.Movement{ID: r.ID, CardID: r.CardID, Kind: r.Kind, Amount: r.Amount, BalanceAfter: r.BalanceAfter,
		UsageID: r.UsageID, HoldID: r.HoldID, PartnerID: r.PartnerID, ActorID: r.ActorID,
		ReservationID: r.ReservationID, Comment: r.Comment, PayoutID: r.PayoutID, CreatedAt: r.CreatedAt}
}

// MovementsOfCards implements network.ListStore.
func (s *NetworkListStore) MovementsOfCards(ctx context.Context, cardIDs []int64, tenant *int64, page domain.PageRequest) ([][]*network.Movement, []int, error) {
	return readChildren(ctx, s.db, ledgerOfCard, networkMovementFrom, "m.id", "m.id", cardIDs, tenant, page, movementOf,
		func(m *network.Movement) int64 { return m.CardID })
}

// one reads the row query selects into dest; domain.ErrNotFound when
// there is none.
func one(ctx context.Context, db bun.IDB, what string, dest any, query string, args ...any) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	err := db.NewRaw(query, args...).Scan(ctx, dest)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return domain.ErrNotFound
	case err != nil:
		return fmt.Errorf("select %s: %w", what, err)
	}
	return nil
}

// UsageByID implements network.ListStore.
func (s *NetworkListStore) UsageByID(ctx context.Context, id int64, tenant *int64) (*network.Usage, error) {
	scope, args := networkUsageTenant(tenant)
	var r networkUsageRow
	if err := one(ctx, s.db, "network giftcard usage", &r, networkUsageFrom+` WHERE u.id = ? AND `+scope,
		append([]any{id}, args...)...); err != nil {
		return nil, err
	}
	return r.toDomain(), nil
}

// HoldByID implements network.ListStore.
func (s *NetworkListStore) HoldByID(ctx context.Context, id int64, tenant *int64) (*network.Hold, error) {
	var r networkHoldRow
	if err := one(ctx, s.db, "network giftcard hold", &r, networkHoldFrom+` WHERE h.id = ?0
		AND (?1::bigint IS NULL OR c.marketplace_id = ?1)`, id, tenantArg(tenant)); err != nil {
		return nil, err
	}
	return r.toDomain(), nil
}

// MovementByID implements network.ListStore.
func (s *NetworkListStore) MovementByID(ctx context.Context, id int64, tenant *int64) (*network.Movement, error) {
	var r networkMovementRow
	if err := one(ctx, s.db, "network giftcard movement", &r, networkMovementFrom+` WHERE m.id = ?0
		AND (?1::bigint IS NULL OR m.network_giftcard_id IN (SELECT c.id FROM network_giftcards c WHERE c.marketplace_id = ?1))`,
		id, tenantArg(tenant)); err != nil {
		return nil, err
	}
	return movementOf(&r), nil
}

// networkPartnerSelect reads networkPartnerRow of the network_partners
// rows np, as FindNetworkPartner does: a partner without a company record
// shows its defaults.
const networkPartnerSelect = `SELECT p.id, p.uuid, np.marketplace_id, p.status, p.name, np.source_id,
	coalesce(li.commercial_name, '') AS commercial_name, coalesce(li.short_name, '') AS short_name,
	coalesce(li.company_type, '') AS company_type, coalesce(li.siret_number, '') AS siret_number,
	coalesce(li.legal_first_name, '') AS legal_first_name, coalesce(li.legal_last_name, '') AS legal_last_name,
	li.legal_representative_birthday,
	coalesce(li.address_line_1, '') AS address_line_1, coalesce(li.address_line_2, '') AS address_line_2,
	coalesce(li.postal_code, '') AS postal_code, coalesce(li.city, '') AS city,
	coalesce(li.country, '') AS country, coalesce(li.rcs, '') AS rcs, coalesce(li.ape, '') AS ape,
	coalesce(li.vat_id, '') AS vat_id, coalesce(li.agency_email, '') AS agency_email,
	coalesce(li.agency_phone, '') AS agency_phone, coalesce(li.agency_website, '') AS agency_website,
	coalesce(li.hide_from_stats, false) AS hide_from_stats,
	coalesce(li.third_party_sales_only, false) AS third_party_sales_only, li.referrer_id,
	EXISTS (SELECT 1 FROM network_voucher_allowed_partners a
		WHERE a.marketplace_id = np.marketplace_id AND a.partner_id = p.id) AS nv,
	EXISTS (SELECT 1 FROM network_giftcard_allowed_partners a
		WHERE a.marketplace_id = np.marketplace_id AND a.partner_id = p.id) AS ngc,
	ARRAY(SELECT t.tag FROM partner_tags t WHERE t.partner_id = p.id ORDER BY t.position) AS tags`

const networkPartnerJoins = ` JOIN partners p ON p.id = np.partner_id
	LEFT JOIN partner_legal_information li ON li.partner_id = p.id`

func (r *networkPartnerRow) toDomain() *network.Partner {
	return &network.Partner{ID: r.ID, UUID: r.UUID, MarketplaceID: r.MarketplaceID, Status: r.Status, Name: r.Name,
		SourceID: r.SourceID, LinkedToNVSettings: r.LinkedToNVSettings, LinkedToNGCSettings: r.LinkedToNGCSettings,
		Tags: r.Tags, Company: network.Company{CommercialName: r.CommercialName, ShortName: r.ShortName,
			CompanyType: r.CompanyType, SiretNumber: r.SiretNumber, LegalRepresentativeFirstName: r.LegalRepresentativeFirstName,
			LegalRepresentativeLastName: r.LegalRepresentativeLastName, LegalRepresentativeBirthday: r.LegalRepresentativeBirthday,
			HQAddressLine1: r.HQAddressLine1, HQAddressLine2: r.HQAddressLine2, HQPostalCode: r.HQPostalCode, HQCity: r.HQCity,
			HQCountry: r.HQCountry, RCS: r.RCS, APE: r.APE, VATID: r.VATID, AgencyEmail: r.AgencyEmail,
			AgencyPhone: r.AgencyPhone, Website: r.Website, HideFromStats: r.HideFromStats,
			ThirdPartySalesOnly: r.ThirdPartySalesOnly, ReferrerID: r.ReferrerID}}
}

// NetworkPartners implements network.ListStore.
func (s *NetworkListStore) NetworkPartners(ctx context.Context, marketplaceID int64, page domain.PageRequest) ([]*network.Partner, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var count int
	if err := s.db.NewRaw(`SELECT count(*) FROM network_partners WHERE marketplace_id = ?`, marketplaceID).Scan(ctx, &count); err != nil {
		return nil, 0, fmt.Errorf("count network partners: %w", err)
	}
	var rows []networkPartnerRow
	err := s.db.NewRaw(networkPartnerSelect+` FROM network_partners np`+networkPartnerJoins+`
		WHERE np.marketplace_id = ? ORDER BY p.id LIMIT ? OFFSET ?`, marketplaceID, page.Size, page.Offset()).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, 0, fmt.Errorf("select network partners: %w", err)
	}
	out := make([]*network.Partner, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out, count, nil
}

// NetworkPartnersByKey implements network.ListStore.
func (s *NetworkListStore) NetworkPartnersByKey(ctx context.Context, keys []network.PartnerKey) ([]*network.Partner, error) {
	out := make([]*network.Partner, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	markets, partners := make([]int64, len(keys)), make([]int64, len(keys))
	for i, k := range keys {
		markets[i], partners[i] = k.MarketplaceID, k.PartnerID
	}
	var rows []struct {
		networkPartnerRow
		Ord int `bun:"ord"`
	}
	err := s.db.NewRaw(networkPartnerSelect+`, k.ord FROM unnest(?::bigint[], ?::bigint[]) WITH ORDINALITY AS k (market, partner, ord)
		JOIN network_partners np ON np.marketplace_id = k.market AND np.partner_id = k.partner`+networkPartnerJoins,
		pgdialect.Array(markets), pgdialect.Array(partners)).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("select network partners by key: %w", err)
	}
	for i := range rows {
		out[rows[i].Ord-1] = rows[i].toDomain()
	}
	return out, nil
}

const nvOfferFrom = `SELECT o.id, o.box_id, o.partner_id, o.product_id, o.name, o.description, o.terms_of_use,
	o.edition_date, o.rejection_date, o.is_active, o.status, o.ranking FROM box_offers o`

func offerOf(r *nvOfferRow) *network.Offer {
	return &network.Offer{ID: r.ID, BoxID: r.BoxID, PartnerID: r.PartnerID, ProductID: r.ProductID, Name: r.Name,
		Description: r.Description, TermsOfUse: r.TermsOfUse, EditionDate: r.EditionDate, RejectionDate: r.RejectionDate,
		IsActive: r.IsActive, Status: r.Status, Ranking: r.Ranking}
}

// OffersOfBoxes implements network.ListStore.
func (s *NetworkListStore) OffersOfBoxes(ctx context.Context, boxIDs []int64, tenant *int64, page domain.PageRequest) ([][]*network.Offer, []int, error) {
	return readChildren(ctx, s.db, offersOfBox, nvOfferFrom, "o.id", "o.ranking, o.id", boxIDs, tenant, page, offerOf,
		func(o *network.Offer) int64 { return o.BoxID })
}

// OfferByID implements network.ListStore.
func (s *NetworkListStore) OfferByID(ctx context.Context, id int64, tenant *int64) (*network.Offer, int64, error) {
	var r struct {
		nvOfferRow
		MarketplaceID int64 `bun:"marketplace_id"`
	}
	err := one(ctx, s.db, "box offer", &r, `SELECT o.*, b.marketplace_id FROM (`+nvOfferFrom+`) o
		JOIN network_voucher_boxes b ON b.id = o.box_id WHERE o.id = ?0 AND (?1::bigint IS NULL OR b.marketplace_id = ?1)`,
		id, tenantArg(tenant))
	if err != nil {
		return nil, 0, err
	}
	return offerOf(&r.nvOfferRow), r.MarketplaceID, nil
}

// UsagesOfVouchers implements network.ListStore.
func (s *NetworkListStore) UsagesOfVouchers(ctx context.Context, voucherIDs []int64, tenant *int64, page domain.PageRequest) ([][]*network.VoucherUsage, []int, error) {
	return readChildren(ctx, s.db, usagesOfVoucher, nvUsageSelect, "u.id", "u.id", voucherIDs, tenant, page, (*nvUsageRow).toDomain,
		func(u *network.VoucherUsage) int64 { return u.VoucherID })
}

// VoucherUsageByID implements network.ListStore.
func (s *NetworkListStore) VoucherUsageByID(ctx context.Context, id int64, tenant *int64) (*network.VoucherUsage, error) {
	var r nvUsageRow
	if err := one(ctx, s.db, "network voucher usage", &r, nvUsageSelect+` WHERE u.id = ?0
		AND (?1::bigint IS NULL OR b.marketplace_id = ?1)`, id, tenantArg(tenant)); err != nil {
		return nil, err
	}
	return r.toDomain(), nil
}
