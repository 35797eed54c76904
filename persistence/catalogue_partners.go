package persistence

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
)

// PartnerCatalogStore is the domain.PartnerCatalogStore on PostgreSQL.
type PartnerCatalogStore struct{ db bun.IDB }

var _ catalogue.PartnerCatalogStore = (*PartnerCatalogStore)(nil)

// NewPartnerCatalogStore returns the store on db.
func NewPartnerCatalogStore(db bun.IDB) *PartnerCatalogStore { return &PartnerCatalogStore{db: db} }

// partnerCatalogMap makes a nil map an empty one: the jsonb columns hold
// objects, never null.
func partnerCatalogMap[M ~map[string]string](m M) M {
	if m == nil {
		return M{}
	}
	return m
}

type partnerProfileRow struct {
	bun.BaseModel `bun:"table:partner_profiles,alias:pp"`

	PartnerID             int64             `bun:"partner_id,pk"`
	Description           domain.Localized  `bun:"description,type:jsonb,notnull"`
	Managers              domain.Localized  `bun:"managers,type:jsonb,notnull"`
	Nearby                domain.Localized  `bun:"nearby,type:jsonb,notnull"`
	PracticalInformation  domain.Localized  `bun:"practical_information,type:jsonb,notnull"`
	Access                domain.Localized  `bun:"access,type:jsonb,notnull"`
	CommercialDescription domain.Localized  `bun:"commercial_description,type:jsonb,notnull"`
	Region                string            `bun:"region,notnull"`
	Department            string            `bun:"department,notnull"`
	City                  string            `bun:"city,notnull"`
	Latitude              *decimal.Decimal  `bun:"latitude,type:numeric"`
	Longitude             *decimal.Decimal  `bun:"longitude,type:numeric"`
	DisabledAccess        bool              `bun:"disabled_access,notnull"`
	AirConditioning       bool              `bun:"air_conditioning,notnull"`
	PrivateParking        bool              `bun:"private_parking,notnull"`
	Wifi                  bool              `bun:"wifi,notnull"`
	SmokingArea           bool              `bun:"smoking_area,notnull"`
	PetsAllowed           bool              `bun:"pets_allowed,notnull"`
	FamilyFriendly        bool              `bun:"family_friendly,notnull"`
	SocialLinks           map[string]string `bun:"social_links,type:jsonb,notnull"`
}

func toRowPartnerProfile(partnerID int64, p *catalogue.PartnerProfile) *partnerProfileRow {
	f := p.Facilities
	return &partnerProfileRow{PartnerID: partnerID,
		Description: partnerCatalogMap(p.Description), Managers: partnerCatalogMap(p.Managers),
		Nearby: partnerCatalogMap(p.Nearby), PracticalInformation: partnerCatalogMap(p.PracticalInformation),
		Access: partnerCatalogMap(p.Access), CommercialDescription: partnerCatalogMap(p.CommercialDescription),
		Region: p.Region, Department: p.Department, City: p.City, Latitude: p.Latitude, Longitude: p.Longitude,
		DisabledAccess: f.DisabledAccess, AirConditioning: f.AirConditioning, PrivateParking: f.PrivateParking,
		Wifi: f.Wifi, SmokingArea: f.SmokingArea, PetsAllowed: f.PetsAllowed, FamilyFriendly: f.FamilyFriendly,
		SocialLinks: partnerCatalogMap(p.SocialLinks)}
}

// toDomain reads the profile; r is nil for a partner that has none.
func (r *partnerProfileRow) toDomain() catalogue.PartnerProfile {
	if r == nil {
		r = &partnerProfileRow{}
	}
	return catalogue.PartnerProfile{
		Description: partnerCatalogMap(r.Description), Managers: partnerCatalogMap(r.Managers),
		Nearby: partnerCatalogMap(r.Nearby), PracticalInformation: partnerCatalogMap(r.PracticalInformation),
		Access: partnerCatalogMap(r.Access), CommercialDescription: partnerCatalogMap(r.CommercialDescription),
		Region: r.Region, Department: r.Department, City: r.City, Latitude: r.Latitude, Longitude: r.Longitude,
		Facilities: catalogue.PartnerFacilities{DisabledAccess: r.DisabledAccess, AirConditioning: r.AirConditioning,
			PrivateParking: r.PrivateParking, Wifi: r.Wifi, SmokingArea: r.SmokingArea, PetsAllowed: r.PetsAllowed,
			FamilyFriendly: r.FamilyFriendly},
		SocialLinks: partnerCatalogMap(r.SocialLinks),
	}
}

// listedPartnerRow is a partner with its profile, when it has one, and
// its labels (withPartnerLabels, pageLabels).
type listedPartnerRow struct {
	bun.BaseModel `bun:"table:partners,alias:p"`

	ID      int64             `bun:"id,pk" json:"id"`
	Name    string            `bun:"name" json:"name"`
	Profile partnerProfileRow `bun:"embed:profile__" json:"-"` // zero without one (partnerProfileJoin)
	Labels  []partnerLabelRow `bun:"labels,scanonly,type:json" json:"labels"`
}

// partnerProfileJoin adds to q (on partners aliased p) the partner's
// profile, when it has one, as listedPartnerRow's profile__ columns: an
// embedded struct scans in place, where Bun's has-one relation set up
// each joined field anew for every row.
func partnerProfileJoin(q *bun.SelectQuery) *bun.SelectQuery {
	q = q.Join("LEFT JOIN partner_profiles AS profile ON profile.partner_id = p.id")
	for _, f := range q.DB().Table(reflect.TypeFor[partnerProfileRow]()).Fields {
		q = q.ColumnExpr("profile.? AS ?", bun.Ident(f.Name), bun.Ident("profile__"+f.Name))
	}
	return q
}

type partnerLabelRow struct {
	bun.BaseModel `bun:"table:partner_labels,alias:pl"`

	ID        int64  `bun:"id,pk,autoincrement" json:"id"`
	PartnerID int64  `bun:"partner_id,notnull" json:"partner_id"`
	Name      string `bun:"name,notnull" json:"name"`
	LogoURL   string `bun:"logo_url,notnull" json:"logo_url"`
}

