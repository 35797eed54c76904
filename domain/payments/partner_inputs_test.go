package payments_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"salesplatform/domain"
	"salesplatform/domain/payments"
)

// The tests write a partner's creation and change as the bodies they stand
// for; these map such a body, of well-typed values, onto the service's
// input (REST's decoder refuses the others:
// rest/payments_partners_decode_test.go).

func bodyText(t testing.TB, d map[string]any, field string) domain.Optional[string] {
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
	case json.Number, bool:
		return domain.Some(fmt.Sprint(x))
	}
	t.Fatalf("%s: %T is no text", field, v)
	return domain.Optional[string]{}
}

func bodyFlag(t testing.TB, d map[string]any, field string) domain.Optional[bool] {
	t.Helper()
	s := bodyText(t, d, field)
	if !s.Set || s.Null {
		return domain.Optional[bool]{Set: s.Set, Null: s.Null}
	}
	b, err := strconv.ParseBool(s.Value)
	if err != nil {
		t.Fatalf("%s: %q is no boolean", field, s.Value)
	}
	return domain.Some(b)
}

func bodyID(t testing.TB, d map[string]any, field string) domain.Optional[int64] {
	t.Helper()
	s := bodyText(t, d, field)
	if !s.Set || s.Null {
		return domain.Optional[int64]{Set: s.Set, Null: s.Null}
	}
	n, err := strconv.ParseInt(s.Value, 10, 64)
	if err != nil {
		t.Fatalf("%s: %q is no id", field, s.Value)
	}
	return domain.Some(n)
}

func bodyDay(t testing.TB, d map[string]any, field string) domain.Optional[time.Time] {
	t.Helper()
	s := bodyText(t, d, field)
	if !s.Set || s.Null {
		return domain.Optional[time.Time]{Set: s.Set, Null: s.Null}
	}
	day, err := time.Parse(time.DateOnly, s.Value)
	if err != nil { // a date-time: its date in its own offset
		at, err := time.Parse(time.RFC3339, s.Value)
		if err != nil {
			t.Fatalf("%s: %q is no day", field, s.Value)
		}
		day = time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC)
	}
	return domain.Some(day)
}

// partnerInput is the creation body d as the service's input.
func partnerInput(t testing.TB, d map[string]any) payments.PartnerInput {
	t.Helper()
	s := func(field string) domain.Optional[string] { return bodyText(t, d, field) }
	b := func(field string) domain.Optional[bool] { return bodyFlag(t, d, field) }
	return payments.PartnerInput{Status: s("status"), CommercialName: s("commercial_name"), Name: s("name"),
		ShortName: s("short_name"), CompanyType: s("company_type"), SiretNumber: s("siret_number"),
		LegalRepresentativeFirstName: s("legal_representative_first_name"),
		LegalRepresentativeLastName:  s("legal_representative_last_name"),
		LegalRepresentativeBirthday:  bodyDay(t, d, "legal_representative_birthday"),
		LegalRepresentativeEmail:     s("legal_representative_email"), AgencyEmail: s("agency_email"),
		AgencyPhone: s("agency_phone"), Website: s("website"), HQAddressLine1: s("hq_address_line_1"),
		HQAddressLine2: s("hq_address_line_2"), HQPostalCode: s("hq_postal_code"), HQCity: s("hq_city"),
		HQCountry: s("hq_country"), RCS: s("rcs"), APE: s("ape"), VATID: s("vat_id"),
		PayoutFrequency: s("payout_frequency"), IBAN: s("iban"), BIC: s("bic"),
		AutoValidatePayout: b("auto_validate_payout"), FreezePayout: b("freeze_payout"),
		BlockPayoutValidation: b("block_payout_validation"), HideFromStats: b("hide_from_stats"),
		ThirdPartySalesOnly: b("third_party_sales_only"), Referrer: bodyID(t, d, "referrer")}
}

// partnerUpdate is the change body (JSON) as the service's input.
func partnerUpdate(t testing.TB, body string) payments.PartnerUpdate {
	t.Helper()
	d := jsonDoc(t, body)
	s := func(field string) domain.Optional[string] { return bodyText(t, d, field) }
	b := func(field string) domain.Optional[bool] { return bodyFlag(t, d, field) }
	return payments.PartnerUpdate{LegalRepresentativeBirthday: bodyDay(t, d, "legal_representative_birthday"),
		LegalRepresentativeEmail: s("legal_representative_email"), Status: s("status"), Reason: s("reason"),
		BlockPayoutValidation: b("block_payout_validation"), HideFromStats: b("hide_from_stats"),
		ThirdPartySalesOnly: b("third_party_sales_only"), Referrer: bodyID(t, d, "referrer")}
}

func jsonDoc(t testing.TB, body string) map[string]any {
	t.Helper()
	var d map[string]any
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&d); err != nil {
		t.Fatal(err)
	}
	return d
}
