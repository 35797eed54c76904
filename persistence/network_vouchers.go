package persistence

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/network"
)

// NetworkVoucherStore is the network.VoucherStore on PostgreSQL. A usage's
// statements are prepared (prepared.go), as a use of a network giftcard's.
type NetworkVoucherStore struct{ db bun.IDB }

var _ network.VoucherStore = (*NetworkVoucherStore)(nil)

// nvTenant is the condition that keeps the rows of tenant's boxes (any for
// nil), a box aliased b, with its arguments.
func nvTenant(tenant *int64) (string, []any) {
	if tenant == nil {
		return "TRUE", nil
	}
	return "b.marketplace_id = ?", []any{*tenant}
}

type nvBoxRow struct {
	ID                     int64              `bun:"id"`
	MarketplaceID          int64              `bun:"marketplace_id"`
	Name                   domain.Localized   `bun:"name"`
	ShortDescription       domain.Localized   `bun:"short_description"`
	LongDescription        domain.Localized   `bun:"long_description"`
	CreationDate           time.Time          `bun:"creation_date"`
	IsActive               bool               `bun:"is_active"`
	IsHighlight            bool               `bun:"is_highlight"`
	Price                  decimal.Decimal    `bun:"price"`
	Weight                 int                `bun:"weight"`
	PriceScope             int                `bun:"price_scope"`
	MaxNumberUsages        int                `bun:"max_number_usages"`
	MaxDaysAfterFirstUsage int                `bun:"max_days_after_first_usage"`
	NbMPOOrders            int                `bun:"nb_mpo_orders"`
	PriceRange             *nvPriceRangeJSON  `bun:"price_range,type:json"`
	Images                 []nvImageJSON      `bun:"images,type:json"`
	AllowedPartners        []nvAllowedJSON    `bun:"allowed_partners,type:json"`
	Products               []nvBoxProductJSON `bun:"products,type:json"`
}

type nvPriceRangeJSON struct {
	ID        int64            `json:"id"`
	PartnerID int64            `json:"partner_id"`
	Name      domain.Localized `json:"name"`
}

type nvImageJSON struct {
	ID         int64      `json:"id"`
	Cover      bool       `json:"cover"`
	MediaID    int64      `json:"media_id"`
	UUID       uuid.UUID  `json:"uuid"`
	Name       string     `json:"name"`
	Size       int64      `json:"size"`
	CreatedOn  time.Time  `json:"created_on"`
	ArchivedOn *time.Time `json:"archived_on"`
}

type nvAllowedJSON struct {
	ID         int64   `json:"id"`
	SourceID   *string `json:"source_id"`
	AgencyName string  `json:"agency_name"`
}

type nvBoxProductJSON struct {
	ID           int64            `json:"id"`
	Name         domain.Localized `json:"name"`
	PriceRangeID *int64           `json:"price_range_id"`
}

// nvAgencyName is the agency name of a partner aliased p whose legal
// information, if any, is aliased li.
const nvAgencyName = `coalesce(nullif(li.agency_name, ''), p.name)`

// nvBoxColumns are nvBoxRow's columns, of a box aliased b: its price range,
// images (those that are media), allowed partners (its marketplace's
// network partners with a validated offer in it) and products as JSON,
// read in the box's statement.
const nvBoxColumns = `b.id, b.marketplace_id, b.name, b.short_description, b.long_description, b.creation_date,
	b.is_active, b.is_highlight, b.price, b.weight, b.price_scope, b.max_number_usages,
	b.max_days_after_first_usage, b.nb_mpo_orders,
	(SELECT json_build_object('id', r.id, 'partner_id', r.partner_id, 'name', r.name)
		FROM network_voucher_price_ranges r WHERE r.id = b.price_range_id) AS price_range,
	(SELECT coalesce(json_agg(json_build_object('id', i.id, 'cover', i.cover, 'media_id', m.id, 'uuid', m.uuid,
			'name', m.name, 'size', m.size, 'created_on', m.created_on, 'archived_on', m.archived_on)
			ORDER BY i.position), '[]')
		FROM network_voucher_box_images i JOIN media m ON m.id = i.media_id WHERE i.box_id = b.id) AS images,
	(SELECT coalesce(json_agg(json_build_object('id', p.id, 'source_id', np.source_id,
			'agency_name', ` + nvAgencyName + `) ORDER BY p.id), '[]')
		FROM network_partners np JOIN partners p ON p.id = np.partner_id
		LEFT JOIN partner_legal_information li ON li.partner_id = p.id
		WHERE np.marketplace_id = b.marketplace_id AND EXISTS (SELECT 1 FROM box_offers o
			WHERE o.box_id = b.id AND o.partner_id = np.partner_id AND o.status = 'VALIDATED')) AS allowed_partners,
	(SELECT coalesce(json_agg(json_build_object('id', x.id, 'name', x.name, 'price_range_id', x.price_range_id)
			ORDER BY x.id), '[]')
		FROM network_voucher_box_products x WHERE x.box_id = b.id) AS products`