func (l *partnerLabelRow) toDomain() catalogue.PartnerLabel {
	return catalogue.PartnerLabel{ID: l.ID, PartnerID: l.PartnerID, Name: l.Name, LogoURL: l.LogoURL}
}

// scopePartners restricts q (on partners aliased p) to the partners f
// selects, its values written by a. It fails closed: a filter without a
// scope is an error, never every partner.
func scopePartners(q *bun.SelectQuery, f catalogue.PartnerFilter, a *sqlArgs) (*bun.SelectQuery, error) {
	switch {
	case f.Self != 0 && f.NetworkOf == 0:
		q = q.Where("p.id = ?", a.val(f.Self))
	case f.NetworkOf != 0 && f.Self == 0:
		q = q.Where("p.id IN (SELECT np.partner_id FROM network_partners np WHERE np.marketplace_id = ?)", a.val(f.NetworkOf))
		if len(f.Statuses) == 0 {
			return nil, errors.New("partner filter: a network scope needs statuses")
		}
		q = q.Where("p.status = ANY(?)", a.array(f.Statuses))
	default:
		return nil, fmt.Errorf("partner filter: exactly one scope needed, got self %d and network of %d", f.Self, f.NetworkOf)
	}
	if f.IDs != nil {
		if len(f.IDs) == 0 {
			q = q.Where("false")
		} else {
			q = q.Where("p.id = ANY(?)", a.array(f.IDs))
		}
	}
	return q, nil
}

// selectListedPartners is the query of the partners f selects, with their
// profiles (one join), into rows, its values written by a: the paged list
// and the batch read share it.
func (s *PartnerCatalogStore) selectListedPartners(rows *[]*listedPartnerRow, f catalogue.PartnerFilter, a *sqlArgs) (*bun.SelectQuery, error) {
	q := s.db.NewSelect().Model(rows).Column("p.id", "p.name")
	if !f.NamesOnly {
		q = partnerProfileJoin(q)
	}
	return scopePartners(q, f, a)
}

// withPartnerLabels adds to q, a selectListedPartners query, the partners'
// labels, joined and grouped into a JSON array per partner. The batch read
// uses it; a page reads its labels apart (pageLabels), since grouping
// would join every partner's labels before the page is cut. (A labels
// subquery per partner cost more where partner_labels is small enough to
// be scanned rather than read through its index: docs/PERFORMANCE.md.)
func withPartnerLabels(q *bun.SelectQuery, f catalogue.PartnerFilter) *bun.SelectQuery {
	q = q.Join("LEFT JOIN partner_labels AS pl ON pl.partner_id = p.id").
		ColumnExpr(`coalesce(` + partnerLabelsJSON + ` FILTER (WHERE pl.id IS NOT NULL), '[]') AS labels`).
		GroupExpr("p.id")
	if !f.NamesOnly {
		q = q.GroupExpr("profile.partner_id")
	}
	return q
}

// pageLabels reads the labels of the partners of rows, a page, in one
// prepared statement.
func (s *PartnerCatalogStore) pageLabels(ctx context.Context, rows []*listedPartnerRow) error {
	if len(rows) == 0 {
		return nil
	}
	byID := make(map[int64]*listedPartnerRow, len(rows))
	ids := make([]int64, len(rows))
	for i, r := range rows {
		byID[r.ID], ids[i] = r, r.ID
	}
	var labels []partnerLabelRow
	err := scanPrepared(ctx, s.db, &labels, `SELECT pl.id, pl.partner_id, pl.name, pl.logo_url FROM partner_labels pl
		WHERE pl.partner_id = ANY($1) ORDER BY pl.partner_id, pl.id`, ids)
	if err != nil {
		return fmt.Errorf("select partner labels: %w", err)
	}
	for _, l := range labels {
		r := byID[l.PartnerID]
		r.Labels = append(r.Labels, l)
	}
	return nil
}

// selectScopedPartners scans q, restricted to the partners f selects and
// sorted by order, into rows of R, and converts each with conv: the reads
// of what the selected partners' other tables say (destinations,
// agencies) differ only in their columns.
func selectScopedPartners[R, T any](ctx context.Context, q *bun.SelectQuery, f catalogue.PartnerFilter, order, what string, conv func(R) T) ([]T, error) {
	q, err := scopePartners(q, f, &sqlArgs{})
	if err != nil {
		return nil, err
	}
	var rows []R
	if err := q.OrderExpr(order).Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("select %s: %w", what, err)
	}
	out := make([]T, len(rows))
	for i, r := range rows {
		out[i] = conv(r)
	}
	return out, nil
}

// FindListedPartners returns a page of the partners f selects, by id, with
// their profiles (one join) and labels (one statement for the page), and
// how many f selects.
func (s *PartnerCatalogStore) FindListedPartners(ctx context.Context, f catalogue.PartnerFilter, page domain.PageRequest) ([]*catalogue.PartnerListing, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []*listedPartnerRow
	q, err := s.selectListedPartners(&rows, f, &sqlArgs{})
	if err != nil {
		return nil, 0, err
	}
	// ICU's lower(), as the indexes: the database's own may only fold ASCII.
	if f.Department != "" {
		q = q.Where(`lower(profile.department COLLATE "und-x-icu") = lower(?::text COLLATE "und-x-icu")`, f.Department)
	}
	if f.Region != "" {
		q = q.Where(`lower(profile.region COLLATE "und-x-icu") = lower(?::text COLLATE "und-x-icu")`, f.Region)
	}
	count, err := q.OrderExpr("p.id").Limit(page.Size).Offset(page.Offset()).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("select listed partners: %w", err)
	}
	if err := s.pageLabels(ctx, rows); err != nil {
		return nil, 0, err
	}
	return listings(rows), count, nil
}

