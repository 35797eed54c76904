package catalogue

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/l10n"
)

// The partner catalogue: which partners a catalogue shows (partners_list,
// partners_retrieve, partners_me_retrieve, destinations_list), the current
// partner's legal information and refund terms, and its settings per product
// line (product_information_*). Every read is scoped by CatalogPartner.
//
// Which partners a catalogue shows (the contract lists "partners of a
// network"): for a marketplace, the partners of its network (NetworkPartners)
// whose status is active or network; for any other partner, itself alone.
// Another partner's id is not found.

// PartnerFacilities are the amenities a partner's place offers.
type PartnerFacilities struct {
	DisabledAccess  bool
	AirConditioning bool
	PrivateParking  bool
	Wifi            bool
	SmokingArea     bool
	PetsAllowed     bool
	FamilyFriendly  bool
}

// PartnerProfile is what a partner shows of itself in the catalogue. A
// partner that never saved one shows the zero profile.
type PartnerProfile struct {
	Description           domain.Localized
	Managers              domain.Localized
	Nearby                domain.Localized
	PracticalInformation  domain.Localized
	Access                domain.Localized
	CommercialDescription domain.Localized
	Region                string
	Department            string
	City                  string
	// Latitude and Longitude are nil when the place is not located.
	Latitude    *decimal.Decimal
	Longitude   *decimal.Decimal
	Facilities  PartnerFacilities
	SocialLinks map[string]string // network name -> URL
}

// PartnerLabel is a label or network a partner displays (label_and_network).
type PartnerLabel struct {
	ID        int64
	PartnerID int64
	Name      string
	LogoURL   string // absolute URL
}

// PartnerListing is a partner as the catalogue shows it.
type PartnerListing struct {
	ID      int64
	Name    string
	Profile PartnerProfile
	Labels  []PartnerLabel // by id
}

// Destination is a place partners are in.
type Destination struct {
	City       string
	Department string
	Region     string
}

// PartnerAgency is a partner named by its agency name (its name when it
// has none).
type PartnerAgency struct {
	ID         int64
	AgencyName string
}

// PartnerFilter selects catalogue partners. Exactly one of Self and
// NetworkOf is set: the store refuses a filter without a scope.
type PartnerFilter struct {
	Self      int64 // this partner alone, whatever its status
	NetworkOf int64 // the partners of this marketplace's network…
	Statuses  []string
	IDs       []int64 // nil: any id
	// Department and Region match exactly but case-insensitively; "" is any.
	Department string
	Region     string
	// NamesOnly reads no profile: the listings' Profile is empty.
	NamesOnly bool
}

// ListedPartnerStatuses are the statuses of the network partners a
// marketplace's catalogue lists: active ones and network partners.
var ListedPartnerStatuses = []string{domain.PartnerStatusActive, domain.PartnerStatusNetwork}

// LegalInformation is a partner's legal identity (without what the
// partner record holds).
type LegalInformation struct {
	AgencyName       string
	AddressLine1     string
	AddressLine2     string
	AddressLine3     string
	PostalCode       string
	City             string
	Country          string
	CompanyType      string
	HQPhoneNumber    string
	AgencyPhone      string
	AgencyWebsite    string
	LegalNoticeEmail string
	LegalForm        string
	CapitalStock     decimal.Decimal
	LegalFirstName   string
	LegalLastName    string
	SIRETNumber      string
	VATID            string
	RCS              string
}

// LegalInformationView is the catalogue's legal information: the stored legal information with the
// partner's name, creation date (in its time zone) and currency symbol.
type LegalInformationView struct {
	LegalInformation
	Name           string
	CreationDate   time.Time
	CurrencySymbol string
}

// EventsProductInformation are a partner's event ticket settings.
type EventsProductInformation struct {
	Title                    domain.Localized
	Description              domain.Localized
	TOSURL                   map[string]string
	DisplayFullyBookedEvents bool
	DisplayEventsPerSlots    bool
}

// GiftcardsProductInformation are a partner's giftcard settings.
type GiftcardsProductInformation struct {
	Title       domain.Localized
	Description domain.Localized
}

// GiftcardsProductInformationView adds the partners where the giftcards are
// used: the partners of the catalogue.
type GiftcardsProductInformationView struct {
	GiftcardsProductInformation
	Partners []PartnerAgency
}

