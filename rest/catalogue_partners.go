package rest

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/gorilla/mux"
	"github.com/shopspring/decimal"

	"salesplatform/domain/catalogue"
)

// registerPartnerCatalogRoutes adds the catalogue routes of PartnerCatalogService.
func registerPartnerCatalogRoutes(r *mux.Router, a *api) {
	get := []string{http.MethodGet, http.MethodHead}
	handle(r, "/api/v2/partners/", a.handlePartnerList, get...)
	// "me" before {id}, which only takes digits anyway.
	handle(r, "/api/v2/partners/me/", a.handlePartnerMe, get...)
	handle(r, "/api/v2/partners/{id:[0-9]+}/", a.handlePartnerGet, get...)
	handle(r, "/api/v2/destinations/", a.handleDestinationList, get...)
	handle(r, "/api/v2/partner_legal_information/", a.handleLegalInformationList, get...)
	handle(r, "/api/v2/refund_withdrawal_terms/", a.handleRefundWithdrawalTermsList, get...)
	handle(r, "/api/v2/product_information/events/", a.handleEventsProductInformation, get...)
	handle(r, "/api/v2/product_information/giftcards/", a.handleGiftcardsProductInformation, get...)
	handle(r, "/api/v2/product_information/network_giftcards/", a.handleNetworkGiftcardsProductInformation, get...)
	handle(r, "/api/v2/product_information/network_vouchers/", a.handleNetworkVouchersProductInformation, get...)
	handle(r, "/api/v2/product_information/vouchers/", a.handleVouchersProductInformation, get...)
	handle(r, "/api/v2/product_information/workshops/", a.handleWorkshopsProductInformation, get...)
}

// jsonPartnerFacilities are a partner's facilities (catalogue 2.12).
type jsonPartnerFacilities struct {
	DisabledAccess  bool `json:"disabled_access"`
	AirConditioning bool `json:"air_conditioning"`
	PrivateParking  bool `json:"private_parking"`
	Wifi            bool `json:"wifi"`
	SmokingArea     bool `json:"smoking_area"`
	PetsAllowed     bool `json:"pets_allowed"`
	FamilyFriendly  bool `json:"family_friendly"`
}

type jsonPartnerLabel struct {
	Name string `json:"name"`
	Logo string `json:"logo"`
}

// jsonListedPartner is a partner (catalogue 2.12). logo is always null: the
// contract shows no other value.
type jsonListedPartner struct {
	ID                    int64                 `json:"id"`
	Name                  string                `json:"name"`
	Description           jsonLocalized         `json:"description"`
	Managers              jsonLocalized         `json:"managers"`
	Nearby                jsonLocalized         `json:"nearby"`
	PracticalInformation  jsonLocalized         `json:"practical_information"`
	Access                jsonLocalized         `json:"access"`
	CommercialDescription jsonLocalized         `json:"commercial_description"`
	Logo                  *string               `json:"logo"`
	Region                string                `json:"region"`
	Department            string                `json:"department"`
	Latitude              *json.Number          `json:"latitude"`
	Longitude             *json.Number          `json:"longitude"`
	Facilities            jsonPartnerFacilities `json:"facilities"`
	SocialLinks           map[string]string     `json:"social_links"`
	LabelAndNetwork       []jsonPartnerLabel    `json:"label_and_network"`
}

// jsonCoordinate writes a decimal degree as a JSON number, exactly.
func jsonCoordinate(d *decimal.Decimal) *json.Number {
	if d == nil {
		return nil
	}
	n := json.Number(d.String())
	return &n
}

