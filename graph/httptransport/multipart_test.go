package httptransport_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"salesplatform/domain"
	"salesplatform/domain/media"
	"salesplatform/domain/services"
	"salesplatform/graph"
	"salesplatform/graph/httptransport"
)

const uploadQuery = `mutation($input: UploadMediaInput!) { uploadMedia(input: $input) { media { id } userErrors { field code message } } }`

// part is one multipart field: a value, or a file when filename is set.
type part struct{ name, filename, value string }

func multipartRequest(t *testing.T, parts []part, headers ...string) *http.Request {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, p := range parts {
		var err error
		if p.filename != "" {
			var fw interface{ Write([]byte) (int, error) }
			fw, err = mw.CreateFormFile(p.name, p.filename)
			if err == nil {
				_, err = fw.Write([]byte(p.value))
			}
		} else {
			err = mw.WriteField(p.name, p.value)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodPost, "/graphql", &body)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	// A staff caller: uploadMedia then checks the file before anything
	// touches a store, which these tests have none of.
	staff := &domain.Caller{User: &domain.User{IsStaff: true}}
	return r.WithContext(domain.WithCaller(context.Background(), staff))
}

func pngBytes(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// noDatabase is the media service's unit of work in these transport tests:
// no stores, as the uploads they send are refused before any is needed.
type noDatabase struct{}

func (noDatabase) Stores() media.Stores { return media.Stores{} }

func (noDatabase) RunInTx(context.Context, func(context.Context, media.Stores) error) error {
	return errors.New("no database in these tests")
}

func uploadServer(mp httptransport.MultipartForm) http.Handler {
	media := media.NewMediaService(noDatabase{}, nil, "http://example.test")
	return newUploadServer(httptransport.POST{}, mp, &graph.Resolver{Services: services.Services{MediaLibrary: media}})
}

func operations(vars string) part {
	return part{name: "operations", value: fmt.Sprintf(`{"query": %q, "variables": %s}`, uploadQuery, vars)}
}

const uploadVars = `{"input": {"name": "Logo", "file": null}}`

func TestMultipartUpload(t *testing.T) {
	h := uploadServer(httptransport.MultipartForm{})
	preflight := []string{"GraphQL-Require-Preflight", "1"}

	// The file reaches the resolver: text is refused as an image...
	res := do(t, h, multipartRequest(t, []part{operations(uploadVars), {name: "map", value: `{"0": ["variables.input.file"]}`},
		{name: "0", filename: "a.png", value: "not an image"}}, preflight...))
	res.expect(t, http.StatusOK, jsonType)
	wantJSONBody(t, res.raw, `{"data":{"uploadMedia":{"media":null,"userErrors":[{"field":["file"],"code":"invalid","message":"Upload a valid image. The file you uploaded was either not an image or a corrupted image."}]}}}`)

	// ...and a PNG passes the image check (staff must then name the partner).
	res = do(t, h, multipartRequest(t, []part{operations(uploadVars), {name: "map", value: `{"0": ["variables.input.file"]}`},
		{name: "0", filename: "a.txt", value: pngBytes(t)}}, "Apollo-Require-Preflight", "true"))
	res.expect(t, http.StatusOK, jsonType)
	wantJSONBody(t, res.raw, `{"data":{"uploadMedia":{"media":null,"userErrors":[{"field":["partnerId"],"code":"required","message":"This field is required: staff name the partner the record belongs to."}]}}}`)
}

func TestMultipartRefusals(t *testing.T) {
	file := part{name: "0", filename: "a.png", value: "x"}
	okMap := part{name: "map", value: `{"0": ["variables.input.file"]}`}
	preflight := []string{"GraphQL-Require-Preflight", "1"}
	tests := []struct {
		name    string
		mp      httptransport.MultipartForm
		parts   []part
		headers []string
		status  int
		code    string
	}{
		{"no preflight header", httptransport.MultipartForm{}, []part{operations(uploadVars), okMap, file}, nil,
			http.StatusBadRequest, httptransport.CodePreflightRequired},
		{"body too large", httptransport.MultipartForm{MaxBodyBytes: 100}, []part{operations(uploadVars), okMap, file}, preflight,
			http.StatusRequestEntityTooLarge, httptransport.CodeRequestTooLarge},
		{"two files", httptransport.MultipartForm{}, []part{operations(uploadVars), {name: "map", value: `{"0": ["variables.input.file"], "1": ["variables.input.name"]}`}, file, {name: "1", filename: "b", value: "y"}}, preflight,
			http.StatusRequestEntityTooLarge, httptransport.CodeRequestTooLarge},
		{"operations past a POST body's limit", httptransport.MultipartForm{},
			[]part{{name: "operations", value: operations(uploadVars).value + strings.Repeat(" ", int(httptransport.DefaultMaxBodyBytes))}, okMap, file}, preflight,
			http.StatusBadRequest, httptransport.CodeBadRequest},
		{"a map past 64 KiB", httptransport.MultipartForm{},
			[]part{operations(uploadVars), {name: "map", value: `{"0": ["variables.input.file"]}` + strings.Repeat(" ", 64<<10)}, file}, preflight,
			http.StatusBadRequest, httptransport.CodeBadRequest},
		{"no operations", httptransport.MultipartForm{}, []part{okMap, file}, preflight,
			http.StatusBadRequest, httptransport.CodeBadRequest},
		{"batched operations", httptransport.MultipartForm{}, []part{{name: "operations", value: `[{"query": "{__typename}"}]`}, okMap, file}, preflight,
			http.StatusBadRequest, httptransport.CodeBadRequest},
		{"no map", httptransport.MultipartForm{}, []part{operations(uploadVars), file}, preflight,
			http.StatusBadRequest, httptransport.CodeBadRequest},
		{"map not an object", httptransport.MultipartForm{}, []part{operations(uploadVars), {name: "map", value: `["0"]`}, file}, preflight,
			http.StatusBadRequest, httptransport.CodeBadRequest},
		{"path outside variables", httptransport.MultipartForm{}, []part{operations(uploadVars), {name: "map", value: `{"0": ["query"]}`}, file}, preflight,
			http.StatusBadRequest, httptransport.CodeBadRequest},
		{"path to a missing variable", httptransport.MultipartForm{}, []part{operations(uploadVars), {name: "map", value: `{"0": ["variables.input.image"]}`}, file}, preflight,
			http.StatusBadRequest, httptransport.CodeBadRequest},
		{"path to a non-null value", httptransport.MultipartForm{}, []part{operations(uploadVars), {name: "map", value: `{"0": ["variables.input.name"]}`}, file}, preflight,
			http.StatusBadRequest, httptransport.CodeBadRequest},
		{"mapped file missing", httptransport.MultipartForm{}, []part{operations(uploadVars), okMap}, preflight,
			http.StatusBadRequest, httptransport.CodeBadRequest},
		{"file not in the map", httptransport.MultipartForm{}, []part{operations(uploadVars), {name: "map", value: `{}`}, file}, preflight,
			http.StatusBadRequest, httptransport.CodeBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, uploadServer(tt.mp), multipartRequest(t, tt.parts, tt.headers...))
			res.expect(t, tt.status, jsonType)
			if _, has := res.body["data"]; has {
				t.Errorf("a request error has a data key: %s", res.raw)
			}
			errs, _ := res.body["errors"].([]any)
			if len(errs) != 1 {
				t.Fatalf("errors = %s", res.raw)
			}
			if code := errs[0].(map[string]any)["extensions"].(map[string]any)["code"]; code != tt.code {
				t.Errorf("code = %v, want %s (%s)", code, tt.code, res.raw)
			}
		})
	}
}

// A multipart body without the upload transport is still refused by POST,
// and a JSON POST is still served by POST with the upload transport there.
func TestMultipartLeavesJSONToPOST(t *testing.T) {
	h := uploadServer(httptransport.MultipartForm{})
	res := do(t, h, post(`{"query": "{ __typename }"}`, "application/json", ""))
	res.expect(t, http.StatusOK, jsonType)
	wantJSONBody(t, res.raw, `{"data":{"__typename":"Query"}}`)

	plain := newUploadServer(httptransport.POST{}, httptransport.MultipartForm{}, nil)
	r := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader("--x--\r\n"))
	r.Header.Set("Content-Type", "text/plain")
	do(t, plain, r).expect(t, http.StatusUnsupportedMediaType, jsonType)
}

func wantJSONBody(t *testing.T, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("body = %s\nwant   %s", got, want)
	}
}
