package rest

import (
	"bytes"
	"encoding/json"
	"testing"

	"salesplatform/domain"
)

// decodeJSONObject decodes a test body as the handlers do (numbers kept).
func decodeJSONObject(t *testing.T, body string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(body)))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// refusals maps the refusals of an input by path.
func refusals(r domain.Refusals) map[string]string {
	got := map[string]string{}
	for _, f := range r.Fields {
		got[domain.PathKey(f.Path)] = f.Message
	}
	return got
}

// A contact request's values of the wrong JSON type are refused with DRF's
// messages; numbers are texts, booleans are not (DRF's CharField).
func TestDecodeContactRequestInputRefusals(t *testing.T) {
	in := decodeContactRequestInput(decodeJSONObject(t,
		`{"gift_code": ["V1"], "full_name": {}, "email": 12, "message": true, "partner": 5, "phone_number": []}`))
	want := map[string]string{"gift_code": "Not a valid string.", "full_name": "Not a valid string.",
		"partner": "Must be a valid UUID.", "phone_number": "Not a valid string.", "message": "Not a valid string."}
	if got := refusals(in.Refusals); len(got) != len(want) {
		t.Errorf("refusals %v, want %v", got, want)
	} else {
		for k, msg := range want {
			if got[k] != msg {
				t.Errorf("%s: %q, want %q", k, got[k], msg)
			}
		}
	}
	if in.Email.Value != "12" || in.Message.Set {
		t.Errorf("texts %+v %+v", in.Email, in.Message)
	}
}