// jsonStrings is a map of strings that is never null.
func jsonStrings(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

func toJSONListedPartner(p *catalogue.PartnerListing) jsonListedPartner {
	pr, f := p.Profile, p.Profile.Facilities
	labels := make([]jsonPartnerLabel, len(p.Labels))
	for i, l := range p.Labels {
		labels[i] = jsonPartnerLabel{Name: l.Name, Logo: l.LogoURL}
	}
	return jsonListedPartner{
		ID:                    p.ID,
		Name:                  p.Name,
		Description:           toJSONLocalized(pr.Description),
		Managers:              toJSONLocalized(pr.Managers),
		Nearby:                toJSONLocalized(pr.Nearby),
		PracticalInformation:  toJSONLocalized(pr.PracticalInformation),
		Access:                toJSONLocalized(pr.Access),
		CommercialDescription: toJSONLocalized(pr.CommercialDescription),
		Region:                pr.Region,
		Department:            pr.Department,
		Latitude:              jsonCoordinate(pr.Latitude),
		Longitude:             jsonCoordinate(pr.Longitude),
		Facilities: jsonPartnerFacilities{DisabledAccess: f.DisabledAccess, AirConditioning: f.AirConditioning,
			PrivateParking: f.PrivateParking, Wifi: f.Wifi, SmokingArea: f.SmokingArea, PetsAllowed: f.PetsAllowed,
			FamilyFriendly: f.FamilyFriendly},
		SocialLinks:     jsonStrings(pr.SocialLinks),
		LabelAndNetwork: labels,
	}
}

// handlePartnerList is GET /api/v2/partners/ (partners_list).
func (a *api) handlePartnerList(w http.ResponseWriter, r *http.Request) {
	page, err := pageRequest(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	q := r.URL.Query()
	query := catalogue.PartnerQuery{Department: q.Get("department"), Region: q.Get("region")}
	query.IDs = idList(q.Get("id"), "id", catalogue.MsgPartnerIDInvalid, &query.Refusals)
	p, err := a.PartnerCatalog.Partners(r.Context(), query, page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONPage(r, p, toJSONListedPartner))
}

// handlePartnerGet is GET /api/v2/partners/{id}/ (partners_retrieve).
func (a *api) handlePartnerGet(w http.ResponseWriter, r *http.Request) {
	p, err := a.PartnerCatalog.Partner(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONListedPartner(p))
}

// handlePartnerMe is GET /api/v2/partners/me/ (partners_me_retrieve).
func (a *api) handlePartnerMe(w http.ResponseWriter, r *http.Request) {
	p, err := a.PartnerCatalog.CurrentPartner(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONListedPartner(p))
}

type jsonDestination struct {
	City       string `json:"city"`
	Department string `json:"department"`
	Region     string `json:"region"`
}

// handleDestinationList is GET /api/v2/destinations/ (destinations_list).
func (a *api) handleDestinationList(w http.ResponseWriter, r *http.Request) {
	ds, err := a.PartnerCatalog.Destinations(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]jsonDestination, len(ds))
	for i, d := range ds {
		out[i] = jsonDestination{City: d.City, Department: d.Department, Region: d.Region}
	}
	writeJSON(w, http.StatusOK, out)
}

// jsonLegalInformation is catalogue 2.8.
type jsonLegalInformation struct {
	AgencyName       string    `json:"agency_name"`
	Name             string    `json:"name"`
	AddressLine1     string    `json:"address_line_1"`
	AddressLine2     string    `json:"address_line_2"`
	AddressLine3     string    `json:"address_line_3"`
	PostalCode       string    `json:"postal_code"`
	City             string    `json:"city"`
	Country          string    `json:"country"`
	CompanyType      string    `json:"company_type"`
	CreationDate     time.Time `json:"creation_date"`
	HQPhoneNumber    string    `json:"hq_phone_number"`
	AgencyPhone      string    `json:"agency_phone"`
	AgencyWebsite    string    `json:"agency_website"`
	LegalNoticeEmail string    `json:"legal_notice_email"`
	LegalForm        string    `json:"legal_form"`
	CapitalStock     string    `json:"capital_stock"`
	CurrencySymbol   string    `json:"currency_symbol"`
	LegalFirstName   string    `json:"legal_first_name"`
	LegalLastName    string    `json:"legal_last_name"`
	SIRETNumber      string    `json:"siret_number"`
	VATID            string    `json:"vat_id"`
	RCS              string    `json:"rcs"`
}

// handleLegalInformationList is GET /api/v2/partner_legal_information/.
func (a *api) handleLegalInformationList(w http.ResponseWriter, r *http.Request) {
	lis, err := a.PartnerCatalog.LegalInformation(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]jsonLegalInformation, len(lis))
	for i, li := range lis {
		out[i] = jsonLegalInformation{AgencyName: li.AgencyName, Name: li.Name, AddressLine1: li.AddressLine1,
			AddressLine2: li.AddressLine2, AddressLine3: li.AddressLine3, PostalCode: li.PostalCode, City: li.City,
			Country: li.Country, CompanyType: li.CompanyType, CreationDate: li.CreationDate,
			HQPhoneNumber: li.HQPhoneNumber, AgencyPhone: li.AgencyPhone, AgencyWebsite: li.AgencyWebsite,
			LegalNoticeEmail: li.LegalNoticeEmail, LegalForm: li.LegalForm, CapitalStock: li.CapitalStock.StringFixed(2),
			CurrencySymbol: li.CurrencySymbol, LegalFirstName: li.LegalFirstName, LegalLastName: li.LegalLastName,
			SIRETNumber: li.SIRETNumber, VATID: li.VATID, RCS: li.RCS}
	}
	writeJSON(w, http.StatusOK, out)
}