// NetworkGiftcard is the giftcard a marketplace sells to its network (the
// subset of 2.7 that network giftcards settings show).
type NetworkGiftcardSettings struct {
	CustomizedAmount  bool
	Description       domain.Localized
	MinimumAmount     decimal.Decimal
	PredefinedAmounts []decimal.Decimal
	TermsOfUse        domain.Localized
	Title             domain.Localized
	ValidityPeriod    int
	ValidityUnit      string
}

// NetworkGiftcardMoneyPot is the collective-gift option of network giftcards.
type NetworkGiftcardMoneyPot struct {
	Activated   bool
	Description domain.Localized
	Logo        string
	Title       domain.Localized
}

// NetworkGiftcardsProductInformation are a partner's network giftcard
// settings.
type NetworkGiftcardsProductInformation struct {
	Title       domain.Localized
	Description domain.Localized
	Giftcard    NetworkGiftcardSettings
	MoneyPot    NetworkGiftcardMoneyPot
}

// NetworkGiftcardsProductInformationView adds the formatted amounts, in the
// partner's currency.
type NetworkGiftcardsProductInformationView struct {
	NetworkGiftcardsProductInformation
	MinimumAmountFormatted     domain.Localized
	PredefinedAmountsFormatted []domain.Localized
	CurrencyCode               string // the amounts' currency: the partner's
}

// NetworkVouchersProductInformation are a partner's network voucher (box)
// settings.
type NetworkVouchersProductInformation struct {
	Title                          domain.Localized
	Description                    domain.Localized
	TermsOfUse                     domain.Localized
	DisplayByUniverse              bool
	ValidityPeriod                 int
	ValidityPeriodUnit             int
	ActivatedProductFeature        bool
	ActivatedGroupPayment          bool
	DisplayOffersMap               bool
	ActivatedOfferCountryFilter    bool
	ActivatedOfferDepartmentFilter bool
	ActivatedOfferRegionFilter     bool
}

// VouchersProductInformation are a partner's voucher settings.
// hero_image and default_prototype_image are not kept: the contract shows
// them null and not their type.
type VouchersProductInformation struct {
	Title                           domain.Localized
	Subtitle                        domain.Localized
	ShortDescription                domain.Localized
	ActivatedDestinationFilter      bool
	ActivatedUniverseFilter         bool
	ActivatedPriceFilter            bool
	ActivatedTargetFilter           bool
	ActivatedThemeFilter            bool
	ActivatedEnvironmentFilter      bool
	ActivatedOfferOrderingByRanking bool
	ValidityPeriod                  int
	ValidityPeriodUnit              int
	MethodOfDisplay                 int
	ActivatedGroupPayment           bool
}

// WorkshopsProductInformation are a partner's workshop settings.
type WorkshopsProductInformation struct {
	Title                        domain.Localized
	Description                  domain.Localized
	TOSURL                       map[string]string
	DisplayWorkshopsByMonth      bool
	DisplayWorkshopsPerSession   bool
	DisplayFullyBookedSessions   bool
	ActivatedMonthFilter         bool
	ActivatedDayFilter           bool
	ActivatedTimeFilter          bool
	ActivatedPriceFilter         bool
	ActivatedCategoryFilter      bool
	ActivatedDurationFilter      bool
	ActivatedTargetFilter        bool
	ActivatedLevelFilter         bool
	ActivatedThemeFilter         bool
	MinNbFreePlacesForLabelShown int
	DisplayPhoneNumber           bool
	PhoneNumber                  string
	DefaultWorkshopImage         string // URL
	ValidityPeriod               int
	ValidityPeriodUnit           int
}

