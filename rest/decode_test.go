package rest

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
)

// writeJSON (github.com/goccy/go-json) writes the bytes encoding/json
// writes, for the shapes the legacy records are made of: maps (keys
// sorted), struct fields in order, HTML characters escaped, exact
// numbers, times, nulls and the localized texts.
func TestWriteJSONAsEncodingJSON(t *testing.T) {
	when := time.Date(2026, 11, 24, 10, 30, 0, 123000000, time.FixedZone("", 3600))
	price := json.Number(decimal.RequireFromString("12.50").String())
	type record struct {
		ID       int64             `json:"id"`
		Name     jsonLocalized     `json:"name"`
		Missing  jsonLocalized     `json:"missing"`
		Price    *json.Number      `json:"price"`
		When     time.Time         `json:"when"`
		Links    map[string]string `json:"links"`
		Optional *string           `json:"optional,omitempty"`
	}
	for _, v := range []any{
		map[string]any{"z": 1, "a": "<b>&</b>", "m": nil, "n": price, "nested": map[string]any{"y": []any{}, "b": true},
			"name_fr": "Château\u2028", "when": when.Format(time.RFC3339Nano)},
		record{ID: 7, Name: toJSONLocalized(domain.Localized{"fr": "Été <"}), Price: &price, When: when,
			Links: map[string]string{"instagram": "https://x.example/?a=1&b=2", "facebook": ""}},
		[]any{record{}, map[string]any{}},
	} {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		writeJSON(rec, 200, v)
		if got := bytes.TrimSuffix(rec.Body.Bytes(), []byte("\n")); !bytes.Equal(got, want) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}