// FindPartnerListings returns the partners f selects, by id, with their
// profiles and labels, in one prepared statement, unpaged: f.IDs bounds
// them.
func (s *PartnerCatalogStore) FindPartnerListings(ctx context.Context, f catalogue.PartnerFilter) ([]*catalogue.PartnerListing, error) {
	if f.IDs == nil {
		return nil, errors.New("partner listings: a batch read needs ids")
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []*listedPartnerRow
	a := &sqlArgs{prepared: true}
	q, err := s.selectListedPartners(&rows, f, a)
	if err != nil {
		return nil, err
	}
	if err := scanPrepared(ctx, s.db, &rows, withPartnerLabels(q, f).OrderExpr("p.id").String(), a.params...); err != nil {
		return nil, fmt.Errorf("select partner listings: %w", err)
	}
	return listings(rows), nil
}

// listings turns partner rows into listings.
func listings(rows []*listedPartnerRow) []*catalogue.PartnerListing {
	out := make([]*catalogue.PartnerListing, len(rows))
	for i, r := range rows {
		out[i] = r.toDomain()
	}
	return out
}

func (r *listedPartnerRow) toDomain() *catalogue.PartnerListing {
	labels := make([]catalogue.PartnerLabel, len(r.Labels))
	for j := range r.Labels {
		labels[j] = r.Labels[j].toDomain()
	}
	return &catalogue.PartnerListing{ID: r.ID, Name: r.Name, Profile: r.Profile.toDomain(), Labels: labels}
}

// partnerLabelsJSON is the JSON array of partner p's labels, by id, as
// listedPartnerRow.Labels reads them.
const partnerLabelsJSON = `json_agg(json_build_object('id', pl.id, 'partner_id', pl.partner_id, 'name', pl.name,
			'logo_url', pl.logo_url) ORDER BY pl.id)`

// FindDestinations returns the distinct places of the partners f selects
// that name at least one of city, department and region.
func (s *PartnerCatalogStore) FindDestinations(ctx context.Context, f catalogue.PartnerFilter) ([]catalogue.Destination, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	type destinationRow struct {
		City       string `bun:"city"`
		Department string `bun:"department"`
		Region     string `bun:"region"`
	}
	q := s.db.NewSelect().TableExpr("partners AS p").
		Join("JOIN partner_profiles AS pp ON pp.partner_id = p.id").
		ColumnExpr("pp.city, pp.department, pp.region").Distinct().
		Where("(pp.city <> '' OR pp.department <> '' OR pp.region <> '')")
	return selectScopedPartners(ctx, q, f, "pp.region, pp.department, pp.city", "destinations",
		func(r destinationRow) catalogue.Destination {
			return catalogue.Destination{City: r.City, Department: r.Department, Region: r.Region}
		})
}

// FindPartnerAgencies returns the partners f selects with their agency name,
// their name when the legal information has none.
func (s *PartnerCatalogStore) FindPartnerAgencies(ctx context.Context, f catalogue.PartnerFilter) ([]catalogue.PartnerAgency, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	type agencyRow struct {
		ID         int64  `bun:"id"`
		AgencyName string `bun:"agency_name"`
	}
	q := s.db.NewSelect().TableExpr("partners AS p").
		Join("LEFT JOIN partner_legal_information AS li ON li.partner_id = p.id").
		ColumnExpr("p.id, COALESCE(NULLIF(li.agency_name, ''), p.name) AS agency_name")
	return selectScopedPartners(ctx, q, f, "p.id", "partner agencies",
		func(r agencyRow) catalogue.PartnerAgency {
			return catalogue.PartnerAgency{ID: r.ID, AgencyName: r.AgencyName}
		})
}

// AddNetworkPartner puts a partner in a marketplace's network; adding it
// twice is harmless.
func (s *PartnerCatalogStore) AddNetworkPartner(ctx context.Context, marketplaceID, partnerID int64) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err := s.db.NewRaw(`INSERT INTO network_partners (marketplace_id, partner_id) VALUES (?, ?)
		ON CONFLICT DO NOTHING`, marketplaceID, partnerID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("add partner %d to the network of %d: %w", partnerID, marketplaceID, err)
	}
	return nil
}

// SavePartnerProfile creates or replaces the partner's profile.
func (s *PartnerCatalogStore) SavePartnerProfile(ctx context.Context, partnerID int64, p *catalogue.PartnerProfile) error {
	return partnerCatalogUpsert(ctx, s.db, toRowPartnerProfile(partnerID, p), "partner profile")
}

// AddPartnerLabel inserts l and sets its ID.
func (s *PartnerCatalogStore) AddPartnerLabel(ctx context.Context, l *catalogue.PartnerLabel) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := &partnerLabelRow{PartnerID: l.PartnerID, Name: l.Name, LogoURL: l.LogoURL}
	if _, err := s.db.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert partner label: %w", err)
	}
	l.ID = row.ID
	return nil
}

// partnerCatalogUpsert inserts a row keyed by partner_id, or replaces every
// column of the existing one.
func partnerCatalogUpsert(ctx context.Context, db bun.IDB, row any, what string) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	q := db.NewInsert().Model(row).On("CONFLICT (partner_id) DO UPDATE")
	for _, f := range db.Dialect().Tables().Get(reflect.TypeOf(row)).DataFields {
		q = q.Set("? = EXCLUDED.?", bun.Ident(f.Name), bun.Ident(f.Name))
	}
	if _, err := q.Exec(ctx); err != nil {
		return fmt.Errorf("save %s: %w", what, err)
	}
	return nil
}

// partnerCatalogFind reads the row of a partner into row.
// Errors: domain.ErrNotFound when the partner has none.
func partnerCatalogFind(ctx context.Context, db bun.IDB, row any, partnerID int64) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	return notFound(db.NewSelect().Model(row).Where("partner_id = ?", partnerID).Scan(ctx))
}