// PartnerCatalogStore reads and writes what PartnerCatalogService serves.
// The Find methods of per-partner records return ErrNotFound when the
// partner has none; the Save methods create or replace it.
type PartnerCatalogStore interface {
	PartnerAdminStore
	// FindListedPartners returns a page of the partners f selects, by id,
	// with their profiles and labels, and how many f selects in all.
	FindListedPartners(ctx context.Context, f PartnerFilter, page domain.PageRequest) ([]*PartnerListing, int, error)
	// FindDestinations returns the distinct non-empty (city, department,
	// region) of the partners f selects, by region, department and city.
	FindDestinations(ctx context.Context, f PartnerFilter) ([]Destination, error)
	// FindPartnerAgencies returns the agency names of the partners f
	// selects, by id.
	FindPartnerAgencies(ctx context.Context, f PartnerFilter) ([]PartnerAgency, error)
	// FindPartnerListings returns the partners f selects, by id, with their
	// profiles and labels, unpaged and uncounted: a batch read, bounded by
	// f.IDs, which must not be nil.
	FindPartnerListings(ctx context.Context, f PartnerFilter) ([]*PartnerListing, error)

	// AddNetworkPartner puts a partner in a marketplace's network; adding it
	// twice is harmless.
	AddNetworkPartner(ctx context.Context, marketplaceID, partnerID int64) error
	// RemoveNetworkPartner takes a partner out of a marketplace's network;
	// removing one that is not in it is harmless.
	RemoveNetworkPartner(ctx context.Context, marketplaceID, partnerID int64) error
	// FindNetworkPartnerIDs returns the ids of the marketplace's network
	// partners, ascending, whatever their status.
	FindNetworkPartnerIDs(ctx context.Context, marketplaceID int64) ([]int64, error)
	SavePartnerProfile(ctx context.Context, partnerID int64, p *PartnerProfile) error
	// AddPartnerLabel inserts l and sets its ID.
	AddPartnerLabel(ctx context.Context, l *PartnerLabel) error

	FindLegalInformation(ctx context.Context, partnerID int64) (*LegalInformation, error)
	SaveLegalInformation(ctx context.Context, partnerID int64, li *LegalInformation) error
	FindRefundWithdrawalTerms(ctx context.Context, partnerID int64) (domain.Localized, error)
	SaveRefundWithdrawalTerms(ctx context.Context, partnerID int64, terms domain.Localized) error

	FindEventsProductInformation(ctx context.Context, partnerID int64) (*EventsProductInformation, error)
	SaveEventsProductInformation(ctx context.Context, partnerID int64, pi *EventsProductInformation) error
	FindGiftcardsProductInformation(ctx context.Context, partnerID int64) (*GiftcardsProductInformation, error)
	SaveGiftcardsProductInformation(ctx context.Context, partnerID int64, pi *GiftcardsProductInformation) error
	FindNetworkGiftcardsProductInformation(ctx context.Context, partnerID int64) (*NetworkGiftcardsProductInformation, error)
	SaveNetworkGiftcardsProductInformation(ctx context.Context, partnerID int64, pi *NetworkGiftcardsProductInformation) error
	FindNetworkVouchersProductInformation(ctx context.Context, partnerID int64) (*NetworkVouchersProductInformation, error)
	SaveNetworkVouchersProductInformation(ctx context.Context, partnerID int64, pi *NetworkVouchersProductInformation) error
	FindVouchersProductInformation(ctx context.Context, partnerID int64) (*VouchersProductInformation, error)
	SaveVouchersProductInformation(ctx context.Context, partnerID int64, pi *VouchersProductInformation) error
	FindWorkshopsProductInformation(ctx context.Context, partnerID int64) (*WorkshopsProductInformation, error)
	SaveWorkshopsProductInformation(ctx context.Context, partnerID int64, pi *WorkshopsProductInformation) error
}

// PartnerCatalogService serves the partner catalogue of the public
// catalogue (API v2). No operation needs a token.
type PartnerCatalogService struct {
	store    PartnerCatalogStore
	partners domain.PartnerStore
}

// NewPartnerCatalogService returns the service.
func NewPartnerCatalogService(store PartnerCatalogStore, partners domain.PartnerStore) *PartnerCatalogService {
	return &PartnerCatalogService{store: store, partners: partners}
}

// PartnerQuery holds the filters of partners_list. IDs nil is no id
// filter; an empty list selects no partner. A surface records in Refusals
// an id it could not read (MsgPartnerIDInvalid on "id"), answered after
// the caller is known.
type PartnerQuery struct {
	domain.Refusals
	Department string
	Region     string
	IDs        []int64
}

// MaxPartnerIDs bounds the id filter of partners_list.
const MaxPartnerIDs = 1000

