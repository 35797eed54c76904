// Package httptransport serves GraphQL over HTTP as the GraphQL over HTTP
// spec (https://graphql.github.io/graphql-over-http/draft/) says, so that
// generic clients and the graphql-http audit suite get the status codes and
// media types they expect.
//
// It exists because gqlgen's stock transport.POST and transport.GET differ
// from the spec: they answer 422 for parse and validation errors (the spec
// wants 200 with application/json and 400 with
// application/graphql-response+json), they send "data": null on request
// errors (a request error must have no data key), they never answer 406 or
// 415, and they read request bodies without a bound.
//
// Add both to a gqlgen handler.Server:
//
//	srv := handler.New(es)
//	srv.AddTransport(httptransport.GET{})
//	srv.AddTransport(httptransport.POST{})
//
// POST claims every POST request that no earlier transport took (it answers
// 415 to a body that is not application/json), so add transports for other
// POST bodies before it: MultipartForm (multipart.go) serves uploads.
//
// Every transport bounds the response it sends: an answer whose body would
// be larger than MaxResponseBytes (DefaultMaxResponseBytes, 8 MiB, when
// zero) is replaced by an error, RESPONSE_TOO_LARGE, with data null.
package httptransport

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"salesplatform/domain"
)

// DefaultMaxBodyBytes bounds a POST body when POST.MaxBodyBytes is zero.
const DefaultMaxBodyBytes int64 = 1 << 20

// DefaultMaxResponseBytes bounds the body of a response when a transport's
// MaxResponseBytes is zero: 8 MiB, some twenty times the schema's whole
// introspection (400 KB) and more than a full page of the largest records
// with every field and language, so that no legitimate answer reaches it,
// while an answer amplified past the operation limits (graph/limits.go) is
// not sent.
const DefaultMaxResponseBytes int64 = 8 << 20

// maxRequestErrors bounds the errors of a request error: validation
// reports one per fault, and a document of 20,000 repeated directives has
// 20,000 (3 MB). The first ones say what is wrong.
const maxRequestErrors = 100

// Error codes, in extensions.code, of the request errors this package makes
// itself. Parse and validation errors carry gqlgen's GRAPHQL_PARSE_FAILED and
// GRAPHQL_VALIDATION_FAILED; a request error that comes without a code gets
// CodeBadRequest.
const (
	CodeBadRequest           = "BAD_REQUEST"
	CodeRequestTooLarge      = "REQUEST_TOO_LARGE"
	CodeUnsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
	CodeNotAcceptable        = "NOT_ACCEPTABLE"
	CodeMethodNotAllowed     = "METHOD_NOT_ALLOWED"
	CodeResponseTooLarge     = "RESPONSE_TOO_LARGE"
	// CodeBadUserInput refuses a request whose JSON or URL parameters are
	// not text (domain.JSONTextProblem, domain.TextProblem), the code the
	// graph gives a value that is not text (graph.TextInputs).
	CodeBadUserInput = "BAD_USER_INPUT"
)

const (
	mediaJSON            = "application/json"
	mediaGraphQLResponse = "application/graphql-response+json"
)

// POST serves application/json POST requests:
// {"query": "...", "operationName": "...", "variables": {...}, "extensions": {...}}.
type POST struct {
	// MaxBodyBytes bounds the request body (413 past it); zero means
	// DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// MaxResponseBytes bounds the response body (RESPONSE_TOO_LARGE past
	// it); zero means DefaultMaxResponseBytes.
	MaxResponseBytes int64
}

var _ graphql.Transport = POST{}

// Supports claims every POST request that does not ask for a protocol upgrade.
func (POST) Supports(r *http.Request) bool {
	return r.Method == http.MethodPost && r.Header.Get("Upgrade") == ""
}