type legalInformationRow struct {
	bun.BaseModel `bun:"table:partner_legal_information"`

	PartnerID        int64           `bun:"partner_id,pk"`
	AgencyName       string          `bun:"agency_name,notnull"`
	AddressLine1     string          `bun:"address_line_1,notnull"`
	AddressLine2     string          `bun:"address_line_2,notnull"`
	AddressLine3     string          `bun:"address_line_3,notnull"`
	PostalCode       string          `bun:"postal_code,notnull"`
	City             string          `bun:"city,notnull"`
	Country          string          `bun:"country,notnull"`
	CompanyType      string          `bun:"company_type,notnull"`
	HQPhoneNumber    string          `bun:"hq_phone_number,notnull"`
	AgencyPhone      string          `bun:"agency_phone,notnull"`
	AgencyWebsite    string          `bun:"agency_website,notnull"`
	LegalNoticeEmail string          `bun:"legal_notice_email,notnull"`
	LegalForm        string          `bun:"legal_form,notnull"`
	CapitalStock     decimal.Decimal `bun:"capital_stock,type:numeric,notnull"`
	LegalFirstName   string          `bun:"legal_first_name,notnull"`
	LegalLastName    string          `bun:"legal_last_name,notnull"`
	SIRETNumber      string          `bun:"siret_number,notnull"`
	VATID            string          `bun:"vat_id,notnull"`
	RCS              string          `bun:"rcs,notnull"`
}

// FindLegalInformation returns domain.ErrNotFound when the partner has none.
func (s *PartnerCatalogStore) FindLegalInformation(ctx context.Context, partnerID int64) (*catalogue.LegalInformation, error) {
	row := new(legalInformationRow)
	if err := partnerCatalogFind(ctx, s.db, row, partnerID); err != nil {
		return nil, err
	}
	li := catalogue.LegalInformation{AgencyName: row.AgencyName, AddressLine1: row.AddressLine1,
		AddressLine2: row.AddressLine2, AddressLine3: row.AddressLine3, PostalCode: row.PostalCode, City: row.City,
		Country: row.Country, CompanyType: row.CompanyType, HQPhoneNumber: row.HQPhoneNumber,
		AgencyPhone: row.AgencyPhone, AgencyWebsite: row.AgencyWebsite, LegalNoticeEmail: row.LegalNoticeEmail,
		LegalForm: row.LegalForm, CapitalStock: row.CapitalStock, LegalFirstName: row.LegalFirstName,
		LegalLastName: row.LegalLastName, SIRETNumber: row.SIRETNumber, VATID: row.VATID, RCS: row.RCS}
	return &li, nil
}

// SaveLegalInformation creates or replaces the partner's legal information.
func (s *PartnerCatalogStore) SaveLegalInformation(ctx context.Context, partnerID int64, li *catalogue.LegalInformation) error {
	row := &legalInformationRow{PartnerID: partnerID, AgencyName: li.AgencyName, AddressLine1: li.AddressLine1,
		AddressLine2: li.AddressLine2, AddressLine3: li.AddressLine3, PostalCode: li.PostalCode, City: li.City,
		Country: li.Country, CompanyType: li.CompanyType, HQPhoneNumber: li.HQPhoneNumber,
		AgencyPhone: li.AgencyPhone, AgencyWebsite: li.AgencyWebsite, LegalNoticeEmail: li.LegalNoticeEmail,
		LegalForm: li.LegalForm, CapitalStock: li.CapitalStock, LegalFirstName: li.LegalFirstName,
		LegalLastName: li.LegalLastName, SIRETNumber: li.SIRETNumber, VATID: li.VATID, RCS: li.RCS}
	return partnerCatalogUpsert(ctx, s.db, row, "legal information")
}

type refundWithdrawalTermsRow struct {
	bun.BaseModel `bun:"table:partner_refund_withdrawal_terms"`

	PartnerID int64            `bun:"partner_id,pk"`
	Terms     domain.Localized `bun:"terms,type:jsonb,notnull"`
}

// FindRefundWithdrawalTerms returns domain.ErrNotFound when the partner has
// none.
func (s *PartnerCatalogStore) FindRefundWithdrawalTerms(ctx context.Context, partnerID int64) (domain.Localized, error) {
	row := new(refundWithdrawalTermsRow)
	if err := partnerCatalogFind(ctx, s.db, row, partnerID); err != nil {
		return nil, err
	}
	return partnerCatalogMap(row.Terms), nil
}

// SaveRefundWithdrawalTerms creates or replaces the partner's terms.
func (s *PartnerCatalogStore) SaveRefundWithdrawalTerms(ctx context.Context, partnerID int64, terms domain.Localized) error {
	row := &refundWithdrawalTermsRow{PartnerID: partnerID, Terms: partnerCatalogMap(terms)}
	return partnerCatalogUpsert(ctx, s.db, row, "refund and withdrawal terms")
}

type eventsProductInformationRow struct {
	bun.BaseModel `bun:"table:product_information_events"`

	PartnerID                int64             `bun:"partner_id,pk"`
	Title                    domain.Localized  `bun:"title,type:jsonb,notnull"`
	Description              domain.Localized  `bun:"description,type:jsonb,notnull"`
	TOSURL                   map[string]string `bun:"tos_url,type:jsonb,notnull"`
	DisplayFullyBookedEvents bool              `bun:"display_fully_booked_events,notnull"`
	DisplayEventsPerSlots    bool              `bun:"display_events_per_slots,scanonly"`
}

