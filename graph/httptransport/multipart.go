package httptransport

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
)

// Defaults of MultipartForm.
const (
	DefaultMaxUploadBodyBytes int64 = 16 << 20
	DefaultMaxUploadMemory    int64 = 1 << 20
	DefaultMaxUploadFiles           = 1
)

// CodePreflightRequired is the extensions.code of a multipart request
// without a preflight header.
const CodePreflightRequired = "PREFLIGHT_REQUIRED"

// PreflightHeaders are the request headers of which a multipart request
// must carry one (any value). A browser sends a cross-site form
// (multipart/form-data is a "simple" content type) without a CORS
// preflight, but never with a custom header; requiring one makes a forged
// upload from another site impossible, as Apollo's CSRF prevention does.
var PreflightHeaders = []string{"GraphQL-Require-Preflight", "Apollo-Require-Preflight", "X-Apollo-Operation-Name"}

// MultipartForm serves file uploads as the GraphQL multipart request spec
// (https://github.com/jaydenseric/graphql-multipart-request-spec) says: a
// multipart/form-data POST with the fields "operations" (the JSON body
// POST takes), "map" (a JSON object from each file field's name to the
// variable paths it fills, such as ["variables.input.file"]) and the files.
// Each file reaches the resolvers as a graphql.Upload. Batched operations
// (an array) are not served, as POST does not serve them.
//
// Add it before POST, which answers 415 to any body that is not JSON.
type MultipartForm struct {
	// MaxBodyBytes bounds the whole body (413 past it); zero means
	// DefaultMaxUploadBodyBytes.
	MaxBodyBytes int64
	// MaxMemory is how much of the files is kept in memory, the rest in
	// temporary files removed after the request; zero means
	// DefaultMaxUploadMemory.
	MaxMemory int64
	// MaxFiles bounds the number of files; zero means DefaultMaxUploadFiles.
	MaxFiles int
	// MaxResponseBytes bounds the response body (RESPONSE_TOO_LARGE past
	// it); zero means DefaultMaxResponseBytes.
	MaxResponseBytes int64
}

var _ graphql.Transport = MultipartForm{}

// Supports claims multipart/form-data POST requests.
func (MultipartForm) Supports(r *http.Request) bool {
	if r.Method != http.MethodPost || r.Header.Get("Upgrade") != "" {
		return false
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mt == "multipart/form-data"
}

// Do answers one multipart request.
func (t MultipartForm) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	start := graphql.Now()
	media := startResponse(w, r)
	if media == "" {
		return
	}
	if !hasPreflightHeader(r) {
		writeErrors(w, http.StatusBadRequest, nil, newError(CodePreflightRequired,
			"a multipart request must carry the header "+PreflightHeaders[0]+" (any value), so that no other site can forge it"))
		return
	}
	limit, memory, maxFiles := t.MaxBodyBytes, t.MaxMemory, t.MaxFiles
	if limit <= 0 {
		limit = DefaultMaxUploadBodyBytes
	}
	if memory <= 0 {
		memory = DefaultMaxUploadMemory
	}
	if maxFiles <= 0 {
		maxFiles = DefaultMaxUploadFiles
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	if err := r.ParseMultipartForm(memory); err != nil {
		if tooLarge := (*http.MaxBytesError)(nil); errors.As(err, &tooLarge) {
			writeErrors(w, http.StatusRequestEntityTooLarge, nil, newError(CodeRequestTooLarge,
				"the request body is larger than "+strconv.FormatInt(limit, 10)+" bytes"))
			return
		}
		badRequest(w, "the multipart body could not be parsed")
		return
	}
	form := r.MultipartForm
	defer func() { _ = form.RemoveAll() }()

	operations, ok := oneValue(form, "operations")
	if !ok {
		badRequest(w, `the multipart body must have one "operations" field`)
		return
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal([]byte(operations), &fields) != nil || fields == nil {
		badRequest(w, `the "operations" field must be a JSON object (batched operations are not served)`)
		return
	}
	params, problem := decodeParams(fields["query"], fields["operationName"], fields["variables"], fields["extensions"])
	if problem != "" {
		badRequest(w, problem)
		return
	}
	rawMap, ok := oneValue(form, "map")
	if !ok {
		badRequest(w, `the multipart body must have one "map" field`)
		return
	}
	var fileMap map[string][]string
	if json.Unmarshal([]byte(rawMap), &fileMap) != nil {
		badRequest(w, `the "map" field must be a JSON object of arrays of paths`)
		return
	}
	files := 0
	for _, fhs := range form.File {
		files += len(fhs)
	}
	if files > maxFiles {
		writeErrors(w, http.StatusRequestEntityTooLarge, nil, newError(CodeRequestTooLarge,
			fmt.Sprintf("at most %d files may be sent", maxFiles)))
		return
	}
	for name, fhs := range form.File {
		if _, mapped := fileMap[name]; !mapped || len(fhs) != 1 {
			badRequest(w, fmt.Sprintf("the file field %q is not in the map, or is given more than once", name))
			return
		}
	}
	for name, paths := range fileMap {
		fhs := form.File[name]
		if len(fhs) != 1 || len(paths) == 0 {
			badRequest(w, fmt.Sprintf("the map names %q, which is not one file with at least one path", name))
			return
		}
		for _, path := range paths {
			f, err := fhs[0].Open()
			if err != nil {
				badRequest(w, "could not read the file "+strconv.Quote(name))
				return
			}
			defer f.Close()
			upload := graphql.Upload{File: f, Filename: fhs[0].Filename, Size: fhs[0].Size,
				ContentType: fhs[0].Header.Get("Content-Type")}
			if problem := setVariable(params, path, upload); problem != "" {
				badRequest(w, problem)
				return
			}
		}
	}
	params.Headers = r.Header
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	execute(w, r, exec, media, params, t.MaxResponseBytes, nil)
}

func hasPreflightHeader(r *http.Request) bool {
	for _, h := range PreflightHeaders {
		if r.Header.Get(h) != "" {
			return true
		}
	}
	return false
}

func oneValue(form *multipart.Form, name string) (string, bool) {
	v := form.Value[name]
	if len(v) != 1 {
		return "", false
	}
	return v[0], true
}

// setVariable puts upload at path ("variables.input.file",
// "variables.files.0"), where the operations must hold null.
func setVariable(params *graphql.RawParams, path string, upload graphql.Upload) string {
	bad := fmt.Sprintf("the map path %q does not name a null in the variables", path)
	parts := strings.Split(path, ".")
	if len(parts) < 2 || parts[0] != "variables" || params.Variables == nil {
		return bad
	}
	var parent any = params.Variables
	for i, part := range parts[1:] {
		last := i == len(parts)-2
		switch node := parent.(type) {
		case map[string]any:
			v, ok := node[part]
			if !ok {
				return bad
			}
			if last {
				if v != nil {
					return bad
				}
				node[part] = upload
				return ""
			}
			parent = v
		case []any:
			n, err := strconv.Atoi(part)
			if err != nil || n < 0 || n >= len(node) {
				return bad
			}
			if last {
				if node[n] != nil {
					return bad
				}
				node[n] = upload
				return ""
			}
			parent = node[n]
		default:
			return bad
		}
	}
	return bad
}
