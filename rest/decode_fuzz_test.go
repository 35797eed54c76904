package rest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzDecodeFlat feeds request bodies of any content type to the body
// decoder every write route uses: it either gives a document whose keys and
// strings are all text (domain.TextProblem) or answers a 4xx itself, and
// never panics.
func FuzzDecodeFlat(f *testing.F) {
	for _, seed := range [][2]string{
		{"application/json", `{"a": 1, "b": [1e400, "x", null]}`},
		{"application/json", "[[[[[["},
		{"application/json", `{"a": 99999999999999999999999999}`},
		{"application/json; charset=utf-8", "\xff"},
		{"application/json", `{"code": "\u0000", "a": ["\ud800"]}`},
		{"application/json", "{\"code\": \"\xc0\x80\xed\xa0\x80\"}"},
		{"application/x-www-form-urlencoded", "code=%00&b=%FF&c=%C0%80&d=%ED%A0%80"},
		{"application/x-www-form-urlencoded", "a=%zz&b=1"},
		{"multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--x--\r\n"},
		{"text/plain", "hi"},
		{"", ""},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, contentType, body string) {
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		r.Header.Set("Content-Type", contentType)
		w := httptest.NewRecorder()
		doc, ok := decodeFlat(w, r)
		switch {
		case ok && doc == nil:
			t.Fatalf("ok without a document for %q %q", contentType, body)
		case !ok && (w.Code < 400 || w.Code > 499):
			t.Fatalf("refused with %d for %q %q", w.Code, contentType, body)
		case ok && textError(map[string]any(doc)) != nil:
			t.Fatalf("a value that is not text passed for %q %q: %v", contentType, body, doc)
		}
	})
}