// FindEventsProductInformation returns the partner's event settings, the
// defaults when it has none. Display events per slots is the events area's
// flag (event_settings), so that event_slots_list and this answer agree.
func (s *PartnerCatalogStore) FindEventsProductInformation(ctx context.Context, partnerID int64) (*catalogue.EventsProductInformation, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	r := new(eventsProductInformationRow)
	err := s.db.NewRaw(`SELECT k.partner_id,
			COALESCE(pie.title, '{}') AS title, COALESCE(pie.description, '{}') AS description,
			COALESCE(pie.tos_url, '{}') AS tos_url,
			COALESCE(pie.display_fully_booked_events, false) AS display_fully_booked_events,
			COALESCE(es.display_events_per_slots, false) AS display_events_per_slots
		FROM (SELECT ?::bigint AS partner_id) AS k
		LEFT JOIN product_information_events AS pie ON pie.partner_id = k.partner_id
		LEFT JOIN event_settings AS es ON es.partner_id = k.partner_id`, partnerID).Scan(ctx, r)
	if err != nil {
		return nil, fmt.Errorf("select events product information: %w", err)
	}
	return &catalogue.EventsProductInformation{Title: partnerCatalogMap(r.Title), Description: partnerCatalogMap(r.Description),
		TOSURL: partnerCatalogMap(r.TOSURL), DisplayFullyBookedEvents: r.DisplayFullyBookedEvents,
		DisplayEventsPerSlots: r.DisplayEventsPerSlots}, nil
}

// SaveEventsProductInformation creates or replaces the partner's settings,
// display events per slots (in event_settings) in the same statement.
func (s *PartnerCatalogStore) SaveEventsProductInformation(ctx context.Context, partnerID int64, pi *catalogue.EventsProductInformation) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	r := &eventsProductInformationRow{PartnerID: partnerID, Title: partnerCatalogMap(pi.Title),
		Description: partnerCatalogMap(pi.Description), TOSURL: partnerCatalogMap(pi.TOSURL),
		DisplayFullyBookedEvents: pi.DisplayFullyBookedEvents}
	flag := s.db.NewRaw(`INSERT INTO event_settings (partner_id, display_events_per_slots) VALUES (?, ?)
		ON CONFLICT (partner_id) DO UPDATE SET display_events_per_slots = EXCLUDED.display_events_per_slots`,
		partnerID, pi.DisplayEventsPerSlots)
	_, err := s.db.NewInsert().With("flag", flag).Model(r).
		On("CONFLICT (partner_id) DO UPDATE").
		Set("title = EXCLUDED.title, description = EXCLUDED.description, tos_url = EXCLUDED.tos_url").
		Set("display_fully_booked_events = EXCLUDED.display_fully_booked_events").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("save events product information: %w", err)
	}
	return nil
}

type giftcardsProductInformationRow struct {
	bun.BaseModel `bun:"table:product_information_giftcards"`

	PartnerID   int64            `bun:"partner_id,pk"`
	Title       domain.Localized `bun:"title,type:jsonb,notnull"`
	Description domain.Localized `bun:"description,type:jsonb,notnull"`
}

// FindGiftcardsProductInformation returns domain.ErrNotFound when the
// partner has none.
func (s *PartnerCatalogStore) FindGiftcardsProductInformation(ctx context.Context, partnerID int64) (*catalogue.GiftcardsProductInformation, error) {
	r := new(giftcardsProductInformationRow)
	if err := partnerCatalogFind(ctx, s.db, r, partnerID); err != nil {
		return nil, err
	}
	return &catalogue.GiftcardsProductInformation{Title: partnerCatalogMap(r.Title), Description: partnerCatalogMap(r.Description)}, nil
}

// SaveGiftcardsProductInformation creates or replaces the partner's settings.
func (s *PartnerCatalogStore) SaveGiftcardsProductInformation(ctx context.Context, partnerID int64, pi *catalogue.GiftcardsProductInformation) error {
	return partnerCatalogUpsert(ctx, s.db, &giftcardsProductInformationRow{PartnerID: partnerID,
		Title: partnerCatalogMap(pi.Title), Description: partnerCatalogMap(pi.Description)}, "giftcards product information")
}

type networkGiftcardsProductInformationRow struct {
	bun.BaseModel `bun:"table:product_information_network_giftcards"`

	PartnerID                 int64            `bun:"partner_id,pk"`
	Title                     domain.Localized `bun:"title,type:jsonb,notnull"`
	Description               domain.Localized `bun:"description,type:jsonb,notnull"`
	GiftcardCustomizedAmount  bool             `bun:"giftcard_customized_amount,notnull"`
	GiftcardDescription       domain.Localized `bun:"giftcard_description,type:jsonb,notnull"`
	GiftcardMinimumAmount     decimal.Decimal  `bun:"giftcard_minimum_amount,type:numeric,notnull"`
	GiftcardPredefinedAmounts []string         `bun:"giftcard_predefined_amounts,array,notnull"`
	GiftcardTermsOfUse        domain.Localized `bun:"giftcard_terms_of_use,type:jsonb,notnull"`
	GiftcardTitle             domain.Localized `bun:"giftcard_title,type:jsonb,notnull"`
	GiftcardValidityPeriod    int              `bun:"giftcard_validity_period,notnull"`
	GiftcardValidityUnit      string           `bun:"giftcard_validity_unit,notnull"`
	MoneyPotActivated         bool             `bun:"money_pot_activated,notnull"`
	MoneyPotDescription       domain.Localized `bun:"money_pot_description,type:jsonb,notnull"`
	MoneyPotLogo              string           `bun:"money_pot_logo,notnull"`
	MoneyPotTitle             domain.Localized `bun:"money_pot_title,type:jsonb,notnull"`
}

