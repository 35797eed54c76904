package rest

import (
	"testing"

	"salesplatform/domain"
	"salesplatform/domain/mpcart"
)

// The refusals of a cart body whose values have the wrong JSON type, with
// DRF's messages at their nested paths; the lines keep their places.
func TestDecodeCartInputRefusals(t *testing.T) {
	uuid := "0b6f8d1e-5b7a-4c3e-9f1a-2d4c6e8a0b1c"
	gc := `{"amount": 30, "quantity": 1, "themed_pdf_id": 1}`
	cases := []struct {
		name string
		body string
		want map[string]string
	}{
		{"bad uuid, null data", `{"partner_uuid": "nope", "data": null}`, map[string]string{"partner_uuid": domain.MsgUUID}},
		{"data a list", `{"partner_uuid": "` + uuid + `", "data": []}`,
			map[string]string{"data": `Expected a dictionary of items but got type "list".`}},
		{"unknown keys", `{"partner_uuid": "` + uuid + `", "data": {"return_url": "x", "network_giftcards": [` + gc + `]}}`,
			map[string]string{"data.return_url": mpcart.MsgUnknownField}},
		{"lists of the wrong type", `{"partner_uuid": "` + uuid + `", "data": {"network_giftcards": "x", "network_vouchers": null}}`,
			map[string]string{"data.network_giftcards": `Expected a list of items but got type "str".`}},
		{"lines that are no objects", `{"partner_uuid": "` + uuid + `", "data": {"network_giftcards": [` + gc + `, "x"], "network_vouchers": [7]}}`,
			map[string]string{"data.network_giftcards.1.non_field_errors": "Invalid data. Expected a dictionary, but got str.",
				"data.network_vouchers.0.non_field_errors": "Invalid data. Expected a dictionary, but got int."}},
		{"bad giftcard fields", `{"partner_uuid": "` + uuid + `", "data": {"network_giftcards": [
			{"amount": "abc", "quantity": 0, "themed_pdf_id": 0, "theme": "x"},
			{"amount": 0, "quantity": 101, "themed_pdf_id": true},
			{"amount": 10.001, "quantity": 1.5, "themed_pdf_id": null},
			{"amount": 1000000.01, "quantity": "many", "themed_pdf_id": 2147483648},
			{"amount": [30], "quantity": null, "themed_pdf_id": "1"}]}}`,
			map[string]string{
				"data.network_giftcards.0.amount":        domain.MsgDecimal,
				"data.network_giftcards.0.theme":         mpcart.MsgUnknownField,
				"data.network_giftcards.1.themed_pdf_id": domain.MsgInteger,
				"data.network_giftcards.2.quantity":      domain.MsgInteger,
				"data.network_giftcards.3.quantity":      domain.MsgInteger,
				"data.network_giftcards.4.amount":        domain.MsgDecimal,
			}},
		{"bad voucher fields", `{"partner_uuid": "` + uuid + `", "data": {"network_vouchers": [
			{"id": "a", "quantity": -1}, {"id": true, "quantity": 1, "box": 1}, {"id": null, "quantity": 1}]}}`,
			map[string]string{
				"data.network_vouchers.0.id":  "Incorrect type. Expected pk value, received str.",
				"data.network_vouchers.1.id":  "Incorrect type. Expected pk value, received bool.",
				"data.network_vouchers.1.box": mpcart.MsgUnknownField,
			}},
		{"numbers as text", `{"partner_uuid": "` + uuid + `", "data": {"network_giftcards": [{"amount": "50.00", "quantity": "1", "themed_pdf_id": 1}],
			"network_vouchers": [{"id": "7", "quantity": 1}]}}`, map[string]string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := decodeCartInput(decodeJSONObject(t, c.body))
			got := refusals(in.Refusals)
			if len(got) != len(c.want) {
				t.Errorf("refusals %v, want %v", got, c.want)
			}
			for k, msg := range c.want {
				if got[k] != msg {
					t.Errorf("%s: %q, want %q", k, got[k], msg)
				}
			}
			if d, ok := in.Data.Get(); ok && c.name == "lines that are no objects" && len(d.Giftcards.Value) != 2 {
				t.Errorf("giftcard lines %d, want 2 (the refused one in its place)", len(d.Giftcards.Value))
			}
		})
	}
}