// Do answers one POST request.
func (t POST) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	start := graphql.Now()
	media := startResponse(w, r)
	if media == "" {
		return
	}
	mt, ctParams, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if cs, ok := ctParams["charset"]; err != nil || mt != mediaJSON || ok && !strings.EqualFold(cs, "utf-8") {
		writeErrors(w, http.StatusUnsupportedMediaType, nil, newError(CodeUnsupportedMediaType,
			"the request body must be application/json in utf-8"))
		return
	}
	limit := t.MaxBodyBytes
	if limit <= 0 {
		limit = DefaultMaxBodyBytes
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if tooLarge := (*http.MaxBytesError)(nil); errors.As(err, &tooLarge) {
		writeErrors(w, http.StatusRequestEntityTooLarge, nil, newError(CodeRequestTooLarge,
			"the request body is larger than "+strconv.FormatInt(limit, 10)+" bytes"))
		return
	} else if err != nil {
		badRequest(w, "could not read the request body")
		return
	}

	var fields map[string]json.RawMessage
	if json.Unmarshal(body, &fields) != nil || fields == nil {
		badRequest(w, "the request body must be a JSON object")
		return
	}
	params, problem := decodeParams(fields["query"], fields["operationName"], fields["variables"], fields["extensions"])
	if problem != nil {
		writeErrors(w, http.StatusBadRequest, nil, problem)
		return
	}
	params.Headers = r.Header
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	execute(w, r, exec, media, params, t.MaxResponseBytes, nil)
}

// GET serves queries from the URL:
// ?query=...&operationName=...&variables=<JSON>&extensions=<JSON>.
// A mutation gets 405 with Allow: POST, since GET must stay safe.
type GET struct {
	// MaxResponseBytes bounds the response body (RESPONSE_TOO_LARGE past
	// it); zero means DefaultMaxResponseBytes.
	MaxResponseBytes int64
}

var _ graphql.Transport = GET{}

// Supports claims GET requests that do not ask for a protocol upgrade.
func (GET) Supports(r *http.Request) bool {
	return r.Method == http.MethodGet && r.Header.Get("Upgrade") == ""
}

// Do answers one GET request.
func (t GET) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	start := graphql.Now()
	media := startResponse(w, r)
	if media == "" {
		return
	}
	values, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		badRequest(w, "the URL query could not be parsed")
		return
	}
	// Each parameter once, as JSON so decodeParams checks it as for POST.
	raw := map[string]json.RawMessage{}
	for name, v := range values {
		if len(v) > 1 {
			badRequest(w, "the "+name+" parameter is given more than once")
			return
		}
		switch name {
		case "query", "operationName":
			// json.Marshal would write U+FFFD for bytes that are not UTF-8.
			if !utf8.ValidString(v[0]) {
				writeErrors(w, http.StatusBadRequest, nil, newError(CodeBadUserInput,
					"the request is not text: "+domain.MsgInvalidUTF8))
				return
			}
			raw[name], _ = json.Marshal(v[0])
		case "variables", "extensions":
			if v[0] != "" {
				raw[name] = json.RawMessage(v[0])
			}
		}
	}
	params, problem := decodeParams(raw["query"], raw["operationName"], raw["variables"], raw["extensions"])
	if problem != nil {
		writeErrors(w, http.StatusBadRequest, nil, problem)
		return
	}
	params.Headers = r.Header
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	execute(w, r, exec, media, params, t.MaxResponseBytes, func(opCtx *graphql.OperationContext) bool {
		if opCtx.Operation.Operation != ast.Mutation {
			return true
		}
		w.Header().Set("Allow", http.MethodPost)
		writeErrors(w, http.StatusMethodNotAllowed, nil, newError(CodeMethodNotAllowed,
			"mutations must be sent with POST"))
		return false
	})
}

// decodeParams checks the request parameters, each a JSON value or nil when
// absent, and returns them or what is wrong with them (BAD_USER_INPUT for
// JSON that is not text, else BAD_REQUEST). The query may be left
// out only by a request that names an automatic persisted query (gqlgen's
// extension.AutomaticPersistedQuery) by its hash.
func decodeParams(query, operationName, variables, extensions json.RawMessage) (*graphql.RawParams, *gqlerror.Error) {
	// A decoder reads U+FFFD for bytes that are not UTF-8 and for an
	// escaped lone surrogate: the value would reach the graph altered.
	for _, raw := range []json.RawMessage{query, operationName, variables, extensions} {
		if msg := domain.JSONTextProblem(raw); msg != "" {
			return nil, newError(CodeBadUserInput, "the request is not text: "+msg)
		}
	}
	p, problem := decodeParamValues(query, operationName, variables, extensions)
	if problem != "" {
		return nil, newError(CodeBadRequest, problem)
	}
	return p, nil
}

