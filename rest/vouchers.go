package rest

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/gorilla/mux"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/vouchers"
)

// registerVoucherAdminRoutes adds the administration routes of vouchers
// and giftcards.
func registerVoucherAdminRoutes(r *mux.Router, a *api) {
	handleWithToken(r, "/api/vouchers/", a.handleVoucherList, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/vouchers/{code}/", a.handleVoucherGet, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/vouchers/{code}/", a.handleVoucherUpdate, http.MethodPatch)
	handleWithToken(r, "/api/giftcards/", a.handleGiftcardList, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/giftcards/{id}/", a.handleGiftcardGet, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/giftcards_by_code/{code}/", a.handleGiftcardByCode, http.MethodGet, http.MethodHead)
}

// handleVoucherList is GET /api/vouchers/: a Page of vouchers.
func (a *api) handleVoucherList(w http.ResponseWriter, r *http.Request) {
	page, err := pageRequest(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	q := r.URL.Query()
	vs, err := a.VoucherAdmin.Vouchers(r.Context(), vouchers.VoucherListInput{
		Code: q.Get("code"), PrototypeName: q.Get("voucher_prototype_name"), Gifter: q.Get("gifter"),
		Giftee: q.Get("giftee"), OriginURL: q.Get("origin_url"), CreationDateGte: q.Get("creation_date__gte"),
		CreationDateLte: q.Get("creation_date__lte"), CreationDateRange: q.Get("creation_date__range"),
		Ordering: q.Get("ordering"),
	}, page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toAdminPage(r, vs, toJSONVoucher))
}

// handleVoucherGet is GET /api/vouchers/{code}/.
func (a *api) handleVoucherGet(w http.ResponseWriter, r *http.Request) {
	v, err := a.VoucherAdmin.Voucher(r.Context(), mux.Vars(r)["code"])
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONVoucher(v))
}

// handleVoucherUpdate is PATCH /api/vouchers/{code}/ with {"state"}: 200
// with the whole voucher.
func (a *api) handleVoucherUpdate(w http.ResponseWriter, r *http.Request) {
	body, ok := decodeFlat(w, r)
	if !ok {
		return
	}
	v, err := a.VoucherAdmin.UpdateVoucherState(r.Context(), mux.Vars(r)["code"], decodeStateInput(body))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONVoucher(v))
}

// jsonNumber writes an amount as a JSON number, exactly.
func jsonNumber(d decimal.Decimal) json.Number { return json.Number(d.String()) }

// flatten adds l's texts as prefix_<lang>, null where there is none.
func flatten(m map[string]any, prefix string, l domain.Localized) {
	for _, lang := range domain.Languages {
		if s, ok := l[lang]; ok && s != "" {
			m[prefix+"_"+lang] = s
		} else {
			m[prefix+"_"+lang] = nil
		}
	}
}

func jsonTime(t *time.Time, loc *time.Location) any {
	if t == nil {
		return nil
	}
	return t.In(loc).Format(time.RFC3339Nano)
}

