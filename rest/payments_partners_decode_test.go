package rest

import (
	"testing"

	"salesplatform/domain"
)

// A payment-hub partner's body with values of the wrong type: each is
// refused with DRF's message, the others read.
func TestDecodePaymentPartnerRefusals(t *testing.T) {
	in := decodePaymentPartner(body(t, `{"status": "a", "freeze_payout": "maybe",
		"legal_representative_birthday": "17/05/1980", "referrer": "x", "hq_postal_code": 74000}`))
	wantRefusals(t, "create", in.Refusals, map[string]string{
		"freeze_payout":                 "Must be a valid boolean.",
		"legal_representative_birthday": domain.MsgDayFormat,
		"referrer":                      "Incorrect type. Expected pk value, received str.",
	})
	if in.Status.Value != "a" || in.HQPostalCode.Value != "74000" || in.FreezePayout.Set || in.Referrer.Set {
		t.Errorf("create read as %+v", in)
	}
	up := decodePaymentPartnerUpdate(body(t, `{"hide_from_stats": 2, "referrer": null, "legal_representative_birthday": "1980-05-17T23:30:00-02:00"}`))
	wantRefusals(t, "update", up.Refusals, map[string]string{"hide_from_stats": "Must be a valid boolean."})
	if !up.Referrer.Null || up.LegalRepresentativeBirthday.Value.Format("2006-01-02") != "1980-05-17" {
		t.Errorf("update read as %+v", up)
	}
}