func decodeParamValues(query, operationName, variables, extensions json.RawMessage) (*graphql.RawParams, string) {
	p := &graphql.RawParams{}
	var ok bool
	if p.OperationName, ok = decodeString(operationName); !ok {
		return nil, "the operationName parameter must be a string or null"
	}
	if p.Variables, ok = decodeObject(variables); !ok {
		return nil, "the variables parameter must be an object or null"
	}
	if p.Extensions, ok = decodeObject(extensions); !ok {
		return nil, "the extensions parameter must be an object or null"
	}
	if p.Query, ok = decodeString(query); !ok || p.Query == "" && !isString(query) && p.Extensions["persistedQuery"] == nil {
		return nil, "the query parameter must be a string"
	}
	return p, ""
}

func isString(raw json.RawMessage) bool { return len(raw) > 0 && raw[0] == '"' }

// decodeString decodes a JSON string; absent or null gives "".
func decodeString(raw json.RawMessage) (string, bool) {
	var s *string
	if len(raw) > 0 && json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	if s == nil {
		return "", true
	}
	return *s, true
}

// decodeObject decodes a JSON object, keeping numbers as json.Number as
// gqlgen expects; absent or null gives nil.
func decodeObject(raw json.RawMessage) (map[string]any, bool) {
	if len(raw) == 0 {
		return nil, true
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF { // trailing data
		return nil, false
	}
	switch v := v.(type) {
	case nil:
		return nil, true
	case map[string]any:
		return v, true
	}
	return nil, false
}

// execute runs the request. Request errors (parse, validation, variable
// coercion, refusals by extensions) get 200 with application/json and 400
// with application/graphql-response+json, as the spec says, and no data key.
// allow, when not nil, may veto the operation before it runs, after writing
// its own answer. An answer larger than maxResponse bytes (zero:
// DefaultMaxResponseBytes) is replaced by RESPONSE_TOO_LARGE.
//
// Once the request's context is done (the client went away, a deadline of
// the server passed) nothing more runs and nothing is written: not the
// operation after its checks, and gqlgen's response handler returns nil
// for a context done before execution starts.
func execute(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor, media string,
	params *graphql.RawParams, maxResponse int64, allow func(*graphql.OperationContext) bool,
) {
	ctx := r.Context()
	opCtx, errs := exec.CreateOperationContext(ctx, params)
	if ctx.Err() != nil {
		return
	}
	if errs != nil {
		resp := exec.DispatchError(graphql.WithOperationContext(ctx, opCtx), errs)
		status := http.StatusOK
		if media == mediaGraphQLResponse {
			status = http.StatusBadRequest
		}
		writeErrors(w, status, resp.Extensions, resp.Errors...)
		return
	}
	if allow != nil && !allow(opCtx) {
		return
	}
	if opCtx.Operation.Operation == ast.Subscription {
		badRequest(w, "subscriptions are not served over plain HTTP requests")
		return
	}
	responses, ctx := exec.DispatchOperation(ctx, opCtx)
	if resp := responses(ctx); resp != nil { // nil: the client went away
		writeResponse(w, resp, maxResponse)
	}
}

// writeResponse sends the answer of an operation, or, when its body would
// be larger than limit bytes (zero: DefaultMaxResponseBytes), an error
// RESPONSE_TOO_LARGE with data null and status 200: the operation ran (a
// mutation's changes are made), only its answer is withheld.
func writeResponse(w http.ResponseWriter, resp *graphql.Response, limit int64) {
	if limit <= 0 {
		limit = DefaultMaxResponseBytes
	}
	if int64(len(resp.Data)) <= limit { // else not worth encoding
		b, err := encodeResponse(resp)
		if err != nil {
			writeJSON(w, http.StatusOK, resp) // answers the encoding error: 500
			return
		}
		if int64(len(b)) <= limit {
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write(b)
			return
		}
	}
	writeJSON(w, http.StatusOK, tooLarge{
		Errors: gqlerror.List{newError(CodeResponseTooLarge, "the response is larger than "+
			strconv.FormatInt(limit, 10)+" bytes, the limit: ask for fewer fields or items")},
		Data: json.RawMessage("null"),
	})
}

// encodeResponse is resp as JSON. An answer that is its data alone (no
// errors, extensions or incremental delivery) is written around the data,
// which gqlgen wrote as JSON already: encoding/json would validate and
// compact it byte by byte again.
func encodeResponse(resp *graphql.Response) ([]byte, error) {
	if len(resp.Errors) > 0 || len(resp.Extensions) > 0 || resp.Label != "" || resp.Path != nil || resp.HasNext != nil || len(resp.Data) == 0 {
		return json.Marshal(resp)
	}
	b := make([]byte, 0, len(resp.Data)+len(`{"data":}`))
	b = append(b, `{"data":`...)
	b = append(b, resp.Data...)
	return append(b, '}'), nil
}

// tooLarge is the body that replaces an answer too large to send.
type tooLarge struct {
	Errors gqlerror.List   `json:"errors"`
	Data   json.RawMessage `json:"data"`
}

// negotiate picks the response media type from the Accept header, or ""
// when the client accepts neither application/graphql-response+json nor
// application/json. No Accept header, */* and application/* give
// application/json, the spec's choice for clients from before the newer
// type; that one is used only when named, and wins a tie of quality.
func negotiate(r *http.Request) string {
	header := strings.Join(r.Header.Values("Accept"), ",")
	if strings.TrimSpace(header) == "" {
		return mediaJSON
	}
	qJSON, qGQL := -1.0, -1.0 // quality of the most specific matching range
	specJSON := -1
	for part := range strings.SplitSeq(header, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if v, ok := params["q"]; ok {
			if q, err = strconv.ParseFloat(v, 64); err != nil {
				continue
			}
		}
		switch mt {
		case mediaGraphQLResponse:
			qGQL = q
		case mediaJSON:
			qJSON, specJSON = q, 2
		case "application/*":
			if specJSON < 1 {
				qJSON, specJSON = q, 1
			}
		case "*/*":
			if specJSON < 0 {
				qJSON, specJSON = q, 0
			}
		}
	}
	switch {
	case qGQL > 0 && qGQL >= qJSON:
		return mediaGraphQLResponse
	case qJSON > 0:
		return mediaJSON
	}
	return ""
}

// startResponse negotiates the media type and sets the response headers.
// It answers 406 itself and returns "" when the client accepts no type we
// send.
func startResponse(w http.ResponseWriter, r *http.Request) string {
	w.Header().Add("Vary", "Accept")
	media := negotiate(r)
	if media == "" {
		w.Header().Set("Content-Type", mediaJSON+"; charset=utf-8")
		writeErrors(w, http.StatusNotAcceptable, nil, newError(CodeNotAcceptable,
			"the Accept header allows neither application/graphql-response+json nor application/json"))
		return ""
	}
	w.Header().Set("Content-Type", media+"; charset=utf-8")
	return media
}

// requestError is the body of a request error: errors and maybe extensions,
// never a data key.
type requestError struct {
	Errors     gqlerror.List  `json:"errors"`
	Extensions map[string]any `json:"extensions,omitempty"`
}

func newError(code, msg string) *gqlerror.Error {
	return &gqlerror.Error{Message: msg, Extensions: map[string]any{"code": code}}
}

func badRequest(w http.ResponseWriter, msg string) {
	writeErrors(w, http.StatusBadRequest, nil, newError(CodeBadRequest, msg))
}

// writeErrors sends a request error, its first maxRequestErrors errors; an
// error without extensions.code gets CodeBadRequest.
func writeErrors(w http.ResponseWriter, status int, ext map[string]any, errs ...*gqlerror.Error) {
	errs = errs[:min(len(errs), maxRequestErrors)]
	for _, e := range errs {
		if e == nil {
			continue
		}
		if _, ok := e.Extensions["code"]; !ok {
			if e.Extensions == nil {
				e.Extensions = map[string]any{}
			}
			e.Extensions["code"] = CodeBadRequest
		}
	}
	writeJSON(w, status, requestError{Errors: errs, Extensions: ext})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"errors":[{"message":"could not encode the response","extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`)
	}
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
