package network_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/network"
)

// The tests write their partner inputs as the bodies they stand for; these
// map such a body, of well-typed values, onto the service's input (the
// surfaces' decoders refuse the others: rest/network_decode_test.go).

// text is a body's text field: strings, and numbers and booleans as text.
func text(t *testing.T, d map[string]any, field string) domain.Optional[string] {
	t.Helper()
	v, ok := d[field]
	switch x := v.(type) {
	case nil:
		if ok {
			return domain.Null[string]()
		}
		return domain.Optional[string]{}
	case string:
		return domain.Some(x)
	case json.Number, bool, int, int64:
		return domain.Some(fmt.Sprint(x))
	}
	t.Fatalf("%s: %T is no text", field, v)
	return domain.Optional[string]{}
}

func flag(t *testing.T, d map[string]any, field string) domain.Optional[bool] {
	t.Helper()
	switch v, ok := d[field]; {
	case !ok:
		return domain.Optional[bool]{}
	case v == nil:
		return domain.Null[bool]()
	default:
		b, err := strconv.ParseBool(fmt.Sprint(v))
		if err != nil {
			t.Fatalf("%s: %v is no boolean", field, v)
		}
		return domain.Some(b)
	}
}

func marketplaceOf(t *testing.T, d map[string]any) domain.Optional[uuid.UUID] {
	t.Helper()
	if s := text(t, d, "marketplace_uuid"); s.Set {
		return domain.Some(uuid.MustParse(s.Value))
	}
	return domain.Optional[uuid.UUID]{}
}

func links(t *testing.T, d map[string]any) network.Links {
	t.Helper()
	return network.Links{LinkToNVSettings: flag(t, d, "link_to_nv_settings"), LinkToNGCSettings: flag(t, d, "link_to_ngc_settings")}
}

// npInput is the creation a body stands for.
func npInput(t *testing.T, d map[string]any) network.PartnerInput {
	t.Helper()
	s := func(f string) domain.Optional[string] { return text(t, d, f) }
	in := network.PartnerInput{MarketplaceUUID: marketplaceOf(t, d), SourceID: s("source_id"), Name: s("name"),
		CommercialName: s("commercial_name"), ShortName: s("short_name"), CompanyType: s("company_type"),
		SiretNumber: s("siret_number"), LegalRepresentativeFirstName: s("legal_representative_first_name"),
		LegalRepresentativeLastName: s("legal_representative_last_name"), HQAddressLine1: s("hq_address_line_1"),
		HQAddressLine2: s("hq_address_line_2"), HQPostalCode: s("hq_postal_code"), HQCity: s("hq_city"),
		HQCountry: s("hq_country"), RCS: s("rcs"), APE: s("ape"), VATID: s("vat_id"), AgencyEmail: s("agency_email"),
		AgencyPhone: s("agency_phone"), Website: s("website"), Links: links(t, d)}
	if b := s("legal_representative_birthday"); b.Set {
		day, err := time.Parse(time.DateOnly, b.Value)
		if err != nil {
			t.Fatal(err)
		}
		in.LegalRepresentativeBirthday = domain.Some(day)
	}
	if v, ok := d["partner_tags"]; ok {
		list := v.([]any)
		tags := make([]network.TagInput, len(list))
		for i, e := range list {
			if obj, isObj := e.(map[string]any); isObj {
				tags[i].Tag = text(t, obj, "tag")
			}
		}
		in.PartnerTags = domain.Some(tags)
	}
	return in
}

// npUpdate is the update a body stands for.
func npUpdate(t *testing.T, d map[string]any) network.PartnerUpdate {
	t.Helper()
	in := network.PartnerUpdate{MarketplaceUUID: marketplaceOf(t, d), SourceID: text(t, d, "source_id"),
		SiretNumber: text(t, d, "siret_number"), Status: text(t, d, "status"), HideFromStats: flag(t, d, "hide_from_stats"),
		ThirdPartySalesOnly: flag(t, d, "third_party_sales_only"), Links: links(t, d)}
	switch v, ok := d["referrer"]; {
	case ok && v == nil:
		in.Referrer = domain.Null[int64]()
	case ok:
		n, isInt := domain.AsInt(v)
		if !isInt {
			t.Fatalf("referrer: %v", v)
		}
		in.Referrer = domain.Some(n)
	}
	return in
}