// FindNetworkGiftcardsProductInformation returns domain.ErrNotFound when the
// partner has none.
func (s *PartnerCatalogStore) FindNetworkGiftcardsProductInformation(ctx context.Context, partnerID int64) (*catalogue.NetworkGiftcardsProductInformation, error) {
	r := new(networkGiftcardsProductInformationRow)
	if err := partnerCatalogFind(ctx, s.db, r, partnerID); err != nil {
		return nil, err
	}
	amounts := make([]decimal.Decimal, len(r.GiftcardPredefinedAmounts))
	for i, a := range r.GiftcardPredefinedAmounts {
		d, err := decimal.NewFromString(a)
		if err != nil {
			return nil, fmt.Errorf("predefined amount %q of partner %d: %w", a, partnerID, err)
		}
		amounts[i] = d
	}
	return &catalogue.NetworkGiftcardsProductInformation{
		Title: partnerCatalogMap(r.Title), Description: partnerCatalogMap(r.Description),
		Giftcard: catalogue.NetworkGiftcardSettings{CustomizedAmount: r.GiftcardCustomizedAmount,
			Description: partnerCatalogMap(r.GiftcardDescription), MinimumAmount: r.GiftcardMinimumAmount,
			PredefinedAmounts: amounts, TermsOfUse: partnerCatalogMap(r.GiftcardTermsOfUse),
			Title: partnerCatalogMap(r.GiftcardTitle), ValidityPeriod: r.GiftcardValidityPeriod,
			ValidityUnit: r.GiftcardValidityUnit},
		MoneyPot: catalogue.NetworkGiftcardMoneyPot{Activated: r.MoneyPotActivated,
			Description: partnerCatalogMap(r.MoneyPotDescription), Logo: r.MoneyPotLogo,
			Title: partnerCatalogMap(r.MoneyPotTitle)},
	}, nil
}

// SaveNetworkGiftcardsProductInformation creates or replaces the partner's
// settings.
func (s *PartnerCatalogStore) SaveNetworkGiftcardsProductInformation(ctx context.Context, partnerID int64, pi *catalogue.NetworkGiftcardsProductInformation) error {
	g, m := pi.Giftcard, pi.MoneyPot
	amounts := make([]string, len(g.PredefinedAmounts))
	for i, a := range g.PredefinedAmounts {
		amounts[i] = a.String()
	}
	return partnerCatalogUpsert(ctx, s.db, &networkGiftcardsProductInformationRow{PartnerID: partnerID,
		Title: partnerCatalogMap(pi.Title), Description: partnerCatalogMap(pi.Description),
		GiftcardCustomizedAmount: g.CustomizedAmount, GiftcardDescription: partnerCatalogMap(g.Description),
		GiftcardMinimumAmount: g.MinimumAmount, GiftcardPredefinedAmounts: amounts,
		GiftcardTermsOfUse: partnerCatalogMap(g.TermsOfUse), GiftcardTitle: partnerCatalogMap(g.Title),
		GiftcardValidityPeriod: g.ValidityPeriod, GiftcardValidityUnit: g.ValidityUnit,
		MoneyPotActivated: m.Activated, MoneyPotDescription: partnerCatalogMap(m.Description),
		MoneyPotLogo: m.Logo, MoneyPotTitle: partnerCatalogMap(m.Title)}, "network giftcards product information")
}

type networkVouchersProductInformationRow struct {
	bun.BaseModel `bun:"table:product_information_network_vouchers"`

	PartnerID                      int64            `bun:"partner_id,pk"`
	Title                          domain.Localized `bun:"title,type:jsonb,notnull"`
	Description                    domain.Localized `bun:"description,type:jsonb,notnull"`
	TermsOfUse                     domain.Localized `bun:"terms_of_use,type:jsonb,notnull"`
	DisplayByUniverse              bool             `bun:"display_by_universe,notnull"`
	ValidityPeriod                 int              `bun:"validity_period,notnull"`
	ValidityPeriodUnit             int              `bun:"validity_period_unit,notnull"`
	ActivatedProductFeature        bool             `bun:"activated_product_feature,notnull"`
	ActivatedGroupPayment          bool             `bun:"activated_group_payment,notnull"`
	DisplayOffersMap               bool             `bun:"display_offers_map,notnull"`
	ActivatedOfferCountryFilter    bool             `bun:"activated_offer_country_filter,notnull"`
	ActivatedOfferDepartmentFilter bool             `bun:"activated_offer_department_filter,notnull"`
	ActivatedOfferRegionFilter     bool             `bun:"activated_offer_region_filter,notnull"`
}

// FindNetworkVouchersProductInformation returns domain.ErrNotFound when the
// partner has none.
func (s *PartnerCatalogStore) FindNetworkVouchersProductInformation(ctx context.Context, partnerID int64) (*catalogue.NetworkVouchersProductInformation, error) {
	r := new(networkVouchersProductInformationRow)
	if err := partnerCatalogFind(ctx, s.db, r, partnerID); err != nil {
		return nil, err
	}
	return &catalogue.NetworkVouchersProductInformation{Title: partnerCatalogMap(r.Title),
		Description: partnerCatalogMap(r.Description), TermsOfUse: partnerCatalogMap(r.TermsOfUse),
		DisplayByUniverse: r.DisplayByUniverse, ValidityPeriod: r.ValidityPeriod, ValidityPeriodUnit: r.ValidityPeriodUnit,
		ActivatedProductFeature: r.ActivatedProductFeature, ActivatedGroupPayment: r.ActivatedGroupPayment,
		DisplayOffersMap: r.DisplayOffersMap, ActivatedOfferCountryFilter: r.ActivatedOfferCountryFilter,
		ActivatedOfferDepartmentFilter: r.ActivatedOfferDepartmentFilter,
		ActivatedOfferRegionFilter:     r.ActivatedOfferRegionFilter}, nil
}

// SaveNetworkVouchersProductInformation creates or replaces the partner's
// settings.
func (s *PartnerCatalogStore) SaveNetworkVouchersProductInformation(ctx context.Context, partnerID int64, pi *catalogue.NetworkVouchersProductInformation) error {
	return partnerCatalogUpsert(ctx, s.db, &networkVouchersProductInformationRow{PartnerID: partnerID,
		Title: partnerCatalogMap(pi.Title), Description: partnerCatalogMap(pi.Description),
		TermsOfUse: partnerCatalogMap(pi.TermsOfUse), DisplayByUniverse: pi.DisplayByUniverse,
		ValidityPeriod: pi.ValidityPeriod, ValidityPeriodUnit: pi.ValidityPeriodUnit,
		ActivatedProductFeature: pi.ActivatedProductFeature, ActivatedGroupPayment: pi.ActivatedGroupPayment,
		DisplayOffersMap: pi.DisplayOffersMap, ActivatedOfferCountryFilter: pi.ActivatedOfferCountryFilter,
		ActivatedOfferDepartmentFilter: pi.ActivatedOfferDepartmentFilter,
		ActivatedOfferRegionFilter:     pi.ActivatedOfferRegionFilter}, "network vouchers product information")
}