// toJSONVoucher is the voucher record. Its many per-language fields
// make it a map.
func toJSONVoucher(v *vouchers.AdminVoucher) map[string]any {
	loc := v.Location()
	m := map[string]any{
		"id": v.ID, "code": v.Code, "summary": v.Summary, "origin": v.Origin,
		"voucher_prototype":      v.VoucherPrototypeID,
		"voucher_prototype_type": vouchers.VoucherPrototypeTypeCode(v.VoucherPrototypeType),
		"type":                   v.Type, "api_version": v.APIVersion, "language": v.Language,
		"imported_from": v.ImportedFrom, "payment_type": v.PaymentType,
		"nb_nights": v.NbNights, "nb_babies": v.NbBabies, "nb_children": v.NbChildren, "nb_adults": v.NbAdults,
		"reception_mode": v.ReceptionMode, "reception_mode_display": vouchers.ReceptionModeDisplay(v.ReceptionMode),
		"expedition_status": v.ExpeditionStatus, "expedition_date": jsonTime(v.ExpeditionDate, loc),
		"cover_letter_url": v.CoverLetterURL, "printable_pdf_file": v.PrintablePDFFile,
		"gifter": v.GifterID, "gifter_civility": v.GifterCivility, "gifter_first_name": v.GifterFirstName,
		"gifter_last_name": v.GifterLastName, "gifter_fullname": v.GifterFullName(),
		"gifter_address": v.GifterAddress, "gifter_email": v.GifterEmail, "gifter_zipcode": v.GifterZipcode,
		"gifter_city": v.GifterCity, "gifter_country": v.GifterCountry, "gifter_wired_phone": v.GifterWiredPhone,
		"gifter_mobile_phone": v.GifterMobilePhone, "self_gifted": v.SelfGifted, "from_gifter": v.FromGifter,
		"giftee": v.GifteeID, "giftee_first_name": v.GifteeFirstName, "giftee_last_name": v.GifteeLastName,
		"giftee_email": v.GifteeEmail, "giftee_phone_number": v.GifteePhoneNumber,
		"recipient_address": v.RecipientAddress, "to_giftee": v.ToGiftee, "message": v.Message,
		"total_price": v.TotalPrice.StringFixed(2), "purchase_price": v.PurchasePrice.StringFixed(2),
		"rent_price": v.RentPrice.StringFixed(2), "bought_rent_price": v.BoughtRentPrice.StringFixed(2),
		"creation_date": jsonTime(&v.CreationDate, loc), "activation_date": jsonTime(v.ActivationDate, loc),
		"usage_date": jsonTime(v.UsageDate, loc), "expiration_date": jsonTime(v.ExpirationDate, loc),
		"expiration_date_display": nil,
		"state":                   v.State, "is_group_payment": v.IsGroupPayment, "is_usable": v.IsUsable,
		"is_extendable": v.IsExtendable, "is_refundable": v.IsRefundable,
		"rentals": []any{}, "coupon": "", "coupon_details": "", "coupon_for_email_details": nil,
	}
	if v.ExpirationDate != nil {
		m["expiration_date_display"] = v.ExpirationDate.In(loc).Format(time.DateOnly)
	}
	if name, ok := v.PrototypeNameIn(); ok {
		m["voucher_prototype_name"] = name
	} else {
		m["voucher_prototype_name"] = nil
	}
	flatten(m, "voucher_prototype_name", v.PrototypeName)
	flatten(m, "voucher_prototype_description", v.PrototypeDescription)
	flatten(m, "voucher_prototype_rent_conditions", v.PrototypeRentConds)

	options := make([]any, len(v.Options))
	for i, o := range v.Options {
		options[i] = map[string]any{"option": toJSONVoucherOption(o.Option), "count": o.Count, "total_price": jsonNumber(o.TotalPrice)}
	}
	m["options"] = options
	included := make([]any, len(v.IncludedOptions))
	for i, o := range v.IncludedOptions {
		opt := map[string]any{"source_id": o.SourceID}
		flatten(opt, "name", o.Name)
		included[i] = map[string]any{"option": opt, "count": o.Count}
	}
	m["voucher_prototype_included_options"] = included
	if c := v.Coupon; c != nil {
		m["coupon"], m["coupon_details"] = c.Code, c.DiscountText
		m["coupon_for_email_details"] = toJSONCoupon(c, loc)
	}
	return m
}

func toJSONVoucherOption(o *vouchers.VoucherOption) map[string]any {
	services := make([]any, len(o.Services))
	for i, s := range o.Services {
		services[i] = map[string]any{"service_cost": jsonNumber(s.Cost), "service_buying_vat": jsonNumber(s.BuyingVAT),
			"service_selling_vat": jsonNumber(s.SellingVAT), "service_price": jsonNumber(s.Price)}
	}
	protos := make([]any, len(o.VoucherPrototypeIDs))
	for i, id := range o.VoucherPrototypeIDs {
		protos[i] = map[string]any{"id": id}
	}
	m := map[string]any{"id": o.ID, "has_been_ordered": true, "countable": o.Countable, "services_info": services,
		"price": jsonNumber(o.Price), "selling_price": jsonNumber(o.SellingPrice), "is_active": o.IsActive,
		"is_global": o.IsGlobal, "ranking": o.Ranking, "category": o.CategoryID, "voucher_prototypes": protos}
	flatten(m, "name", o.Name)
	flatten(m, "description", o.Description)
	return m
}

func toJSONCoupon(c *vouchers.Coupon, loc *time.Location) map[string]any {
	m := map[string]any{"id": c.ID, "valid": c.Valid, "discount_text": c.DiscountText,
		"number_of_usage": c.NumberOfUsage, "new_validity_period": c.NewValidityPeriod,
		"booking_engine_id": c.BookingEngineID, "is_activated": c.IsActivated, "code": c.Code, "type": c.Type,
		"start": "", "end": "", "discount": c.Discount.StringFixed(2), "discount_type": c.DiscountType,
		"is_value_increased": c.IsValueIncreased, "is_value_increased_multiple_times": c.IsValueIncreasedMultipleTimes,
		"max_usage": c.MaxUsage, "partner": c.PartnerID}
	if c.Start != nil {
		m["start"] = c.Start.In(loc).Format(time.RFC3339Nano)
	}
	if c.End != nil {
		m["end"] = c.End.In(loc).Format(time.RFC3339Nano)
	}
	for _, f := range vouchers.CouponIDListFields {
		ids := c.IDLists[f]
		if ids == nil {
			ids = []int64{}
		}
		m[f] = ids
	}
	for _, f := range vouchers.CouponTextFields {
		m[f] = c.Texts[f]
	}
	for _, f := range vouchers.CouponFlagFields {
		m[f] = c.Flags[f]
	}
	return m
}
