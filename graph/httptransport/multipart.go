package httptransport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"salesplatform/rest/upload"
)

// Defaults of MultipartForm.
const (
	DefaultMaxUploadBodyBytes int64 = 16 << 20
	DefaultMaxUploadFiles           = 1
)

// CodeInternal is the extensions.code of an upload the server could not
// keep.
const CodeInternal = "INTERNAL_SERVER_ERROR"

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
// The body is read as it streams: the operations are bounded as a POST
// body (DefaultMaxBodyBytes), the map to maxFieldBytes (other fields are
// skipped), each part's headers to maxPartHeaderBytes, and each file
// goes to a temporary file (unlinked at once, closed after the request),
// so that an upload holds little memory whatever its size.
//
// Add it before POST, which answers 415 to any body that is not JSON.
type MultipartForm struct {
	// MaxBodyBytes bounds the whole body (413 past it); zero means
	// DefaultMaxUploadBodyBytes.
	MaxBodyBytes int64
	// Log gives the request's logger, for uploads that cannot be kept
	// (a temporary file failing); nil is slog.Default.
	Log func(context.Context) *slog.Logger
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
	limit, maxFiles := t.MaxBodyBytes, t.MaxFiles
	if limit <= 0 {
		limit = DefaultMaxUploadBodyBytes
	}
	if maxFiles <= 0 {
		maxFiles = DefaultMaxUploadFiles
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	form, err := readForm(r, maxFiles)
	defer form.close()
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		writeErrors(w, http.StatusRequestEntityTooLarge, nil, newError(CodeRequestTooLarge,
			"the request body is larger than "+strconv.FormatInt(limit, 10)+" bytes"))
		return
	case errors.Is(err, errTooManyFiles):
		writeErrors(w, http.StatusRequestEntityTooLarge, nil, newError(CodeRequestTooLarge,
			fmt.Sprintf("at most %d files may be sent", maxFiles)))
		return
	case errors.As(err, new(*upload.SpoolError)):
		log := slog.Default()
		if t.Log != nil {
			log = t.Log(r.Context())
		}
		log.Error("upload not kept", "error", err.Error())
		writeErrors(w, http.StatusInternalServerError, nil, newError(CodeInternal, "the upload could not be kept"))
		return
	case err != nil:
		badRequest(w, "the multipart body could not be parsed: "+err.Error())
		return
	}

	operations, ok := form.values["operations"]
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
	if problem != nil {
		writeErrors(w, http.StatusBadRequest, nil, problem)
		return
	}
	rawMap, ok := form.values["map"]
	if !ok {
		badRequest(w, `the multipart body must have one "map" field`)
		return
	}
	var fileMap map[string][]string
	if json.Unmarshal([]byte(rawMap), &fileMap) != nil {
		badRequest(w, `the "map" field must be a JSON object of arrays of paths`)
		return
	}
	for name, fs := range form.files {
		if _, mapped := fileMap[name]; !mapped || len(fs) != 1 {
			badRequest(w, fmt.Sprintf("the file field %q is not in the map, or is given more than once", name))
			return
		}
	}
	for name, paths := range fileMap {
		fs := form.files[name]
		if len(fs) != 1 || len(paths) == 0 {
			badRequest(w, fmt.Sprintf("the map names %q, which is not one file with at least one path", name))
			return
		}
		for _, path := range paths {
			f := fs[0]
			// A reader of its own per path, over the one temporary file.
			upload := graphql.Upload{File: io.NewSectionReader(f.file, 0, f.size), Filename: f.filename, Size: f.size,
				ContentType: f.contentType}
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

// Bounds of what a multipart request holds in memory besides the
// operations.
// Package upload bounds a part's headers.
const maxFieldBytes = 64 << 10

var errTooManyFiles = errors.New("too many files")

// form is a multipart body read: its operations and map, and its files in
// temporary files.
type form struct {
	values map[string]string
	files  map[string][]formFile
}

type formFile struct {
	file                  *os.File
	size                  int64
	filename, contentType string
}

func (f *form) close() {
	for _, fs := range f.files {
		for _, ff := range fs {
			_ = ff.file.Close()
		}
	}
}

// readForm reads r's multipart body part by part; past maxFiles files it
// fails with errTooManyFiles.
func readForm(r *http.Request, maxFiles int) (*form, error) {
	f := &form{values: map[string]string{}, files: map[string][]formFile{}}
	parts, err := upload.NewParts(r)
	if err != nil {
		return f, err
	}
	files := 0
	for {
		part, err := parts.Next()
		if err == io.EOF {
			return f, nil
		}
		if err != nil {
			return f, err
		}
		name := part.FormName()
		switch {
		case name == "":
			_, err = io.Copy(io.Discard, part)
		case part.FileName() != "":
			if files++; files > maxFiles {
				return f, errTooManyFiles
			}
			ff := formFile{filename: part.FileName(), contentType: part.Header.Get("Content-Type")}
			ff.file, ff.size, err = upload.Spool(part)
			if ff.file != nil {
				f.files[name] = append(f.files[name], ff)
			}
		case name == "operations" || name == "map":
			if _, seen := f.values[name]; seen {
				return f, fmt.Errorf("the field %q is given more than once", name)
			}
			max := int64(maxFieldBytes)
			if name == "operations" {
				max = DefaultMaxBodyBytes
			}
			var v []byte
			if v, err = io.ReadAll(io.LimitReader(part, max+1)); err == nil && int64(len(v)) > max {
				err = fmt.Errorf("the field %q is longer than %d bytes", name, max)
			}
			f.values[name] = string(v)
		default: // no other field is read
			_, err = io.Copy(io.Discard, part)
		}
		if err != nil {
			return f, err
		}
	}
}
