package e2e

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"strings"
	"testing"
)

func pngEncode(b *bytes.Buffer) error {
	return png.Encode(b, image.NewRGBA(image.Rect(0, 0, 3, 2)))
}

type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// CheckContract refuses what the document does not say, and lets through
// what it does and the paths it does not describe.
func TestCheckContract(t *testing.T) {
	t.Parallel()
	theme := `{"id": 1, "name": {"fr": "Mer", "en": null, "es": null, "it": null, "de": null, "nl": null, "ca": null, "pt": null}}`
	jsonCT := http.Header{"Content-Type": {"application/json"}}
	for _, tc := range []struct {
		name, method, path string
		status             int
		header             http.Header
		body               string
		wantError          string
	}{
		{"Valid", "GET", "/api/v2/themes/", 200, jsonCT, "[" + theme + "]", ""},
		{"WithoutSlash", "GET", "/api/v2/themes", 200, jsonCT, "[" + theme + "]", ""},
		{"Head", "HEAD", "/api/v2/themes/", 200, jsonCT, "", ""},
		{"DetailError", "GET", "/api/v2/themes/", 400, jsonCT, `{"detail": "Invalid page."}`, ""},
		{"FieldErrors", "POST", "/api/v2/ecommerce/cart/", 400, jsonCT, `{"items": [{}, {"quantity": ["A valid integer is required."]}]}`, ""},
		{"NotDocumentedPath", "POST", "/graphql", 200, jsonCT, `{"data": {}}`, ""},
		{"UnknownMethod405", "DELETE", "/api/v2/themes/", 405, jsonCT, `{"detail": "Method \"DELETE\" not allowed."}`, ""},
		{"ExtraField", "GET", "/api/v2/themes/", 200, jsonCT, `[{"id": 1, "name": null, "colour": "blue"}]`, "does not match"},
		{"WrongType", "GET", "/api/v2/themes/", 200, jsonCT, `[{"id": "1", "name": {}}]`, "does not match"},
		{"UndocumentedStatus", "GET", "/api/v2/themes/", 418, jsonCT, `{"detail": "teapot"}`, "status is not supported"},
		{"UndocumentedMediaType", "GET", "/ecommerce/shop/customization/", 200, http.Header{"Content-Type": {"text/plain"}}, "hi", "does not document"},
		{"UndocumentedMethod", "PUT", "/api/v2/themes/", 200, jsonCT, `{}`, "has no PUT operation"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, "http://api.test"+tc.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			rec := &recorder{TB: t}
			CheckContract(rec, req, tc.status, tc.header, []byte(tc.body))
			switch {
			case tc.wantError == "" && len(rec.errors) > 0:
				t.Errorf("unexpected errors: %q", rec.errors)
			case tc.wantError != "" && (len(rec.errors) != 1 || !strings.Contains(rec.errors[0], tc.wantError)):
				t.Errorf("errors = %q, want one with %q", rec.errors, tc.wantError)
			}
		})
	}
}