type vouchersProductInformationRow struct {
	bun.BaseModel `bun:"table:product_information_vouchers"`

	PartnerID                       int64            `bun:"partner_id,pk"`
	Title                           domain.Localized `bun:"title,type:jsonb,notnull"`
	Subtitle                        domain.Localized `bun:"subtitle,type:jsonb,notnull"`
	ShortDescription                domain.Localized `bun:"short_description,type:jsonb,notnull"`
	ActivatedDestinationFilter      bool             `bun:"activated_destination_filter,notnull"`
	ActivatedUniverseFilter         bool             `bun:"activated_universe_filter,notnull"`
	ActivatedPriceFilter            bool             `bun:"activated_price_filter,notnull"`
	ActivatedTargetFilter           bool             `bun:"activated_target_filter,notnull"`
	ActivatedThemeFilter            bool             `bun:"activated_theme_filter,notnull"`
	ActivatedEnvironmentFilter      bool             `bun:"activated_environment_filter,notnull"`
	ActivatedOfferOrderingByRanking bool             `bun:"activated_offer_ordering_by_ranking,notnull"`
	ValidityPeriod                  int              `bun:"validity_period,notnull"`
	ValidityPeriodUnit              int              `bun:"validity_period_unit,notnull"`
	MethodOfDisplay                 int              `bun:"method_of_display,notnull"`
	ActivatedGroupPayment           bool             `bun:"activated_group_payment,notnull"`
}

// FindVouchersProductInformation returns domain.ErrNotFound when the partner
// has none.
func (s *PartnerCatalogStore) FindVouchersProductInformation(ctx context.Context, partnerID int64) (*catalogue.VouchersProductInformation, error) {
	r := new(vouchersProductInformationRow)
	if err := partnerCatalogFind(ctx, s.db, r, partnerID); err != nil {
		return nil, err
	}
	return &catalogue.VouchersProductInformation{Title: partnerCatalogMap(r.Title), Subtitle: partnerCatalogMap(r.Subtitle),
		ShortDescription:           partnerCatalogMap(r.ShortDescription),
		ActivatedDestinationFilter: r.ActivatedDestinationFilter, ActivatedUniverseFilter: r.ActivatedUniverseFilter,
		ActivatedPriceFilter: r.ActivatedPriceFilter, ActivatedTargetFilter: r.ActivatedTargetFilter,
		ActivatedThemeFilter: r.ActivatedThemeFilter, ActivatedEnvironmentFilter: r.ActivatedEnvironmentFilter,
		ActivatedOfferOrderingByRanking: r.ActivatedOfferOrderingByRanking, ValidityPeriod: r.ValidityPeriod,
		ValidityPeriodUnit: r.ValidityPeriodUnit, MethodOfDisplay: r.MethodOfDisplay,
		ActivatedGroupPayment: r.ActivatedGroupPayment}, nil
}

// SaveVouchersProductInformation creates or replaces the partner's settings.
func (s *PartnerCatalogStore) SaveVouchersProductInformation(ctx context.Context, partnerID int64, pi *catalogue.VouchersProductInformation) error {
	return partnerCatalogUpsert(ctx, s.db, &vouchersProductInformationRow{PartnerID: partnerID,
		Title: partnerCatalogMap(pi.Title), Subtitle: partnerCatalogMap(pi.Subtitle),
		ShortDescription:           partnerCatalogMap(pi.ShortDescription),
		ActivatedDestinationFilter: pi.ActivatedDestinationFilter, ActivatedUniverseFilter: pi.ActivatedUniverseFilter,
		ActivatedPriceFilter: pi.ActivatedPriceFilter, ActivatedTargetFilter: pi.ActivatedTargetFilter,
		ActivatedThemeFilter: pi.ActivatedThemeFilter, ActivatedEnvironmentFilter: pi.ActivatedEnvironmentFilter,
		ActivatedOfferOrderingByRanking: pi.ActivatedOfferOrderingByRanking, ValidityPeriod: pi.ValidityPeriod,
		ValidityPeriodUnit: pi.ValidityPeriodUnit, MethodOfDisplay: pi.MethodOfDisplay,
		ActivatedGroupPayment: pi.ActivatedGroupPayment}, "vouchers product information")
}

type workshopsProductInformationRow struct {
	bun.BaseModel `bun:"table:product_information_workshops"`

	PartnerID                    int64             `bun:"partner_id,pk"`
	Title                        domain.Localized  `bun:"title,type:jsonb,notnull"`
	Description                  domain.Localized  `bun:"description,type:jsonb,notnull"`
	TOSURL                       map[string]string `bun:"tos_url,type:jsonb,notnull"`
	DisplayWorkshopsByMonth      bool              `bun:"display_workshops_by_month,notnull"`
	DisplayWorkshopsPerSession   bool              `bun:"display_workshops_per_session,notnull"`
	DisplayFullyBookedSessions   bool              `bun:"display_fully_booked_sessions,notnull"`
	ActivatedMonthFilter         bool              `bun:"activated_month_filter,notnull"`
	ActivatedDayFilter           bool              `bun:"activated_day_filter,notnull"`
	ActivatedTimeFilter          bool              `bun:"activated_time_filter,notnull"`
	ActivatedPriceFilter         bool              `bun:"activated_price_filter,notnull"`
	ActivatedCategoryFilter      bool              `bun:"activated_category_filter,notnull"`
	ActivatedDurationFilter      bool              `bun:"activated_duration_filter,notnull"`
	ActivatedTargetFilter        bool              `bun:"activated_target_filter,notnull"`
	ActivatedLevelFilter         bool              `bun:"activated_level_filter,notnull"`
	ActivatedThemeFilter         bool              `bun:"activated_theme_filter,notnull"`
	MinNbFreePlacesForLabelShown int               `bun:"min_nb_free_places_for_label_shown,notnull"`
	DisplayPhoneNumber           bool              `bun:"display_phone_number,notnull"`
	PhoneNumber                  string            `bun:"phone_number,notnull"`
	DefaultWorkshopImage         string            `bun:"default_workshop_image,notnull"`
	ValidityPeriod               int               `bun:"validity_period,notnull"`
	ValidityPeriodUnit           int               `bun:"validity_period_unit,notnull"`
}

