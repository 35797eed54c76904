package graph

// Converters of the voucher and giftcard administration.

import (
	"strconv"
	"strings"
	"time"

	"salesplatform/domain"
	"salesplatform/domain/vouchers"
	"salesplatform/graph/model"
)

// lenientID reads an id of an input: one that is not an integer names no
// record, which the service reports as a user error on the field.
func lenientID(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

func optIDString(id *int64) *string {
	if id == nil {
		return nil
	}
	s := idString(*id)
	return &s
}

func inZone(t *time.Time, loc *time.Location) *time.Time {
	if t == nil {
		return nil
	}
	in := t.In(loc)
	return &in
}

func toGraphVoucherState(s string) model.VoucherState { return model.VoucherState(strings.ToUpper(s)) }

// toOrdering writes an orderBy as the REST ordering parameter, which the
// service reads.
func toOrdering[F ~string](fields []F, desc []bool) string {
	terms := make([]string, len(fields))
	for i, f := range fields {
		terms[i] = strings.ToLower(string(f))
		if desc[i] {
			terms[i] = "-" + terms[i]
		}
	}
	return strings.Join(terms, ",")
}

func toVoucherOrdering(orderBy []*model.AdminVoucherOrder) string {
	fields, desc := make([]model.AdminVoucherOrderField, len(orderBy)), make([]bool, len(orderBy))
	for i, o := range orderBy {
		fields[i], desc[i] = o.Field, o.Direction == model.OrderDirectionDesc
	}
	return toOrdering(fields, desc)
}

func toGiftcardOrdering(orderBy []*model.AdminGiftcardOrder) string {
	fields, desc := make([]model.AdminGiftcardOrderField, len(orderBy)), make([]bool, len(orderBy))
	for i, o := range orderBy {
		fields[i], desc[i] = o.Field, o.Direction == model.OrderDirectionDesc
	}
	return toOrdering(fields, desc)
}

func toDomainVoucherList(f *model.AdminVoucherFilter, orderBy []*model.AdminVoucherOrder) vouchers.VoucherListInput {
	in := vouchers.VoucherListInput{Ordering: toVoucherOrdering(orderBy)}
	if f == nil {
		return in
	}
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	in.Code, in.PrototypeName = str(opt(f.Code)), str(opt(f.VoucherPrototypeName))
	in.Gifter, in.Giftee, in.OriginURL = str(opt(f.Gifter)), str(opt(f.Giftee)), str(opt(f.OriginURL))
	in.CreationDateGte, in.CreationDateLte = str(opt(f.CreationDateGte)), str(opt(f.CreationDateLte))
	return in
}

// voucherListArguments renames the REST parameters of list errors to the
// graph's arguments.
func voucherListArguments(err error) error {
	for from, to := range map[string]string{"ordering": "orderBy", "code": "filter.code",
		"voucher_prototype_name": "filter.voucherPrototypeName", "gifter": "filter.gifter", "giftee": "filter.giftee",
		"origin_url": "filter.originUrl", "creation_date__gte": "filter.creationDateGte",
		"creation_date__lte": "filter.creationDateLte", "created_on__gte": "filter.createdOnGte",
		"created_on__lte": "filter.createdOnLte"} {
		err = renameArgument(err, from, to)
	}
	return err
}

func toGraphAdminVoucher(v *vouchers.AdminVoucher) *model.AdminVoucher {
	loc := v.Location()
	out := &model.AdminVoucher{ID: idString(v.ID), GlobalID: globalID("AdminVoucher", v.Code), Code: v.Code, State: toGraphVoucherState(v.State),
		Summary: v.Summary, Origin: v.Origin, OriginURL: v.OriginURL, Type: v.Type, APIVersion: v.APIVersion,
		Language: v.Language, LanguageCode: languageOf(v.Language), ImportedFrom: v.ImportedFrom, PaymentType: v.PaymentType,
		PartnerID:                      v.PartnerID,
		VoucherPrototypeID:             idString(v.VoucherPrototypeID),
		VoucherPrototypeType:           vouchers.VoucherPrototypeTypeCode(v.VoucherPrototypeType),
		VoucherPrototypeName:           toGraphLocalized(v.PrototypeName),
		VoucherPrototypeDescription:    toGraphLocalized(v.PrototypeDescription),
		VoucherPrototypeRentConditions: toGraphLocalized(v.PrototypeRentConds),
		NbNights:                       v.NbNights, NbBabies: v.NbBabies, NbChildren: v.NbChildren, NbAdults: v.NbAdults,
		ReceptionMode: v.ReceptionMode, ReceptionModeDisplay: vouchers.ReceptionModeDisplay(v.ReceptionMode),
		ExpeditionStatus: v.ExpeditionStatus, ExpeditionDate: inZone(v.ExpeditionDate, loc),
		CoverLetterURL: v.CoverLetterURL, PrintablePDFFile: v.PrintablePDFFile, GifterID: optIDString(v.GifterID),
		GifterCivility: v.GifterCivility, GifterFirstName: v.GifterFirstName, GifterLastName: v.GifterLastName,
		GifterFullname: v.GifterFullName(), GifterAddress: v.GifterAddress, GifterEmail: v.GifterEmail,
		GifterZipcode: v.GifterZipcode, GifterCity: v.GifterCity, GifterCountry: v.GifterCountry,
		GifterWiredPhone: v.GifterWiredPhone, GifterMobilePhone: v.GifterMobilePhone, SelfGifted: v.SelfGifted,
		FromGifter: v.FromGifter, GifteeID: optIDString(v.GifteeID), GifteeFirstName: v.GifteeFirstName,
		GifteeLastName: v.GifteeLastName, GifteeEmail: v.GifteeEmail, GifteePhoneNumber: v.GifteePhoneNumber,
		RecipientAddress: v.RecipientAddress, ToGiftee: v.ToGiftee, Message: v.Message, TotalPrice: v.TotalPrice,
		PurchasePrice: v.PurchasePrice, RentPrice: v.RentPrice, BoughtRentPrice: v.BoughtRentPrice,
		CreationDate: v.CreationDate.In(loc), ActivationDate: inZone(v.ActivationDate, loc),
		UsageDate: inZone(v.UsageDate, loc), ExpirationDate: inZone(v.ExpirationDate, loc),
		IsGroupPayment: v.IsGroupPayment, IsUsable: v.IsUsable, IsExtendable: v.IsExtendable,
		IsRefundable:    v.IsRefundable,
		Options:         make([]*model.AdminVoucherOption, len(v.Options)),
		IncludedOptions: make([]*model.AdminIncludedOption, len(v.IncludedOptions)),
		StateChanges:    make([]*model.VoucherStateChange, len(v.StateChanges)),
	}
	for i, o := range v.Options {
		services := make([]*model.AdminOptionService, len(o.Option.Services))
		for j, s := range o.Option.Services {
			services[j] = &model.AdminOptionService{Cost: s.Cost, BuyingVat: s.BuyingVAT, SellingVat: s.SellingVAT, Price: s.Price}
		}
		protos := make([]string, len(o.Option.VoucherPrototypeIDs))
		for j, id := range o.Option.VoucherPrototypeIDs {
			protos[j] = idString(id)
		}
		out.Options[i] = &model.AdminVoucherOption{OptionID: idString(o.Option.ID), Name: toGraphLocalized(o.Option.Name),
			Description: toGraphLocalized(o.Option.Description), Count: o.Count, TotalPrice: o.TotalPrice,
			Price: o.Option.Price, SellingPrice: o.Option.SellingPrice, Countable: o.Option.Countable,
			IsActive: o.Option.IsActive, IsGlobal: o.Option.IsGlobal, Ranking: o.Option.Ranking,
			CategoryID: optIDString(o.Option.CategoryID), VoucherPrototypeIds: protos, Services: services}
	}
	for i, o := range v.IncludedOptions {
		out.IncludedOptions[i] = &model.AdminIncludedOption{Name: toGraphLocalized(o.Name), SourceID: o.SourceID, Count: o.Count}
	}
	for i, c := range v.StateChanges {
		out.StateChanges[i] = &model.VoucherStateChange{From: toGraphVoucherState(c.From), To: toGraphVoucherState(c.To),
			UserID: optIDString(c.UserID), ChangedAt: c.ChangedAt.In(loc)}
	}
	if v.Coupon != nil {
		out.Coupon = toGraphCoupon(v.Coupon, loc)
	}
	return out
}

// toGraphCoupon is coupon_for_email_details in camelCase; its id lists,
// conditions and flags are read by their legacy names (domain.Coupon*Fields).
func toGraphCoupon(c *vouchers.Coupon, loc *time.Location) *model.AdminVoucherCoupon {
	ids := func(f string) []string {
		out := make([]string, len(c.IDLists[f]))
		for i, id := range c.IDLists[f] {
			out[i] = idString(id)
		}
		return out
	}
	return &model.AdminVoucherCoupon{GlobalID: numericGlobalID("AdminVoucherCoupon", c.ID), ID: idString(c.ID), Code: c.Code, Type: c.Type, Valid: c.Valid,
		IsActivated: c.IsActivated, DiscountText: c.DiscountText, Discount: c.Discount, DiscountType: c.DiscountType,
		NumberOfUsage: c.NumberOfUsage, MaxUsage: c.MaxUsage, Start: inZone(c.Start, loc), End: inZone(c.End, loc),
		NewValidityPeriod: c.NewValidityPeriod, BookingEngineID: c.BookingEngineID,
		IsValueIncreased: c.IsValueIncreased, IsValueIncreasedMultipleTimes: c.IsValueIncreasedMultipleTimes,
		PartnerID: idString(c.PartnerID),

		VoucherPrototypesIds: ids("voucher_prototypes_ids"), CncOffersIds: ids("cnc_offers_ids"),
		EshopProductsIds: ids("eshop_products_ids"), ExperienceOffersIds: ids("experience_offers_ids"),
		WorkshopsIds: ids("workshops_ids"), WorkshopCategoriesIds: ids("workshop_categories_ids"),
		EventsIds: ids("events_ids"), FlashsalesOffersIds: ids("flashsales_offers_ids"),

		PaymentAmountConditionMinimum: c.Texts["payment_amount_condition_minimum"], Giftcode: c.Texts["giftcode"],
		EmailCondition: c.Texts["email_condition"], PriceConditionMinAmount: c.Texts["price_condition_min_amount"],
		ProductConditionMinAmount: c.Texts["product_condition_min_amount"],

		ActivateForVouchers: c.Flags["activate_for_vouchers"], ActivateForGiftcards: c.Flags["activate_for_giftcards"],
		ActivateForClickandcollect:           c.Flags["activate_for_clickandcollect"],
		ActivateForEcommerce:                 c.Flags["activate_for_ecommerce"],
		ActivateForExperiences:               c.Flags["activate_for_experiences"],
		ActivateForTicketsEvents:             c.Flags["activate_for_tickets_events"],
		ActivateForWorkshops:                 c.Flags["activate_for_workshops"],
		ActivateForFlashsales:                c.Flags["activate_for_flashsales"],
		ActivateForMoneypot:                  c.Flags["activate_for_moneypot"],
		ActivateForNetworkGiftcards:          c.Flags["activate_for_network_giftcards"],
		ActivateForNetworkVouchers:           c.Flags["activate_for_network_vouchers"],
		OfferDeliveryCostClickandcollect:     c.Flags["offer_delivery_cost_clickandcollect"],
		PrintAtHomeReceptionMode:             c.Flags["print_at_home_reception_mode"],
		ExpeditionReceptionMode:              c.Flags["expedition_reception_mode"],
		GifteeEmailReceptionMode:             c.Flags["giftee_email_reception_mode"],
		PostalMailToBeneficiaryReceptionMode: c.Flags["postal_mail_to_beneficiary_reception_mode"],
		OnSiteExpeditionMode:                 c.Flags["on_site_expedition_mode"]}
}

func toGraphAdminGiftcard(g *vouchers.AdminGiftcard) *model.AdminGiftcard {
	loc := g.Location()
	return &model.AdminGiftcard{ID: idString(g.ID), GlobalID: numericGlobalID("AdminGiftcard", g.ID), PartnerID: idString(g.PartnerID), Code: g.Code, Status: g.Status,
		GiftcardPrototypeID: idString(g.GiftcardPrototypeID), CreatedOn: g.CreatedOn.In(loc),
		ExpiresOn: inZone(g.ExpiresOn, loc), Value: g.Value, RemainingValue: g.RemainingValue,
		GifterFirstName: g.GifterFirstName, GifterLastName: g.GifterLastName}
}

func toDomainIssueVoucher(in model.IssueVoucherInput) vouchers.IssueVoucherInput {
	out := vouchers.IssueVoucherInput{VoucherPrototypeID: refRecordID("AdminVoucherPrototype", in.VoucherPrototypeID), TotalPrice: in.TotalPrice,
		ExpirationDate: opt(in.ExpirationDate), Language: issueLanguage(in), Summary: opt(in.Summary),
		GifterFirstName: opt(in.GifterFirstName), GifterLastName: opt(in.GifterLastName),
		GifterEmail: opt(in.GifterEmail), GifteeFirstName: opt(in.GifteeFirstName),
		GifteeLastName: opt(in.GifteeLastName), GifteeEmail: opt(in.GifteeEmail), FromGifter: opt(in.FromGifter),
		ToGiftee: opt(in.ToGiftee), Message: opt(in.Message), ReceptionMode: opt(in.ReceptionMode),
		NbAdults: opt(in.NbAdults), NbChildren: opt(in.NbChildren), NbBabies: opt(in.NbBabies),
		NbNights: opt(in.NbNights)}
	if s := opt(in.State); s != nil {
		state := strings.ToLower(string(*s))
		out.State = &state
	}
	for _, o := range optList(in.Options) {
		out.Options = append(out.Options, vouchers.IssueOptionInput{OptionID: refRecordID("VoucherOption", o.OptionID), Count: o.Count,
			TotalPrice: o.TotalPrice})
	}
	return out
}

func adminVoucherPayload(v *vouchers.AdminVoucher, err error) (*model.AdminVoucherPayload, error) {
	if err != nil {
		ue, err := userErrors(err)
		return &model.AdminVoucherPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.AdminVoucherPayload{Voucher: toGraphAdminVoucher(v), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

func adminGiftcardPayload(g *vouchers.AdminGiftcard, err error) (*model.AdminGiftcardPayload, error) {
	if err != nil {
		ue, err := userErrors(err)
		return &model.AdminGiftcardPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.AdminGiftcardPayload{Giftcard: toGraphAdminGiftcard(g), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// languageOf is a language code as the Language enum; nil for a code the
// service does not have.
func languageOf(code string) *model.Language {
	if !domain.IsLanguage(code) {
		return nil
	}
	l := model.Language(strings.ToUpper(code))
	return &l
}

// issueLanguage is the language an issued voucher is in: languageCode's,
// else the deprecated language's as sent; nil for the default.
func issueLanguage(in model.IssueVoucherInput) *string {
	if l := opt(in.LanguageCode); l != nil {
		code := strings.ToLower(string(*l))
		return &code
	}
	return opt(in.Language)
}