// MsgPartnerIDInvalid is Django's message for an invalid integer in a filter.
const MsgPartnerIDInvalid = "Enter a whole number."

// partnerCatalogFilter is the filter selecting the partners scope's catalogue
// shows.
func partnerCatalogFilter(scope *domain.Partner) PartnerFilter {
	if scope.IsMarketplace {
		return PartnerFilter{NetworkOf: scope.ID, Statuses: ListedPartnerStatuses}
	}
	return PartnerFilter{Self: scope.ID}
}

// Partners is partners_list: a page of the catalogue's partners, by id.
// Errors: those of CatalogPartner; CodeInvalid on "id" when an id is not an
// integer (or there are more than MaxPartnerIDs); CodeNotFound "Invalid
// page." past the last page.
func (s *PartnerCatalogService) Partners(ctx context.Context, q PartnerQuery, page domain.PageRequest) (*domain.Page[*PartnerListing], error) {
	scope, err := domain.CatalogPartner(ctx, s.partners)
	if err != nil {
		return nil, err
	}
	f := partnerCatalogFilter(scope)
	f.Department, f.Region = strings.TrimSpace(q.Department), strings.TrimSpace(q.Region)
	v := q.Validator()
	if len(q.IDs) > MaxPartnerIDs {
		v.Add(domain.VMaxLength, fmt.Sprintf("Ensure this value has at most %d elements.", MaxPartnerIDs), "id")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	f.IDs = q.IDs
	items, count, err := s.store.FindListedPartners(ctx, f, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(items, count, page)
}

// Partner is partners_retrieve: a partner of the catalogue by its id as
// given in the path.
// Errors: those of CatalogPartner; CodeNotFound when the id is not an
// integer or names no partner of the catalogue.
func (s *PartnerCatalogService) Partner(ctx context.Context, id string) (*PartnerListing, error) {
	scope, err := domain.CatalogPartner(ctx, s.partners)
	if err != nil {
		return nil, err
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return nil, domain.ErrNotFound
	}
	f := partnerCatalogFilter(scope)
	f.IDs = []int64{n}
	return s.onePartner(ctx, f)
}

// CurrentPartner is partners_me_retrieve: the catalogue's own partner, a
// marketplace included.
// Errors: those of CatalogPartner.
func (s *PartnerCatalogService) CurrentPartner(ctx context.Context) (*PartnerListing, error) {
	scope, err := domain.CatalogPartner(ctx, s.partners)
	if err != nil {
		return nil, err
	}
	return s.onePartner(ctx, PartnerFilter{Self: scope.ID})
}

// PartnersByID returns, for each id in order, the partner with that id as
// the catalogue shows it, or nil when the catalogue shows no such partner:
// the catalogue's own partner (as CurrentPartner) and the partners it lists
// (as Partners) are shown. A batch read: at most two statements for the
// partners and their labels, whatever the number of ids.
// Errors: those of CatalogPartner.
func (s *PartnerCatalogService) PartnersByID(ctx context.Context, ids []int64) ([]*PartnerListing, error) {
	return s.partnersByID(ctx, ids, false)
}

// PartnerNamesByID is PartnersByID without the profiles (the listings'
// Profile is empty), for a reader that asks for names and labels only: the
// profiles' texts in every language are most of what a listing costs to
// read.
// Errors: those of CatalogPartner.
func (s *PartnerCatalogService) PartnerNamesByID(ctx context.Context, ids []int64) ([]*PartnerListing, error) {
	return s.partnersByID(ctx, ids, true)
}

func (s *PartnerCatalogService) partnersByID(ctx context.Context, ids []int64, namesOnly bool) ([]*PartnerListing, error) {
	scope, err := domain.CatalogPartner(ctx, s.partners)
	if err != nil {
		return nil, err
	}
	self, others := false, make([]int64, 0, len(ids))
	for _, id := range ids {
		if id == scope.ID {
			self = true
		} else {
			others = append(others, id)
		}
	}
	scopes := catalogueScopes(scope, namesOnly)
	var found []*PartnerListing
	if self {
		f := scopes[0]
		f.IDs = []int64{scope.ID}
		me, err := s.store.FindPartnerListings(ctx, f)
		if err != nil {
			return nil, err
		}
		found = append(found, me...)
	}
	if len(scopes) > 1 && len(others) > 0 {
		f := scopes[1]
		f.IDs = others
		listed, err := s.store.FindPartnerListings(ctx, f)
		if err != nil {
			return nil, err
		}
		found = append(found, listed...)
	}
	return domain.InKeyOrder(ids, found, partnerListingID), nil
}

// catalogueScopes are the filters a partner is read through by id in
// scope's catalogue: scope itself, whatever its status (a marketplace is
// not in its own network: it is read as itself), then, for a marketplace,
// its network's listed partners. A partner none selects is not listed.
func catalogueScopes(scope *domain.Partner, namesOnly bool) []PartnerFilter {
	scopes := []PartnerFilter{{Self: scope.ID, NamesOnly: namesOnly}}
	if scope.IsMarketplace {
		f := partnerCatalogFilter(scope)
		f.NamesOnly = namesOnly
		scopes = append(scopes, f)
	}
	return scopes
}

func partnerListingID(p *PartnerListing) int64 { return p.ID }

func (s *PartnerCatalogService) onePartner(ctx context.Context, f PartnerFilter) (*PartnerListing, error) {
	items, _, err := s.store.FindListedPartners(ctx, f, domain.PageRequest{Number: 1, Size: 1})
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, domain.ErrNotFound
	}
	return items[0], nil
}

// Destinations is destinations_list: where the catalogue's partners are,
// each place once.
// Errors: those of CatalogPartner.
func (s *PartnerCatalogService) Destinations(ctx context.Context) ([]Destination, error) {
	scope, err := domain.CatalogPartner(ctx, s.partners)
	if err != nil {
		return nil, err
	}
	d, err := s.store.FindDestinations(ctx, partnerCatalogFilter(scope))
	if d == nil && err == nil {
		d = []Destination{}
	}
	return d, err
}

// LegalInformation is the current partner's legal information: a list of
// one, with empty texts and a zero capital stock when none was saved.
// Errors: those of CatalogPartner.
func (s *PartnerCatalogService) LegalInformation(ctx context.Context) ([]*LegalInformationView, error) {
	scope, err := domain.CatalogPartner(ctx, s.partners)
	if err != nil {
		return nil, err
	}
	li, err := s.store.FindLegalInformation(ctx, scope.ID)
	if domain.IsCode(err, domain.CodeNotFound) {
		li, err = &LegalInformation{}, nil
	}
	if err != nil {
		return nil, err
	}
	loc, err := scope.Location()
	if err != nil {
		return nil, err
	}
	return []*LegalInformationView{{
		LegalInformation: *li,
		Name:             scope.Name,
		CreationDate:     scope.CreatedAt.In(loc),
		CurrencySymbol:   l10n.CurrencySymbol(scope.Currency),
	}}, nil
}

// NoRefundWithdrawalTerms stands for a language without refund and
// withdrawal terms.
const NoRefundWithdrawalTerms = "-"

// RefundWithdrawalTerms is the current partner's refund and withdrawal
// terms: a list of one, in every language, NoRefundWithdrawalTerms where there is none.
// Errors: those of CatalogPartner.
func (s *PartnerCatalogService) RefundWithdrawalTerms(ctx context.Context) ([]domain.Localized, error) {
	scope, err := domain.CatalogPartner(ctx, s.partners)
	if err != nil {
		return nil, err
	}
	terms, err := s.store.FindRefundWithdrawalTerms(ctx, scope.ID)
	if domain.IsCode(err, domain.CodeNotFound) {
		terms, err = domain.Localized{}, nil
	}
	if err != nil {
		return nil, err
	}
	all := make(domain.Localized, len(domain.Languages))
	for _, lang := range domain.Languages {
		all[lang] = NoRefundWithdrawalTerms
		if t := strings.TrimSpace(terms[lang]); t != "" {
			all[lang] = terms[lang]
		}
	}
	return []domain.Localized{all}, nil
}

// EventsProductInformation is the current partner's event settings; the
// defaults (no texts, everything off) when it saved none.
// Errors: those of CatalogPartner.
func (s *PartnerCatalogService) EventsProductInformation(ctx context.Context) (*EventsProductInformation, error) {
	return findProductInformation(ctx, s, s.store.FindEventsProductInformation)
}

// GiftcardsProductInformation is the current partner's giftcard settings: a
// list of one, with the catalogue's partners (see Partners) as the partners
// where the giftcards are used.
// Errors: those of CatalogPartner.
func (s *PartnerCatalogService) GiftcardsProductInformation(ctx context.Context) ([]*GiftcardsProductInformationView, error) {
	scope, err := domain.CatalogPartner(ctx, s.partners)
	if err != nil {
		return nil, err
	}
	pi, err := s.store.FindGiftcardsProductInformation(ctx, scope.ID)
	if domain.IsCode(err, domain.CodeNotFound) {
		pi, err = &GiftcardsProductInformation{}, nil
	}
	if err != nil {
		return nil, err
	}
	names, err := s.store.FindPartnerAgencies(ctx, partnerCatalogFilter(scope))
	if err != nil {
		return nil, err
	}
	if names == nil {
		names = []PartnerAgency{}
	}
	return []*GiftcardsProductInformationView{{GiftcardsProductInformation: *pi, Partners: names}}, nil
}

// NetworkGiftcardsProductInformation is the current partner's network
// giftcard settings, amounts formatted in its currency.
// Errors: those of CatalogPartner.
func (s *PartnerCatalogService) NetworkGiftcardsProductInformation(ctx context.Context) (*NetworkGiftcardsProductInformationView, error) {
	scope, err := domain.CatalogPartner(ctx, s.partners)
	if err != nil {
		return nil, err
	}
	pi, err := s.store.FindNetworkGiftcardsProductInformation(ctx, scope.ID)
	if domain.IsCode(err, domain.CodeNotFound) {
		pi, err = &NetworkGiftcardsProductInformation{}, nil
	}
	if err != nil {
		return nil, err
	}
	if pi.Giftcard.PredefinedAmounts == nil {
		pi.Giftcard.PredefinedAmounts = []decimal.Decimal{}
	}
	v := &NetworkGiftcardsProductInformationView{
		NetworkGiftcardsProductInformation: *pi,
		MinimumAmountFormatted:             domain.Localized(l10n.Money(pi.Giftcard.MinimumAmount, scope.Currency)),
		PredefinedAmountsFormatted:         make([]domain.Localized, len(pi.Giftcard.PredefinedAmounts)),
		CurrencyCode:                       scope.Currency,
	}
	for i, a := range pi.Giftcard.PredefinedAmounts {
		v.PredefinedAmountsFormatted[i] = domain.Localized(l10n.Money(a, scope.Currency))
	}
	return v, nil
}

// NetworkVouchersProductInformation is the current partner's network voucher
// settings; the defaults when it saved none.
// Errors: those of CatalogPartner.
func (s *PartnerCatalogService) NetworkVouchersProductInformation(ctx context.Context) (*NetworkVouchersProductInformation, error) {
	return findProductInformation(ctx, s, s.store.FindNetworkVouchersProductInformation)
}

// VouchersProductInformation is the current partner's voucher settings; the
// defaults when it saved none.
// Errors: those of CatalogPartner.
func (s *PartnerCatalogService) VouchersProductInformation(ctx context.Context) (*VouchersProductInformation, error) {
	return findProductInformation(ctx, s, s.store.FindVouchersProductInformation)
}

// WorkshopsProductInformation is the current partner's workshop settings;
// the defaults when it saved none.
// Errors: those of CatalogPartner.
func (s *PartnerCatalogService) WorkshopsProductInformation(ctx context.Context) (*WorkshopsProductInformation, error) {
	return findProductInformation(ctx, s, s.store.FindWorkshopsProductInformation)
}

// findProductInformation reads the scope's settings of one product line, the
// zero value (the defaults) when it has none.
func findProductInformation[T any](ctx context.Context, s *PartnerCatalogService, find func(context.Context, int64) (*T, error)) (*T, error) {
	scope, err := domain.CatalogPartner(ctx, s.partners)
	if err != nil {
		return nil, err
	}
	pi, err := find(ctx, scope.ID)
	if domain.IsCode(err, domain.CodeNotFound) {
		return new(T), nil
	}
	return pi, err
}