// FindWorkshopsProductInformation returns domain.ErrNotFound when the
// partner has none.
func (s *PartnerCatalogStore) FindWorkshopsProductInformation(ctx context.Context, partnerID int64) (*catalogue.WorkshopsProductInformation, error) {
	r := new(workshopsProductInformationRow)
	if err := partnerCatalogFind(ctx, s.db, r, partnerID); err != nil {
		return nil, err
	}
	return &catalogue.WorkshopsProductInformation{Title: partnerCatalogMap(r.Title), Description: partnerCatalogMap(r.Description),
		TOSURL: partnerCatalogMap(r.TOSURL), DisplayWorkshopsByMonth: r.DisplayWorkshopsByMonth,
		DisplayWorkshopsPerSession: r.DisplayWorkshopsPerSession, DisplayFullyBookedSessions: r.DisplayFullyBookedSessions,
		ActivatedMonthFilter: r.ActivatedMonthFilter, ActivatedDayFilter: r.ActivatedDayFilter,
		ActivatedTimeFilter: r.ActivatedTimeFilter, ActivatedPriceFilter: r.ActivatedPriceFilter,
		ActivatedCategoryFilter: r.ActivatedCategoryFilter, ActivatedDurationFilter: r.ActivatedDurationFilter,
		ActivatedTargetFilter: r.ActivatedTargetFilter, ActivatedLevelFilter: r.ActivatedLevelFilter,
		ActivatedThemeFilter: r.ActivatedThemeFilter, MinNbFreePlacesForLabelShown: r.MinNbFreePlacesForLabelShown,
		DisplayPhoneNumber: r.DisplayPhoneNumber, PhoneNumber: r.PhoneNumber, DefaultWorkshopImage: r.DefaultWorkshopImage,
		ValidityPeriod: r.ValidityPeriod, ValidityPeriodUnit: r.ValidityPeriodUnit}, nil
}

// SaveWorkshopsProductInformation creates or replaces the partner's settings.
func (s *PartnerCatalogStore) SaveWorkshopsProductInformation(ctx context.Context, partnerID int64, pi *catalogue.WorkshopsProductInformation) error {
	return partnerCatalogUpsert(ctx, s.db, &workshopsProductInformationRow{PartnerID: partnerID,
		Title: partnerCatalogMap(pi.Title), Description: partnerCatalogMap(pi.Description),
		TOSURL: partnerCatalogMap(pi.TOSURL), DisplayWorkshopsByMonth: pi.DisplayWorkshopsByMonth,
		DisplayWorkshopsPerSession: pi.DisplayWorkshopsPerSession, DisplayFullyBookedSessions: pi.DisplayFullyBookedSessions,
		ActivatedMonthFilter: pi.ActivatedMonthFilter, ActivatedDayFilter: pi.ActivatedDayFilter,
		ActivatedTimeFilter: pi.ActivatedTimeFilter, ActivatedPriceFilter: pi.ActivatedPriceFilter,
		ActivatedCategoryFilter: pi.ActivatedCategoryFilter, ActivatedDurationFilter: pi.ActivatedDurationFilter,
		ActivatedTargetFilter: pi.ActivatedTargetFilter, ActivatedLevelFilter: pi.ActivatedLevelFilter,
		ActivatedThemeFilter: pi.ActivatedThemeFilter, MinNbFreePlacesForLabelShown: pi.MinNbFreePlacesForLabelShown,
		DisplayPhoneNumber: pi.DisplayPhoneNumber, PhoneNumber: pi.PhoneNumber, DefaultWorkshopImage: pi.DefaultWorkshopImage,
		ValidityPeriod: pi.ValidityPeriod, ValidityPeriodUnit: pi.ValidityPeriodUnit}, "workshops product information")
}

// RemoveNetworkPartner takes a partner out of a marketplace's network.
func (s *PartnerCatalogStore) RemoveNetworkPartner(ctx context.Context, marketplaceID, partnerID int64) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err := s.db.NewRaw(`DELETE FROM network_partners WHERE marketplace_id = ? AND partner_id = ?`,
		marketplaceID, partnerID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("remove partner %d from the network of %d: %w", partnerID, marketplaceID, err)
	}
	return nil
}

// FindNetworkPartnerIDs returns the ids of the marketplace's network
// partners, ascending.
func (s *PartnerCatalogStore) FindNetworkPartnerIDs(ctx context.Context, marketplaceID int64) ([]int64, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	ids := []int64{}
	err := s.db.NewRaw(`SELECT partner_id FROM network_partners WHERE marketplace_id = ? ORDER BY partner_id`,
		marketplaceID).Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("select network partners of %d: %w", marketplaceID, err)
	}
	return ids, nil
}

// GetPartnerLabel returns the label with that id.
func (s *PartnerCatalogStore) GetPartnerLabel(ctx context.Context, id int64) (*catalogue.PartnerLabel, error) {
	row, err := rowByID[partnerLabelRow](ctx, s.db, "pl", id)
	if err != nil {
		return nil, err
	}
	label := row.toDomain()
	return &label, nil
}

// RemovePartnerLabel deletes the label.
func (s *PartnerCatalogStore) RemovePartnerLabel(ctx context.Context, id int64) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	res, err := s.db.NewDelete().Model((*partnerLabelRow)(nil)).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("delete partner label: %w", err)
	}
	return oneRow(res)
}
