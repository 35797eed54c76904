package rest

import (
	"fmt"

	"salesplatform/domain"
	"salesplatform/domain/network"
	"salesplatform/rest/drf"
)

// sourceID reads source_id: digits as a string or a JSON integer (the
// service checks them); an object or a list is refused.
func sourceID(r drf.Reader) domain.Optional[string] {
	switch r.Obj["source_id"].(type) {
	case map[string]any, []any:
		r.R.Refuse(domain.VInvalid, network.MsgSourceID, "source_id")
		return domain.Optional[string]{}
	}
	return r.String("source_id")
}

// partnerTags reads partner_tags, a list of {"tag"} objects; the elements
// of a list too long to take are not read.
func partnerTags(r drf.Reader, field string) domain.Optional[[]network.TagInput] {
	value, present := r.Obj[field]
	switch {
	case !present:
		return domain.Optional[[]network.TagInput]{}
	case value == nil:
		return domain.Null[[]network.TagInput]()
	}
	list, isList := value.([]any)
	if !isList {
		r.R.Refuse(domain.VInvalid, fmt.Sprintf(domain.MsgNotAList, domain.JSONTypeName(value)), field)
		return domain.Optional[[]network.TagInput]{}
	}
	tags := make([]network.TagInput, len(list))
	if len(list) > network.MaxPartnerTags {
		return domain.Some(tags)
	}
	for i, e := range list {
		obj, isObj := e.(map[string]any)
		if !isObj {
			r.R.Refuse(domain.VInvalid, fmt.Sprintf(msgNotAnObject, domain.JSONTypeName(e)), field, i, "non_field_errors")
			continue
		}
		tags[i].Tag = drf.Reader{Obj: obj, R: r.R, At: []any{field, i}}.String("tag")
	}
	return domain.Some(tags)
}

func decodeLinks(r drf.Reader) network.Links {
	return network.Links{LinkToNVSettings: r.Bool("link_to_nv_settings"), LinkToNGCSettings: r.Bool("link_to_ngc_settings")}
}

// decodeNetworkPartnerInput reads the body of a network partner's
// creation.
func decodeNetworkPartnerInput(doc drf.Object) network.PartnerInput {
	var in network.PartnerInput
	r := drf.New(doc, &in.Refusals)
	in.MarketplaceUUID = r.UUID("marketplace_uuid")
	in.SourceID = sourceID(r)
	for _, t := range []struct {
		field string
		into  *domain.Optional[string]
	}{{"name", &in.Name}, {"commercial_name", &in.CommercialName}, {"short_name", &in.ShortName},
		{"company_type", &in.CompanyType}, {"siret_number", &in.SiretNumber},
		{"legal_representative_first_name", &in.LegalRepresentativeFirstName},
		{"legal_representative_last_name", &in.LegalRepresentativeLastName}, {"hq_address_line_1", &in.HQAddressLine1},
		{"hq_address_line_2", &in.HQAddressLine2}, {"hq_postal_code", &in.HQPostalCode}, {"hq_city", &in.HQCity},
		{"hq_country", &in.HQCountry}, {"rcs", &in.RCS}, {"ape", &in.APE}, {"vat_id", &in.VATID},
		{"agency_email", &in.AgencyEmail}, {"agency_phone", &in.AgencyPhone}, {"website", &in.Website}} {
		*t.into = r.String(t.field)
	}
	in.LegalRepresentativeBirthday = r.Day("legal_representative_birthday")
	in.Links = decodeLinks(r)
	in.PartnerTags = partnerTags(r, "partner_tags")
	return in
}

// decodeNetworkPartnerUpdate reads the body of a network partner's
// update.
func decodeNetworkPartnerUpdate(doc drf.Object) network.PartnerUpdate {
	var in network.PartnerUpdate
	r := drf.New(doc, &in.Refusals)
	in.MarketplaceUUID = r.UUID("marketplace_uuid")
	in.SourceID = sourceID(r)
	in.SiretNumber = r.String("siret_number")
	in.Status = r.String("status")
	in.HideFromStats = r.Bool("hide_from_stats")
	in.ThirdPartySalesOnly = r.Bool("third_party_sales_only")
	in.Referrer = r.PK("referrer")
	in.Links = decodeLinks(r)
	return in
}

// decodeUsageInput reads the body of a network voucher's usage; byID: the
// partner is partner_id, else partner_source_id.
func decodeUsageInput(code string, doc drf.Object, byID bool) network.UsageInput {
	in := network.UsageInput{Code: code}
	r := drf.New(doc, &in.Refusals)
	if byID {
		in.ByPartnerID, in.PartnerID = true, r.Int(network.PartnerByID)
	} else {
		in.PartnerSourceID = intText(r, network.PartnerBySourceID)
	}
	in.CreationDate = localTime(r, "creation_date")
	in.Comment = r.Text("comment", domain.MsgString)
	return in
}

// decodeVoucherCancelInput reads the body of a network voucher usage's
// cancel: an optional comment, a string or null.
func decodeVoucherCancelInput(id int64, doc drf.Object) network.CancelUsageInput {
	in := network.CancelUsageInput{ID: id}
	in.Comment = drf.New(doc, &in.Refusals).Text("comment", domain.MsgString)
	return in
}
