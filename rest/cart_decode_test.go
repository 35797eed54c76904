package rest

import (
	"testing"
)

// A cart body's values of the wrong JSON type are refused with DRF's
// messages at their nested paths.
func TestDecodeCartSaveRefusals(t *testing.T) {
	cases := map[string]struct {
		body any
		want map[string]string
	}{
		"not an object":       {[]any{}, map[string]string{"non_field_errors": "Invalid data. Expected a dictionary, but got list."}},
		"items not a list":    {`{"items": {"a": 1}}`, map[string]string{"items": `Expected a list of items but got type "dict".`}},
		"item not an object":  {`{"items": ["x"]}`, map[string]string{"items.0.non_field_errors": "Invalid data. Expected a dictionary, but got str."}},
		"product_id text":     {`{"items": [{"product_id": "abc", "quantity": 1}]}`, map[string]string{"items.0.product_id": "A valid integer is required."}},
		"quantity fraction":   {`{"items": [{"product_id": 1, "quantity": 1.5}]}`, map[string]string{"items.0.quantity": "A valid integer is required."}},
		"quantity boolean":    {`{"items": [{"product_id": 1, "quantity": true}]}`, map[string]string{"items.0.quantity": "A valid integer is required."}},
		"variant_id text":     {`{"items": [{"product_id": 1, "quantity": 1, "variant_id": "v"}]}`, map[string]string{"items.0.variant_id": "A valid integer is required."}},
		"attributes a list":   {`{"items": [{"product_id": 1, "quantity": 1, "attribute_values": ["red"]}]}`, map[string]string{"items.0.attribute_values": `Expected a dictionary of items but got type "list".`}},
		"attributes a string": {`{"items": [{"product_id": 1, "quantity": 1, "attribute_values": "red"}]}`, map[string]string{"items.0.attribute_values": `Expected a dictionary of items but got type "str".`}},
		"attribute value int": {`{"items": [{"product_id": 1, "quantity": 1, "attribute_values": {"12": 5, "x": 5}}]}`, map[string]string{"items.0.attribute_values.12": "Not a valid string."}},
		"id not a uuid":       {`{"id": "42", "items": []}`, map[string]string{"id": "Must be a valid UUID."}},
		"id a number":         {`{"id": 42, "items": []}`, map[string]string{"id": "Must be a valid UUID."}},
		"return_url number":   {`{"items": [], "return_url": 5}`, map[string]string{"return_url": "Not a valid string."}},
		"numbers as text":     {`{"items": [{"product_id": "8", "quantity": 1}], "id": null}`, map[string]string{}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			body := c.body
			if s, ok := body.(string); ok {
				body = decodeJSONObject(t, s)
			}
			got := refusals(decodeCartSave(body, "").Refusals)
			if len(got) != len(c.want) {
				t.Errorf("refusals %v, want %v", got, c.want)
			}
			for k, msg := range c.want {
				if got[k] != msg {
					t.Errorf("%s: %q, want %q", k, got[k], msg)
				}
			}
		})
	}
}
