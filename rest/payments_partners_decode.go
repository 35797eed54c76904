package rest

import (
	"salesplatform/domain/payments"
	"salesplatform/rest/drf"
)

// decodePaymentPartner reads the body of a payment-hub partner's
// creation (POST /api/payment_hub/partner/).
func decodePaymentPartner(doc drf.Object) payments.PartnerInput {
	var in payments.PartnerInput
	r := drf.New(doc, &in.Refusals)
	in.Status, in.CommercialName, in.Name = r.String("status"), r.String("commercial_name"), r.String("name")
	in.ShortName, in.CompanyType, in.SiretNumber = r.String("short_name"), r.String("company_type"), r.String("siret_number")
	in.LegalRepresentativeFirstName = r.String("legal_representative_first_name")
	in.LegalRepresentativeLastName = r.String("legal_representative_last_name")
	in.LegalRepresentativeBirthday = r.Day("legal_representative_birthday")
	in.LegalRepresentativeEmail = r.String("legal_representative_email")
	in.HQAddressLine1, in.HQAddressLine2 = r.String("hq_address_line_1"), r.String("hq_address_line_2")
	in.HQPostalCode, in.HQCity, in.HQCountry = r.String("hq_postal_code"), r.String("hq_city"), r.String("hq_country")
	in.RCS, in.APE, in.VATID = r.String("rcs"), r.String("ape"), r.String("vat_id")
	in.AgencyEmail, in.AgencyPhone, in.Website = r.String("agency_email"), r.String("agency_phone"), r.String("website")
	in.PayoutFrequency = r.String("payout_frequency")
	in.AutoValidatePayout, in.FreezePayout = r.Bool("auto_validate_payout"), r.Bool("freeze_payout")
	in.BlockPayoutValidation, in.HideFromStats = r.Bool("block_payout_validation"), r.Bool("hide_from_stats")
	in.ThirdPartySalesOnly = r.Bool("third_party_sales_only")
	in.IBAN, in.BIC = r.String("iban"), r.String("bic")
	in.Referrer = r.PK("referrer")
	return in
}

// decodePaymentPartnerUpdate reads the body of a payment-hub partner's
// change (PATCH /api/payment_hub/partner/{uuid}/).
func decodePaymentPartnerUpdate(doc drf.Object) payments.PartnerUpdate {
	var in payments.PartnerUpdate
	r := drf.New(doc, &in.Refusals)
	in.LegalRepresentativeBirthday = r.Day("legal_representative_birthday")
	in.LegalRepresentativeEmail, in.Status = r.String("legal_representative_email"), r.String("status")
	in.BlockPayoutValidation, in.HideFromStats = r.Bool("block_payout_validation"), r.Bool("hide_from_stats")
	in.ThirdPartySalesOnly = r.Bool("third_party_sales_only")
	in.Referrer, in.Reason = r.PK("referrer"), r.String("reason")
	return in
}