func (r *nvBoxRow) toDomain() *network.BoxRecord {
	b := &network.BoxRecord{ID: r.ID, MarketplaceID: r.MarketplaceID, Name: r.Name, ShortDescription: r.ShortDescription,
		LongDescription: r.LongDescription, CreationDate: r.CreationDate, IsActive: r.IsActive, IsHighlight: r.IsHighlight,
		Price: r.Price, Weight: r.Weight, PriceScope: r.PriceScope, MaxUsages: r.MaxNumberUsages,
		MaxDaysAfterFirstUsage: r.MaxDaysAfterFirstUsage, NbMPOOrders: r.NbMPOOrders,
		Images: make([]*network.BoxImage, len(r.Images)), AllowedPartners: make([]*network.AllowedPartner, len(r.AllowedPartners)),
		Products: make([]*network.BoxProduct, len(r.Products))}
	if pr := r.PriceRange; pr != nil {
		b.PriceRange = &network.PriceRange{ID: pr.ID, PartnerID: pr.PartnerID, Name: pr.Name}
	}
	for i, im := range r.Images {
		b.Images[i] = &network.BoxImage{ID: im.ID, Cover: im.Cover, Media: network.BoxMedia{ID: im.MediaID, UUID: im.UUID,
			Name: im.Name, Size: im.Size, CreatedOn: im.CreatedOn, ArchivedOn: im.ArchivedOn}}
	}
	for i, p := range r.AllowedPartners {
		b.AllowedPartners[i] = &network.AllowedPartner{ID: p.ID, SourceID: p.SourceID, AgencyName: p.AgencyName}
	}
	for i, p := range r.Products {
		b.Products[i] = &network.BoxProduct{ID: p.ID, Name: p.Name, PriceRangeID: p.PriceRangeID}
	}
	return b
}

// FindBoxes implements network.VoucherStore.
func (s *NetworkVoucherStore) FindBoxes(ctx context.Context, tenant *int64, page domain.PageRequest) ([]*network.BoxRecord, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	scope, args := nvTenant(tenant)
	var count int
	if err := s.db.NewRaw("SELECT count(*) FROM network_voucher_boxes b WHERE "+scope, args...).Scan(ctx, &count); err != nil {
		return nil, 0, fmt.Errorf("count network voucher boxes: %w", err)
	}
	var rows []nvBoxRow
	err := s.db.NewRaw("SELECT "+nvBoxColumns+" FROM network_voucher_boxes b WHERE "+scope+" ORDER BY b.id LIMIT ? OFFSET ?",
		append(args, page.Size, page.Offset())...).Scan(ctx, &rows)
	if err != nil {
		return nil, 0, fmt.Errorf("select network voucher boxes: %w", err)
	}
	boxes := make([]*network.BoxRecord, len(rows))
	for i := range rows {
		boxes[i] = rows[i].toDomain()
	}
	return boxes, count, nil
}