type jsonRefundWithdrawalTerms struct {
	RefundWithdrawalTerms jsonLocalized `json:"refund_withdrawal_terms"`
}

// handleRefundWithdrawalTermsList is GET /api/v2/refund_withdrawal_terms/.
func (a *api) handleRefundWithdrawalTermsList(w http.ResponseWriter, r *http.Request) {
	terms, err := a.PartnerCatalog.RefundWithdrawalTerms(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]jsonRefundWithdrawalTerms, len(terms))
	for i, t := range terms {
		out[i] = jsonRefundWithdrawalTerms{RefundWithdrawalTerms: toJSONLocalized(t)}
	}
	writeJSON(w, http.StatusOK, out)
}

// jsonEventsProductInformation is catalogue 2.13, events.
type jsonEventsProductInformation struct {
	Title                    jsonLocalized     `json:"title"`
	Description              jsonLocalized     `json:"description"`
	TOSURL                   map[string]string `json:"tos_url"`
	DisplayFullyBookedEvents bool              `json:"display_fully_booked_events"`
	DisplayEventsPerSlots    bool              `json:"display_events_per_slots"`
}

// handleEventsProductInformation is GET /api/v2/product_information/events/.
func (a *api) handleEventsProductInformation(w http.ResponseWriter, r *http.Request) {
	pi, err := a.PartnerCatalog.EventsProductInformation(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, jsonEventsProductInformation{Title: toJSONLocalized(pi.Title),
		Description: toJSONLocalized(pi.Description), TOSURL: jsonStrings(pi.TOSURL),
		DisplayFullyBookedEvents: pi.DisplayFullyBookedEvents, DisplayEventsPerSlots: pi.DisplayEventsPerSlots})
}

type jsonPartnerAgency struct {
	ID         int64  `json:"id"`
	AgencyName string `json:"agency_name"`
}

// jsonGiftcardsProductInformation is catalogue 2.13, giftcards.
type jsonGiftcardsProductInformation struct {
	Title       jsonLocalized       `json:"title"`
	Description jsonLocalized       `json:"description"`
	Partners    []jsonPartnerAgency `json:"partners"`
}

// handleGiftcardsProductInformation is GET /api/v2/product_information/giftcards/.
func (a *api) handleGiftcardsProductInformation(w http.ResponseWriter, r *http.Request) {
	pis, err := a.PartnerCatalog.GiftcardsProductInformation(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]jsonGiftcardsProductInformation, len(pis))
	for i, pi := range pis {
		partners := make([]jsonPartnerAgency, len(pi.Partners))
		for j, p := range pi.Partners {
			partners[j] = jsonPartnerAgency{ID: p.ID, AgencyName: p.AgencyName}
		}
		out[i] = jsonGiftcardsProductInformation{Title: toJSONLocalized(pi.Title),
			Description: toJSONLocalized(pi.Description), Partners: partners}
	}
	writeJSON(w, http.StatusOK, out)
}

