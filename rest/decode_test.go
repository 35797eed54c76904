package rest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
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

// TestBodiesMustBeText: a body's string with a NUL, bytes that are not
// UTF-8 or an escaped lone surrogate is refused, JSON or form, where the
// decoder would have passed it on (a NUL) or read U+FFFD instead.
func TestBodiesMustBeText(t *testing.T) {
	const form = "application/x-www-form-urlencoded"
	for _, c := range []struct{ contentType, body, want string }{
		{"application/json", `{"code": "A\u0000", "n": 1}`, `{"code":["Null characters are not allowed."]}`},
		{"application/json", `{"a": {"b": ["x", "\u0000"]}}`, `{"a":{"b":["Null characters are not allowed."]}}`},
		{"application/json", `{"a\u0000": 1}`, `{"a\u0000":["Null characters are not allowed."]}`},
		{"application/json", "{\"code\": \"\xff\"}", `{"detail":"JSON parse error - Enter text in valid UTF-8."}`},
		{"application/json", "{\"code\": \"\xc0\x80\"}", `{"detail":"JSON parse error - Enter text in valid UTF-8."}`},
		{"application/json", "{\"code\": \"\xed\xa0\x80\"}", `{"detail":"JSON parse error - Enter text in valid UTF-8."}`},
		{"application/json", `{"code": "\ud800"}`, `{"detail":"JSON parse error - Enter text in valid UTF-8."}`},
		{form, "code=A%00", `{"code":["Null characters are not allowed."]}`},
		{form, "code=%FF", `{"code":["Enter text in valid UTF-8."]}`},
		{form, "code=%ED%A0%80", `{"code":["Enter text in valid UTF-8."]}`},
		{"multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"code\"\r\n\r\nA\x00\r\n--x--\r\n",
			`{"code":["Null characters are not allowed."]}`},
	} {
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(c.body))
		r.Header.Set("Content-Type", c.contentType)
		w := httptest.NewRecorder()
		if _, ok := decodeFlat(w, r); ok || w.Code != http.StatusBadRequest || strings.TrimSpace(w.Body.String()) != c.want {
			t.Errorf("%s %q: ok %v, %d %s; want 400 %s", c.contentType, c.body, ok, w.Code, w.Body, c.want)
		}
	}
	for _, body := range []string{`{"code": "\ud83d\ude00 été", "b": ["\\u0000"]}`, `{"code": "a\\ud800"}`} {
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		if _, ok := decodeFlat(httptest.NewRecorder(), r); !ok {
			t.Errorf("%s refused", body)
		}
	}
}
