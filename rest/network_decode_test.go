package rest

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"salesplatform/domain"
	"salesplatform/rest/drf"
)

// body decodes a JSON body as the handlers do (numbers as json.Number).
func body(t *testing.T, s string) drf.Object {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var doc drf.Object
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// wantRefusals fails unless r holds exactly want, by dotted path.
func wantRefusals(t *testing.T, what string, r domain.Refusals, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	for _, f := range r.Fields {
		var b bytes.Buffer
		for i, p := range f.Path {
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(strings.Trim(string(must(json.Marshal(p))), `"`))
		}
		got[b.String()] = f.Message
	}
	if len(got) != len(want) {
		t.Errorf("%s: refusals %v, want %v", what, got, want)
		return
	}
	for k, m := range want {
		if got[k] != m {
			t.Errorf("%s: refusals %v, want %v", what, got, want)
			return
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// The network partners' decoders refuse values of the wrong type with
// DRF's messages; the service's rules are the domain's tests'.
func TestDecodeNetworkPartner(t *testing.T) {
	for _, c := range []struct {
		body string
		want map[string]string
	}{
		{`{"legal_representative_birthday": "17/05/1980"}`, map[string]string{"legal_representative_birthday": domain.MsgDayFormat}},
		{`{"link_to_nv_settings": "perhaps"}`, map[string]string{"link_to_nv_settings": "Must be a valid boolean."}},
		{`{"partner_tags": "spa"}`, map[string]string{"partner_tags": `Expected a list of items but got type "str".`}},
		{`{"partner_tags": [{"tag": "ok"}, "spa", {"tag": ""}]}`,
			map[string]string{"partner_tags.1.non_field_errors": "Invalid data. Expected a dictionary, but got str."}},
		{`{"marketplace_uuid": "rival"}`, map[string]string{"marketplace_uuid": domain.MsgUUID}},
		{`{"source_id": ["7"]}`, map[string]string{"source_id": "Enter a whole number from 1 to 9223372036854775807."}},
		{`{"name": "Spa", "source_id": "7", "partner_tags": [{"tag": "spa"}]}`, map[string]string{}},
	} {
		in := decodeNetworkPartnerInput(body(t, c.body))
		wantRefusals(t, c.body, in.Refusals, c.want)
	}
	for _, c := range []struct {
		body string
		want map[string]string
	}{
		{`{"source_id": "100", "hide_from_stats": "sometimes"}`, map[string]string{"hide_from_stats": "Must be a valid boolean."}},
		{`{"source_id": "100", "referrer": "x"}`, map[string]string{"referrer": "Incorrect type. Expected pk value, received str."}},
		{`{"source_id": 100, "referrer": null}`, map[string]string{}},
	} {
		in := decodeNetworkPartnerUpdate(body(t, c.body))
		wantRefusals(t, c.body, in.Refusals, c.want)
	}
}

// The network vouchers' and giftcards' decoders: dates, numbers and
// strict texts.
func TestDecodeNetworkUses(t *testing.T) {
	u := decodeUsageInput("NV", body(t, `{"partner_source_id": 42, "creation_date": "24/11/2026"}`), false)
	wantRefusals(t, "a bad date", u.Refusals, map[string]string{"creation_date": "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z], YYYY-MM-DD."})
	if u.PartnerSourceID.Value != "42" {
		t.Errorf("source id %+v", u.PartnerSourceID)
	}
	u = decodeUsageInput("NV", body(t, `{"partner_id": true, "creation_date": "2026-11-24"}`), true)
	wantRefusals(t, "a boolean partner", u.Refusals, map[string]string{"partner_id": domain.MsgInteger})
	c := decodeVoucherCancelInput(1, body(t, `{"comment": 7}`))
	wantRefusals(t, "a number as comment", c.Refusals, map[string]string{"comment": domain.MsgString})
	c = decodeVoucherCancelInput(1, body(t, `{"comment": null}`))
	wantRefusals(t, "a null comment", c.Refusals, map[string]string{})

	g := decodeGiftcardInput(body(t, `{"value": "ten", "gifter": [], "giftee": {"first_name": {}}}`))
	wantRefusals(t, "a card", g.Refusals, map[string]string{"value": domain.MsgDecimal,
		"gifter": `Expected a dictionary of items but got type "list".`, "giftee.first_name": domain.MsgString})
	h := decodeHoldInput("NGC", body(t, `{"partner_source_id": 1, "partner_id": "x", "amount": 1, "reservation_id": "R"}`))
	if !h.PartnerSourceID.Set || !h.PartnerID.Set || len(h.Refusals.Fields) != 0 {
		t.Errorf("both partners: %+v", h)
	}
	a := decodeAdjustInput("NGC", body(t, `{"amount": "1e15", "reason": "x"}`))
	if v, ok := a.Amount.Get(); !ok || v.String() != "1000000000000000" {
		t.Errorf("adjust amount %+v", a.Amount)
	}
	a = decodeAdjustInput("NGC", body(t, `{"amount": "1e101"}`))
	wantRefusals(t, "an amount past the exponent's bound", a.Refusals, map[string]string{"amount": domain.MsgDecimal})
}