// jsonNetworkGiftcardSettings is the giftcard of the network giftcards
// product information (the subset of catalogue 2.7 it shows).
type jsonNetworkGiftcardSettings struct {
	CustomizedAmount           bool            `json:"customized_amount"`
	Description                jsonLocalized   `json:"description"`
	MinimumAmount              string          `json:"minimum_amount"`
	PredefinedAmounts          []string        `json:"predefined_amounts"`
	TermsOfUse                 jsonLocalized   `json:"terms_of_use"`
	Title                      jsonLocalized   `json:"title"`
	ValidityPeriod             int             `json:"validity_period"`
	ValidityUnit               string          `json:"validity_unit"`
	MinimumAmountFormatted     jsonLocalized   `json:"minimum_amount_formatted"`
	PredefinedAmountsFormatted []jsonLocalized `json:"predefined_amounts_formatted"`
}

type jsonNetworkGiftcardMoneyPot struct {
	Activated   bool          `json:"activated"`
	Description jsonLocalized `json:"description"`
	Logo        string        `json:"logo"`
	Title       jsonLocalized `json:"title"`
}

// jsonNetworkGiftcardsProductInformation is catalogue 2.13, network giftcards.
type jsonNetworkGiftcardsProductInformation struct {
	Title       jsonLocalized               `json:"title"`
	Description jsonLocalized               `json:"description"`
	Giftcard    jsonNetworkGiftcardSettings `json:"giftcard"`
	MoneyPot    jsonNetworkGiftcardMoneyPot `json:"money_pot"`
}