// FindBox implements network.VoucherStore.
func (s *NetworkVoucherStore) FindBox(ctx context.Context, id int64) (*network.BoxRecord, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []nvBoxRow
	if err := s.db.NewRaw("SELECT "+nvBoxColumns+" FROM network_voucher_boxes b WHERE b.id = ?", id).Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("select network voucher box: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	return rows[0].toDomain(), nil
}

type nvOfferRow struct {
	ID            int64            `bun:"id"`
	BoxID         int64            `bun:"box_id"`
	PartnerID     int64            `bun:"partner_id"`
	ProductID     *int64           `bun:"product_id"`
	Name          domain.Localized `bun:"name"`
	Description   domain.Localized `bun:"description"`
	TermsOfUse    domain.Localized `bun:"terms_of_use"`
	EditionDate   time.Time        `bun:"edition_date"`
	RejectionDate *time.Time       `bun:"rejection_date"`
	IsActive      bool             `bun:"is_active"`
	Status        string           `bun:"status"`
	Ranking       int              `bun:"ranking"`
}

// FindOffers implements network.VoucherStore.
func (s *NetworkVoucherStore) FindOffers(ctx context.Context, boxID int64, page domain.PageRequest) ([]*network.Offer, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var count int
	if err := s.db.NewRaw("SELECT count(*) FROM box_offers WHERE box_id = ?", boxID).Scan(ctx, &count); err != nil {
		return nil, 0, fmt.Errorf("count box offers: %w", err)
	}
	var rows []nvOfferRow
	err := s.db.NewRaw(`SELECT o.id, o.box_id, o.partner_id, o.product_id, o.name, o.description, o.terms_of_use,
		o.edition_date, o.rejection_date, o.is_active, o.status, o.ranking
		FROM box_offers o WHERE o.box_id = ? ORDER BY o.ranking, o.id LIMIT ? OFFSET ?`,
		boxID, page.Size, page.Offset()).Scan(ctx, &rows)
	if err != nil {
		return nil, 0, fmt.Errorf("select box offers: %w", err)
	}
	offers := make([]*network.Offer, len(rows))
	for i, r := range rows {
		offers[i] = &network.Offer{ID: r.ID, BoxID: r.BoxID, PartnerID: r.PartnerID, ProductID: r.ProductID, Name: r.Name,
			Description: r.Description, TermsOfUse: r.TermsOfUse, EditionDate: r.EditionDate, RejectionDate: r.RejectionDate,
			IsActive: r.IsActive, Status: r.Status, Ranking: r.Ranking}
	}
	return offers, count, nil
}

type nvVoucherRow struct {
	ID                  int64                `bun:"id"`
	UUID                uuid.UUID            `bun:"uuid"`
	Code                string               `bun:"code"`
	Status              string               `bun:"status"`
	CreationDate        time.Time            `bun:"creation_date"`
	ExpirationDate      *time.Time           `bun:"expiration_date"`
	MaxUsages           int                  `bun:"max_usages"`
	UsageCount          int                  `bun:"usage_count"`
	Language            string               `bun:"language"`
	BoxID               int64                `bun:"box_id"`
	MarketplaceID       int64                `bun:"marketplace_id"`
	BoxName             domain.Localized     `bun:"box_name"`
	BoxShortDescription domain.Localized     `bun:"box_short_description"`
	BoxLongDescription  domain.Localized     `bun:"box_long_description"`
	BoxPrice            decimal.Decimal      `bun:"box_price"`
	BoxIsActive         bool                 `bun:"box_is_active"`
	Universes           [][]domain.Localized `bun:"universes,type:json"`
}

// nvVoucherSelect reads nvVoucherRow of vouchers aliased v joined to their
// box b: the box's universes each as the names of its path from the root
// (a tree of a few levels; 16 bounds a cycle), by universe id.
const nvVoucherSelect = `SELECT v.id, v.uuid, v.code, v.status, v.creation_date, v.expiration_date, v.max_usages,
	v.usage_count, v.language, v.box_id, b.marketplace_id, b.name AS box_name,
	b.short_description AS box_short_description, b.long_description AS box_long_description,
	b.price AS box_price, b.is_active AS box_is_active,
	(SELECT coalesce(json_agg(x.path ORDER BY x.universe_id), '[]') FROM (
		SELECT bu.universe_id, (WITH RECURSIVE up (id, parent_id, name, depth) AS (
				SELECT u.id, u.parent_id, u.name, 0 FROM universes u WHERE u.id = bu.universe_id
				UNION ALL
				SELECT a.id, a.parent_id, a.name, up.depth + 1 FROM universes a JOIN up ON a.id = up.parent_id
				WHERE up.depth < 16)
			SELECT json_agg(up.name ORDER BY up.depth DESC) FROM up) AS path
		FROM network_voucher_box_universes bu WHERE bu.box_id = v.box_id) x) AS universes
	FROM network_vouchers v JOIN network_voucher_boxes b ON b.id = v.box_id`

func (r *nvVoucherRow) toDomain() *network.Voucher {
	v := &network.Voucher{ID: r.ID, UUID: r.UUID, Code: r.Code, Status: r.Status, CreationDate: r.CreationDate,
		ExpirationDate: r.ExpirationDate, MaxUsages: r.MaxUsages, UsageCount: r.UsageCount, Language: r.Language,
		BoxID: r.BoxID, MarketplaceID: r.MarketplaceID, Box: network.VoucherBox{Name: r.BoxName,
			ShortDescription: r.BoxShortDescription, LongDescription: r.BoxLongDescription, Price: r.BoxPrice,
			IsActive: r.BoxIsActive, Universes: r.Universes}}
	if v.Box.Universes == nil {
		v.Box.Universes = [][]domain.Localized{}
	}
	return v
}

// FindVoucherByCode implements network.VoucherStore. Of two codes that
// differ only in case, the one written as given wins.
func (s *NetworkVoucherStore) FindVoucherByCode(ctx context.Context, code string) (*network.Voucher, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []nvVoucherRow
	err := s.db.NewRaw(nvVoucherSelect+" WHERE lower(v.code) = lower(?0) ORDER BY v.code = ?0 DESC LIMIT 1", code).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("select network voucher: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	return rows[0].toDomain(), nil
}

// FindVouchersByEmail implements network.VoucherStore.
func (s *NetworkVoucherStore) FindVouchersByEmail(ctx context.Context, email string, tenant *int64, page domain.PageRequest) ([]*network.Voucher, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	scope, scopeArgs := nvTenant(tenant)
	where := " WHERE (lower(v.gifter_email) = lower(?) OR lower(v.giftee_email) = lower(?)) AND " + scope
	args := append([]any{email, email}, scopeArgs...)
	var count int
	err := s.db.NewRaw("SELECT count(*) FROM network_vouchers v JOIN network_voucher_boxes b ON b.id = v.box_id"+where,
		args...).Scan(ctx, &count)
	if err != nil {
		return nil, 0, fmt.Errorf("count network vouchers: %w", err)
	}
	var rows []nvVoucherRow
	if err := s.db.NewRaw(nvVoucherSelect+where+" ORDER BY v.id LIMIT ? OFFSET ?",
		append(args, page.Size, page.Offset())...).Scan(ctx, &rows); err != nil {
		return nil, 0, fmt.Errorf("select network vouchers: %w", err)
	}
	vs := make([]*network.Voucher, len(rows))
	for i := range rows {
		vs[i] = rows[i].toDomain()
	}
	return vs, count, nil
}

type nvUsageRow struct {
	ID                int64           `bun:"id"`
	VoucherID         int64           `bun:"network_voucher_id"`
	MarketplaceID     int64           `bun:"marketplace_id"`
	PartnerID         int64           `bun:"partner_id"`
	PartnerAgencyName string          `bun:"partner_agency_name"`
	PartnerSourceID   *int64          `bun:"partner_source_id"`
	IsActive          bool            `bun:"is_active"`
	Comment           string          `bun:"comment"`
	ManagementFees    decimal.Decimal `bun:"management_fees"`
	CommissionRate    decimal.Decimal `bun:"commission_rate"`
	CreationDate      time.Time       `bun:"creation_date"`
	PayoutID          *int64          `bun:"payout_id"`
}

// nvUsageSelect reads nvUsageRow of usages aliased u.
const nvUsageSelect = `SELECT u.id, u.network_voucher_id, b.marketplace_id, u.partner_id,
	` + nvAgencyName + ` AS partner_agency_name, u.partner_source_id, u.is_active, u.comment, u.management_fees,
	u.commission_rate, u.creation_date, u.payout_id
	FROM network_voucher_usages u
	JOIN network_vouchers v ON v.id = u.network_voucher_id
	JOIN network_voucher_boxes b ON b.id = v.box_id
	JOIN partners p ON p.id = u.partner_id
	LEFT JOIN partner_legal_information li ON li.partner_id = u.partner_id`

func (r *nvUsageRow) toDomain() *network.VoucherUsage {
	return &network.VoucherUsage{ID: r.ID, VoucherID: r.VoucherID, MarketplaceID: r.MarketplaceID, PartnerID: r.PartnerID,
		PartnerAgencyName: r.PartnerAgencyName, PartnerSourceID: r.PartnerSourceID, IsActive: r.IsActive,
		Comment: r.Comment, ManagementFees: r.ManagementFees, CommissionRate: r.CommissionRate,
		CreationDate: r.CreationDate, PayoutID: r.PayoutID}
}

// FindUsages implements network.VoucherStore.
func (s *NetworkVoucherStore) FindUsages(ctx context.Context, voucherID int64, page domain.PageRequest) ([]*network.VoucherUsage, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var count int
	err := s.db.NewRaw("SELECT count(*) FROM network_voucher_usages WHERE network_voucher_id = ?", voucherID).Scan(ctx, &count)
	if err != nil {
		return nil, 0, fmt.Errorf("count network voucher usages: %w", err)
	}
	var rows []nvUsageRow
	if err := s.db.NewRaw(nvUsageSelect+" WHERE u.network_voucher_id = ? ORDER BY u.id LIMIT ? OFFSET ?",
		voucherID, page.Size, page.Offset()).Scan(ctx, &rows); err != nil {
		return nil, 0, fmt.Errorf("select network voucher usages: %w", err)
	}
	usages := make([]*network.VoucherUsage, len(rows))
	for i := range rows {
		usages[i] = rows[i].toDomain()
	}
	return usages, count, nil
}

type nvUsableRow struct {
	ID                     int64           `bun:"id"`
	MarketplaceID          int64           `bun:"marketplace_id"`
	TimeZone               string          `bun:"time_zone"`
	BoxID                  int64           `bun:"box_id"`
	Status                 string          `bun:"status"`
	MaxUsages              int             `bun:"max_usages"`
	UsageCount             int             `bun:"usage_count"`
	ExpirationDate         *time.Time      `bun:"expiration_date"`
	FirstUsageDate         *time.Time      `bun:"first_usage_date"`
	LastUsageDate          *time.Time      `bun:"last_usage_date"`
	MaxDaysAfterFirstUsage int             `bun:"max_days_after_first_usage"`
	ManagementFees         decimal.Decimal `bun:"management_fees"`
	CommissionRate         decimal.Decimal `bun:"commission_rate"`
}

// FindUsableVoucher implements network.VoucherStore.
func (s *NetworkVoucherStore) FindUsableVoucher(ctx context.Context, code string) (*network.UsableVoucher, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []nvUsableRow
	err := scanPrepared(ctx, s.db, &rows, `SELECT v.id, b.marketplace_id, m.time_zone, v.box_id, v.status, v.max_usages,
		v.usage_count, v.expiration_date, v.first_usage_date, v.last_usage_date, b.max_days_after_first_usage,
		b.management_fees, b.commission_rate
		FROM network_vouchers v
		JOIN network_voucher_boxes b ON b.id = v.box_id
		JOIN partners m ON m.id = b.marketplace_id
		WHERE lower(v.code) = lower($1) ORDER BY v.code = $1 DESC LIMIT 1`, code)
	if err != nil {
		return nil, fmt.Errorf("select network voucher: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	r := rows[0]
	return &network.UsableVoucher{ID: r.ID, MarketplaceID: r.MarketplaceID, MarketplaceTimeZone: r.TimeZone, BoxID: r.BoxID,
		Status: r.Status, MaxUsages: r.MaxUsages, UsageCount: r.UsageCount, ExpirationDate: r.ExpirationDate,
		FirstUsageDate: r.FirstUsageDate, LastUsageDate: r.LastUsageDate, MaxDaysAfterFirstUsage: r.MaxDaysAfterFirstUsage,
		ManagementFees: r.ManagementFees, CommissionRate: r.CommissionRate}, nil
}

// FindUsagePartner implements network.VoucherStore. A source id is matched
// as written in its canonical decimal form: "007" is not 7.
func (s *NetworkVoucherStore) FindUsagePartner(ctx context.Context, marketplace, box int64, bySourceID bool, ref int64) (*network.UsagePartner, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []struct {
		ID                int64   `bun:"id"`
		SourceID          *string `bun:"source_id"`
		Status            string  `bun:"status"`
		InNetwork         bool    `bun:"in_network"`
		HasValidatedOffer bool    `bun:"has_validated_offer"`
	}
	const offer = `EXISTS (SELECT 1 FROM box_offers o WHERE o.box_id = $2 AND o.partner_id = p.id AND o.status = 'VALIDATED')`
	var err error
	if bySourceID {
		err = scanPrepared(ctx, s.db, &rows, `SELECT p.id, np.source_id, p.status, true AS in_network, `+offer+` AS has_validated_offer
			FROM network_partners np JOIN partners p ON p.id = np.partner_id
			WHERE np.marketplace_id = $1 AND np.source_id = $3`, marketplace, box, strconv.FormatInt(ref, 10))
	} else {
		err = scanPrepared(ctx, s.db, &rows, `SELECT p.id, np.source_id, p.status, np.partner_id IS NOT NULL AS in_network,
			`+offer+` AS has_validated_offer
			FROM partners p LEFT JOIN network_partners np ON np.marketplace_id = $1 AND np.partner_id = p.id
			WHERE p.id = $3`, marketplace, box, ref)
	}
	if err != nil {
		return nil, fmt.Errorf("select usage partner: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	r := rows[0]
	p := &network.UsagePartner{ID: r.ID, InNetwork: r.InNetwork, HasValidatedOffer: r.HasValidatedOffer,
		Active: r.Status != domain.PartnerStatusInactive}
	if r.SourceID != nil {
		if n, err := strconv.ParseInt(*r.SourceID, 10, 64); err == nil {
			p.SourceID = &n
		}
	}
	return p, nil
}

// actorID is a movement's actor: NULL for a caller without an account row
// (id 0).
func actorID(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

// UseVoucher implements network.VoucherStore: one statement, a conditional
// update of the voucher (PostgreSQL serialises them on its row and checks
// the condition again on the row as the update before it left it, so
// concurrent usages see each other's count and dates) and the inserts of
// the usage and its movement, which hold the row's lock no longer than the
// statement and the commit.
func (s *NetworkVoucherStore) UseVoucher(ctx context.Context, u *network.VoucherUsage) (bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []struct {
		UsageID    int64  `bun:"usage_id"`
		AgencyName string `bun:"agency_name"`
	}
	err := scanPrepared(ctx, s.db, &rows, `WITH used AS (
			UPDATE network_vouchers v
			SET usage_count = v.usage_count + 1,
			    first_usage_date = LEAST(v.first_usage_date, $3),
			    last_usage_date = GREATEST(v.last_usage_date, $3),
			    status = CASE WHEN v.status = 'paid' THEN 'using' ELSE v.status END
			FROM network_voucher_boxes b
			WHERE v.id = $1 AND b.id = v.box_id AND v.status IN ('paid', 'using') AND v.usage_count < v.max_usages
			  AND (v.expiration_date IS NULL OR $3 <= v.expiration_date)
			  AND (b.max_days_after_first_usage = 0 OR v.first_usage_date IS NULL
			       OR GREATEST(v.last_usage_date, $3) - LEAST(v.first_usage_date, $3)
			          <= make_interval(hours => 24 * b.max_days_after_first_usage))
			  AND EXISTS (SELECT 1 FROM network_partners np JOIN partners p ON p.id = np.partner_id
			              WHERE np.marketplace_id = b.marketplace_id AND np.partner_id = $2 AND p.status <> 'i')
			  AND EXISTS (SELECT 1 FROM box_offers o WHERE o.box_id = v.box_id AND o.partner_id = $2 AND o.status = 'VALIDATED')
			RETURNING v.id, v.usage_count),
		usage AS (
			INSERT INTO network_voucher_usages (network_voucher_id, partner_id, partner_source_id, comment,
				management_fees, commission_rate, creation_date)
			SELECT id, $2, $4, $5, $6, $7, $3 FROM used RETURNING id),
		movement AS (
			INSERT INTO network_voucher_movements (network_voucher_id, kind, count, count_after, usage_id, partner_id,
				actor_user_id, comment)
			SELECT used.id, 'use', 1, used.usage_count, usage.id, $2, $8, $5 FROM used, usage)
		SELECT usage.id AS usage_id, `+nvAgencyName+` AS agency_name
		FROM usage JOIN partners p ON p.id = $2 LEFT JOIN partner_legal_information li ON li.partner_id = p.id`,
		u.VoucherID, u.PartnerID, u.CreationDate, u.PartnerSourceID, u.Comment, u.ManagementFees, u.CommissionRate,
		actorID(u.ActorUserID))
	if err != nil {
		return false, fmt.Errorf("use network voucher: %w", err)
	}
	if len(rows) == 0 {
		return false, nil
	}
	u.ID, u.PartnerAgencyName = rows[0].UsageID, rows[0].AgencyName
	return true, nil
}

// LockUsageVoucher implements network.VoucherStore.
func (s *NetworkVoucherStore) LockUsageVoucher(ctx context.Context, id int64, tenant *int64) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	scope, scopeArgs := nvTenant(tenant)
	var ids []int64
	err := s.db.NewRaw(`SELECT v.id FROM network_voucher_usages u
		JOIN network_vouchers v ON v.id = u.network_voucher_id
		JOIN network_voucher_boxes b ON b.id = v.box_id
		WHERE u.id = ? AND `+scope+` FOR UPDATE OF v`, append([]any{id}, scopeArgs...)...).Scan(ctx, &ids)
	if err != nil {
		return fmt.Errorf("lock network voucher: %w", err)
	}
	if len(ids) == 0 {
		return domain.ErrNotFound
	}
	return nil
}

// CancelUsage implements network.VoucherStore. The voucher's usage dates
// are those of its other active usages as the statement sees them: its
// row locked first (LockUsageVoucher), every usage committed before.
func (s *NetworkVoucherStore) CancelUsage(ctx context.Context, id, actor int64, comment string) (*network.VoucherUsage, bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var done int
	err := s.db.NewRaw(`WITH cancelled AS (
			UPDATE network_voucher_usages SET is_active = false
			WHERE id = ?0 AND is_active AND payout_id IS NULL
			RETURNING id, network_voucher_id, partner_id),
		others AS (
			SELECT min(u.creation_date) AS first, max(u.creation_date) AS last
			FROM network_voucher_usages u JOIN cancelled c ON u.network_voucher_id = c.network_voucher_id
			WHERE u.is_active AND u.id <> c.id),
		restored AS (
			UPDATE network_vouchers v
			SET usage_count = v.usage_count - 1, first_usage_date = others.first, last_usage_date = others.last
			FROM cancelled, others WHERE v.id = cancelled.network_voucher_id
			RETURNING v.id, v.usage_count),
		movement AS (
			INSERT INTO network_voucher_movements (network_voucher_id, kind, count, count_after, usage_id, partner_id,
				actor_user_id, comment)
			SELECT restored.id, 'cancel', -1, restored.usage_count, cancelled.id, cancelled.partner_id, ?1, ?2
			FROM restored, cancelled)
		SELECT count(*) FROM cancelled`, id, actorID(actor), comment).Scan(ctx, &done)
	if err != nil {
		return nil, false, fmt.Errorf("cancel network voucher usage: %w", err)
	}
	var row nvUsageRow
	if err := s.db.NewRaw(nvUsageSelect+" WHERE u.id = ?", id).Scan(ctx, &row); err != nil {
		return nil, false, fmt.Errorf("select network voucher usage: %w", notFound(err))
	}
	return row.toDomain(), done == 1, nil
}