// handleNetworkGiftcardsProductInformation is GET
// /api/v2/product_information/network_giftcards/.
func (a *api) handleNetworkGiftcardsProductInformation(w http.ResponseWriter, r *http.Request) {
	pi, err := a.PartnerCatalog.NetworkGiftcardsProductInformation(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	g, m := pi.Giftcard, pi.MoneyPot
	amounts := make([]string, len(g.PredefinedAmounts))
	for i, amount := range g.PredefinedAmounts {
		amounts[i] = amount.StringFixed(2)
	}
	formatted := make([]jsonLocalized, len(pi.PredefinedAmountsFormatted))
	for i, f := range pi.PredefinedAmountsFormatted {
		formatted[i] = toJSONLocalized(f)
	}
	writeJSON(w, http.StatusOK, jsonNetworkGiftcardsProductInformation{
		Title:       toJSONLocalized(pi.Title),
		Description: toJSONLocalized(pi.Description),
		Giftcard: jsonNetworkGiftcardSettings{CustomizedAmount: g.CustomizedAmount,
			Description: toJSONLocalized(g.Description), MinimumAmount: g.MinimumAmount.StringFixed(2),
			PredefinedAmounts: amounts, TermsOfUse: toJSONLocalized(g.TermsOfUse), Title: toJSONLocalized(g.Title),
			ValidityPeriod: g.ValidityPeriod, ValidityUnit: g.ValidityUnit,
			MinimumAmountFormatted: toJSONLocalized(pi.MinimumAmountFormatted), PredefinedAmountsFormatted: formatted},
		MoneyPot: jsonNetworkGiftcardMoneyPot{Activated: m.Activated, Description: toJSONLocalized(m.Description),
			Logo: m.Logo, Title: toJSONLocalized(m.Title)},
	})
}

// jsonNetworkVouchersProductInformation is catalogue 2.13, network vouchers.
type jsonNetworkVouchersProductInformation struct {
	Title                          jsonLocalized `json:"title"`
	Description                    jsonLocalized `json:"description"`
	TermsOfUse                     jsonLocalized `json:"terms_of_use"`
	DisplayByUniverse              bool          `json:"display_by_universe"`
	ValidityPeriod                 int           `json:"validity_period"`
	ValidityPeriodUnit             int           `json:"validity_period_unit"`
	ActivatedProductFeature        bool          `json:"activated_product_feature"`
	ActivatedGroupPayment          bool          `json:"activated_group_payment"`
	DisplayOffersMap               bool          `json:"display_offers_map"`
	ActivatedOfferCountryFilter    bool          `json:"activated_offer_country_filter"`
	ActivatedOfferDepartmentFilter bool          `json:"activated_offer_department_filter"`
	ActivatedOfferRegionFilter     bool          `json:"activated_offer_region_filter"`
}

// handleNetworkVouchersProductInformation is GET
// /api/v2/product_information/network_vouchers/.
func (a *api) handleNetworkVouchersProductInformation(w http.ResponseWriter, r *http.Request) {
	pi, err := a.PartnerCatalog.NetworkVouchersProductInformation(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, jsonNetworkVouchersProductInformation{Title: toJSONLocalized(pi.Title),
		Description: toJSONLocalized(pi.Description), TermsOfUse: toJSONLocalized(pi.TermsOfUse),
		DisplayByUniverse: pi.DisplayByUniverse, ValidityPeriod: pi.ValidityPeriod,
		ValidityPeriodUnit: pi.ValidityPeriodUnit, ActivatedProductFeature: pi.ActivatedProductFeature,
		ActivatedGroupPayment: pi.ActivatedGroupPayment, DisplayOffersMap: pi.DisplayOffersMap,
		ActivatedOfferCountryFilter:    pi.ActivatedOfferCountryFilter,
		ActivatedOfferDepartmentFilter: pi.ActivatedOfferDepartmentFilter,
		ActivatedOfferRegionFilter:     pi.ActivatedOfferRegionFilter})
}

// jsonVouchersProductInformation is catalogue 2.13, vouchers. hero_image and
// default_prototype_image are always null: the contract shows no other value.
type jsonVouchersProductInformation struct {
	Title                           jsonLocalized `json:"title"`
	Subtitle                        jsonLocalized `json:"subtitle"`
	ShortDescription                jsonLocalized `json:"short_description"`
	HeroImage                       *string       `json:"hero_image"`
	ActivatedDestinationFilter      bool          `json:"activated_destination_filter"`
	ActivatedUniverseFilter         bool          `json:"activated_universe_filter"`
	ActivatedPriceFilter            bool          `json:"activated_price_filter"`
	ActivatedTargetFilter           bool          `json:"activated_target_filter"`
	ActivatedThemeFilter            bool          `json:"activated_theme_filter"`
	ActivatedEnvironmentFilter      bool          `json:"activated_environment_filter"`
	ActivatedOfferOrderingByRanking bool          `json:"activated_offer_ordering_by_ranking"`
	ValidityPeriod                  int           `json:"validity_period"`
	ValidityPeriodUnit              int           `json:"validity_period_unit"`
	MethodOfDisplay                 int           `json:"method_of_display"`
	DefaultPrototypeImage           *string       `json:"default_prototype_image"`
	ActivatedGroupPayment           bool          `json:"activated_group_payment"`
}

// handleVouchersProductInformation is GET /api/v2/product_information/vouchers/.
func (a *api) handleVouchersProductInformation(w http.ResponseWriter, r *http.Request) {
	pi, err := a.PartnerCatalog.VouchersProductInformation(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, jsonVouchersProductInformation{Title: toJSONLocalized(pi.Title),
		Subtitle: toJSONLocalized(pi.Subtitle), ShortDescription: toJSONLocalized(pi.ShortDescription),
		ActivatedDestinationFilter: pi.ActivatedDestinationFilter, ActivatedUniverseFilter: pi.ActivatedUniverseFilter,
		ActivatedPriceFilter: pi.ActivatedPriceFilter, ActivatedTargetFilter: pi.ActivatedTargetFilter,
		ActivatedThemeFilter: pi.ActivatedThemeFilter, ActivatedEnvironmentFilter: pi.ActivatedEnvironmentFilter,
		ActivatedOfferOrderingByRanking: pi.ActivatedOfferOrderingByRanking, ValidityPeriod: pi.ValidityPeriod,
		ValidityPeriodUnit: pi.ValidityPeriodUnit, MethodOfDisplay: pi.MethodOfDisplay,
		ActivatedGroupPayment: pi.ActivatedGroupPayment})
}

// jsonWorkshopsProductInformation is catalogue 2.13, workshops.
type jsonWorkshopsProductInformation struct {
	Title                        jsonLocalized     `json:"title"`
	Description                  jsonLocalized     `json:"description"`
	TOSURL                       map[string]string `json:"tos_url"`
	DisplayWorkshopsByMonth      bool              `json:"display_workshops_by_month"`
	DisplayWorkshopsPerSession   bool              `json:"display_workshops_per_session"`
	DisplayFullyBookedSessions   bool              `json:"display_fully_booked_sessions"`
	ActivatedMonthFilter         bool              `json:"activated_month_filter"`
	ActivatedDayFilter           bool              `json:"activated_day_filter"`
	ActivatedTimeFilter          bool              `json:"activated_time_filter"`
	ActivatedPriceFilter         bool              `json:"activated_price_filter"`
	ActivatedCategoryFilter      bool              `json:"activated_category_filter"`
	ActivatedDurationFilter      bool              `json:"activated_duration_filter"`
	ActivatedTargetFilter        bool              `json:"activated_target_filter"`
	ActivatedLevelFilter         bool              `json:"activated_level_filter"`
	ActivatedThemeFilter         bool              `json:"activated_theme_filter"`
	MinNbFreePlacesForLabelShown int               `json:"min_nb_free_places_for_label_shown"`
	DisplayPhoneNumber           bool              `json:"display_phone_number"`
	PhoneNumber                  string            `json:"phone_number"`
	DefaultWorkshopImage         string            `json:"default_workshop_image"`
	ValidityPeriod               int               `json:"validity_period"`
	ValidityPeriodUnit           int               `json:"validity_period_unit"`
}

// handleWorkshopsProductInformation is GET /api/v2/product_information/workshops/.
func (a *api) handleWorkshopsProductInformation(w http.ResponseWriter, r *http.Request) {
	pi, err := a.PartnerCatalog.WorkshopsProductInformation(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, jsonWorkshopsProductInformation{Title: toJSONLocalized(pi.Title),
		Description: toJSONLocalized(pi.Description), TOSURL: jsonStrings(pi.TOSURL),
		DisplayWorkshopsByMonth: pi.DisplayWorkshopsByMonth, DisplayWorkshopsPerSession: pi.DisplayWorkshopsPerSession,
		DisplayFullyBookedSessions: pi.DisplayFullyBookedSessions, ActivatedMonthFilter: pi.ActivatedMonthFilter,
		ActivatedDayFilter: pi.ActivatedDayFilter, ActivatedTimeFilter: pi.ActivatedTimeFilter,
		ActivatedPriceFilter: pi.ActivatedPriceFilter, ActivatedCategoryFilter: pi.ActivatedCategoryFilter,
		ActivatedDurationFilter: pi.ActivatedDurationFilter, ActivatedTargetFilter: pi.ActivatedTargetFilter,
		ActivatedLevelFilter: pi.ActivatedLevelFilter, ActivatedThemeFilter: pi.ActivatedThemeFilter,
		MinNbFreePlacesForLabelShown: pi.MinNbFreePlacesForLabelShown, DisplayPhoneNumber: pi.DisplayPhoneNumber,
		PhoneNumber: pi.PhoneNumber, DefaultWorkshopImage: pi.DefaultWorkshopImage,
		ValidityPeriod: pi.ValidityPeriod, ValidityPeriodUnit: pi.ValidityPeriodUnit})
}
