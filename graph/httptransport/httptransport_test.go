package httptransport_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"

	"salesplatform/graph"
	"salesplatform/graph/httptransport"
)

const (
	jsonType = "application/json; charset=utf-8"
	gqlType  = "application/graphql-response+json; charset=utf-8"
	gqlMedia = "application/graphql-response+json"
)

// newServer serves the graph with the transports of graph.NewHandler:
// MultipartForm before POST, so the conformance tests below also prove
// that the upload transport leaves other requests to POST.
func newServer(post httptransport.POST) http.Handler {
	return newUploadServer(post, httptransport.MultipartForm{}, nil)
}

func newUploadServer(post httptransport.POST, mp httptransport.MultipartForm, r *graph.Resolver) http.Handler {
	if r == nil {
		r = &graph.Resolver{}
	}
	srv := handler.New(graph.NewExecutableSchema(graph.Config{Resolvers: r}))
	srv.AddTransport(httptransport.GET{})
	srv.AddTransport(mp)
	srv.AddTransport(post)
	srv.Use(extension.Introspection{})
	srv.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](10)})
	return srv
}

type result struct {
	status int
	header http.Header
	raw    string
	body   map[string]any
}

func do(t *testing.T, h http.Handler, r *http.Request) result {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	res := result{status: w.Code, header: w.Header(), raw: w.Body.String()}
	if err := json.Unmarshal(w.Body.Bytes(), &res.body); err != nil {
		t.Fatalf("body is not a JSON object: %v: %q", err, res.raw)
	}
	return res
}

func post(body, contentType, accept string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	if accept != "" {
		r.Header.Set("Accept", accept)
	}
	return r
}

func get(query url.Values, accept string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "/graphql?"+query.Encode(), nil)
	if accept != "" {
		r.Header.Set("Accept", accept)
	}
	return r
}

func (res result) expect(t *testing.T, status int, contentType string) {
	t.Helper()
	if res.status != status {
		t.Errorf("status = %d, want %d (body %s)", res.status, status, res.raw)
	}
	if got := res.header.Get("Content-Type"); got != contentType {
		t.Errorf("Content-Type = %q, want %q", got, contentType)
	}
}

// expectData checks a successful execution: data, no errors.
func (res result) expectData(t *testing.T, want string) {
	t.Helper()
	if _, ok := res.body["errors"]; ok {
		t.Errorf("unexpected errors: %s", res.raw)
	}
	got, _ := json.Marshal(res.body["data"])
	if string(got) != want {
		t.Errorf("data = %s, want %s", got, want)
	}
}

// expectRequestError checks a request error: errors with the code, and no
// data key at all.
func (res result) expectRequestError(t *testing.T, code string) {
	t.Helper()
	if _, ok := res.body["data"]; ok {
		t.Errorf("a request error must have no data key: %s", res.raw)
	}
	errs, _ := res.body["errors"].([]any)
	if len(errs) == 0 {
		t.Fatalf("no errors: %s", res.raw)
	}
	for _, e := range errs {
		m, _ := e.(map[string]any)
		if msg, _ := m["message"].(string); msg == "" {
			t.Errorf("error without message: %s", res.raw)
		}
		ext, _ := m["extensions"].(map[string]any)
		if got := ext["code"]; got != code {
			t.Errorf("extensions.code = %v, want %s: %s", got, code, res.raw)
		}
	}
}

const typename = `{"query":"{ __typename }"}`

func TestPOSTMediaTypes(t *testing.T) {
	h := newServer(httptransport.POST{})
	for _, tc := range []struct {
		accept, want string
	}{
		{"", jsonType},
		{"*/*", jsonType},
		{"application/*", jsonType},
		{"application/json", jsonType},
		{"application/json; charset=utf-8", jsonType},
		{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", jsonType},
		{gqlMedia, gqlType},
		{gqlMedia + ", application/json, multipart/mixed", gqlType},
		{"application/json;q=0.5, " + gqlMedia, gqlType},
		{gqlMedia + ";q=0.1, application/json", jsonType},
		{gqlMedia + ";q=0, */*", jsonType},
	} {
		t.Run(tc.accept, func(t *testing.T) {
			res := do(t, h, post(typename, "application/json", tc.accept))
			res.expect(t, http.StatusOK, tc.want)
			res.expectData(t, `{"__typename":"Query"}`)
			if v := res.header.Get("Vary"); v != "Accept" {
				t.Errorf("Vary = %q, want Accept", v)
			}
		})
	}
}

func TestNotAcceptable(t *testing.T) {
	h := newServer(httptransport.POST{})
	for _, accept := range []string{"text/html", "application/xml", gqlMedia + ";q=0", "application/json;q=0, */*"} {
		t.Run(accept, func(t *testing.T) {
			res := do(t, h, post(typename, "application/json", accept))
			res.expect(t, http.StatusNotAcceptable, jsonType)
			res.expectRequestError(t, httptransport.CodeNotAcceptable)
		})
	}
	res := do(t, h, get(url.Values{"query": {"{ __typename }"}}, "text/plain"))
	res.expect(t, http.StatusNotAcceptable, jsonType)
	res.expectRequestError(t, httptransport.CodeNotAcceptable)
}

func TestPOSTContentType(t *testing.T) {
	h := newServer(httptransport.POST{})
	for _, ct := range []string{"", "text/plain;charset=UTF-8", "application/graphql", "application/x-www-form-urlencoded", "application/json; charset=iso-8859-1", "not a media type"} {
		t.Run(ct, func(t *testing.T) {
			res := do(t, h, post(typename, ct, ""))
			res.expect(t, http.StatusUnsupportedMediaType, jsonType)
			res.expectRequestError(t, httptransport.CodeUnsupportedMediaType)
		})
	}
	for _, ct := range []string{"application/json; charset=utf-8", "application/json; charset=UTF-8", "Application/JSON"} {
		t.Run(ct, func(t *testing.T) {
			res := do(t, h, post(`{"query":"{ __type(name: \"Run🏃Swim🏊\") { name } }"}`, ct, ""))
			res.expect(t, http.StatusOK, jsonType)
			res.expectData(t, `{"__type":null}`)
		})
	}
}

func TestPOSTBadRequest(t *testing.T) {
	h := newServer(httptransport.POST{})
	for name, body := range map[string]string{
		"empty body":               ``,
		"not JSON":                 `{ "not a JSON`,
		"trailing data":            `{"query":"{ __typename }"} {}`,
		"array body":               `[{"query":"{ __typename }"}]`,
		"null body":                `null`,
		"string body":              `"{ __typename }"`,
		"missing query":            `{"notquery":"{ __typename }"}`,
		"null query":               `{"query":null}`,
		"object query":             `{"query":{"obj":"ect"}}`,
		"number query":             `{"query":0}`,
		"boolean query":            `{"query":false}`,
		"array query":              `{"query":["array"]}`,
		"object operationName":     `{"query":"{ __typename }","operationName":{"obj":"ect"}}`,
		"number operationName":     `{"query":"{ __typename }","operationName":0}`,
		"boolean operationName":    `{"query":"{ __typename }","operationName":false}`,
		"array operationName":      `{"query":"{ __typename }","operationName":["array"]}`,
		"string variables":         `{"query":"{ __typename }","variables":"string"}`,
		"number variables":         `{"query":"{ __typename }","variables":0}`,
		"boolean variables":        `{"query":"{ __typename }","variables":false}`,
		"array variables":          `{"query":"{ __typename }","variables":["array"]}`,
		"string extensions":        `{"query":"{ __typename }","extensions":"string"}`,
		"number extensions":        `{"query":"{ __typename }","extensions":0}`,
		"boolean extensions":       `{"query":"{ __typename }","extensions":false}`,
		"array extensions":         `{"query":"{ __typename }","extensions":["array"]}`,
		"query key in wrong case":  `{"Query":"{ __typename }"}`,
		"variables JSON is broken": `{"query":"{ __typename }","variables":{"a":}`,
	} {
		for _, accept := range []string{"application/json", gqlMedia} {
			t.Run(name+"/"+accept, func(t *testing.T) {
				res := do(t, h, post(body, "application/json", accept))
				res.expect(t, http.StatusBadRequest, accept+"; charset=utf-8")
				res.expectRequestError(t, httptransport.CodeBadRequest)
			})
		}
	}
}

func TestPOSTParameters(t *testing.T) {
	h := newServer(httptransport.POST{})
	for name, tc := range map[string]struct{ body, data string }{
		"null variables":     {`{"query":"{ __typename }","variables":null}`, `{"__typename":"Query"}`},
		"null operationName": {`{"query":"{ __typename }","operationName":null}`, `{"__typename":"Query"}`},
		"null extensions":    {`{"query":"{ __typename }","extensions":null}`, `{"__typename":"Query"}`},
		"map extensions":     {`{"query":"{ __typename }","extensions":{"some":"value"}}`, `{"__typename":"Query"}`},
		"operationName": {
			`{"query":"query A { a: __typename } query B { b: __typename }","operationName":"B"}`,
			`{"b":"Query"}`,
		},
		"map variables": {
			`{"query":"query T($name: String!) { __type(name: $name) { name } }","variables":{"name":"Cart"}}`,
			`{"__type":{"name":"Cart"}}`,
		},
	} {
		t.Run(name, func(t *testing.T) {
			res := do(t, h, post(tc.body, "application/json", "application/json"))
			res.expect(t, http.StatusOK, jsonType)
			res.expectData(t, tc.data)
		})
	}
}

// Parse, validation and variable coercion errors are request errors: 200
// with application/json, 400 with application/graphql-response+json, and
// never a data key.
func TestPOSTGraphQLRequestErrors(t *testing.T) {
	h := newServer(httptransport.POST{})
	for name, tc := range map[string]struct{ body, code string }{
		"parse":             {`{"query":"{"}`, "GRAPHQL_PARSE_FAILED"},
		"empty query":       {`{"query":""}`, "GRAPHQL_VALIDATION_FAILED"},
		"unknown field":     {`{"query":"{ noSuchField }"}`, "GRAPHQL_VALIDATION_FAILED"},
		"unknown operation": {`{"query":"query A { __typename }","operationName":"B"}`, "GRAPHQL_VALIDATION_FAILED"},
		"variable coercion": {
			`{"query":"query C($id: UUID!) { cart(id: $id) { id } }","variables":{"id":null}}`,
			"GRAPHQL_VALIDATION_FAILED",
		},
	} {
		t.Run(name, func(t *testing.T) {
			res := do(t, h, post(tc.body, "application/json", "application/json"))
			res.expect(t, http.StatusOK, jsonType)
			res.expectRequestError(t, tc.code)

			res = do(t, h, post(tc.body, "application/json", gqlMedia))
			res.expect(t, http.StatusBadRequest, gqlType)
			res.expectRequestError(t, tc.code)
		})
	}
}

func TestPOSTBodyLimit(t *testing.T) {
	const want = `{"errors":[{"message":"the request body is larger than 64 bytes","extensions":{"code":"REQUEST_TOO_LARGE"}}]}`
	h := newServer(httptransport.POST{MaxBodyBytes: 64})
	body := `{"query":"{ __typename }","variables":{"pad":"` + strings.Repeat("x", 64) + `"}}`
	res := do(t, h, post(body, "application/json", ""))
	res.expect(t, http.StatusRequestEntityTooLarge, jsonType)
	if res.raw != want {
		t.Errorf("body = %s, want %s", res.raw, want)
	}
	res = do(t, h, post(typename, "application/json", "")) // 26 bytes pass
	res.expect(t, http.StatusOK, jsonType)

	// The default bound is 1 MiB.
	h = newServer(httptransport.POST{})
	pad := strings.Repeat(" ", int(httptransport.DefaultMaxBodyBytes)-len(typename))
	res = do(t, h, post(typename+pad, "application/json", ""))
	res.expect(t, http.StatusOK, jsonType)
	res = do(t, h, post(typename+pad+" ", "application/json", gqlMedia))
	res.expect(t, http.StatusRequestEntityTooLarge, gqlType)
	res.expectRequestError(t, httptransport.CodeRequestTooLarge)
}

func TestGET(t *testing.T) {
	h := newServer(httptransport.POST{})
	res := do(t, h, get(url.Values{"query": {"{ __typename }"}}, ""))
	res.expect(t, http.StatusOK, jsonType)
	res.expectData(t, `{"__typename":"Query"}`)

	res = do(t, h, get(url.Values{
		"query":         {"query T($name: String!) { __type(name: $name) { name } } query U { __typename }"},
		"operationName": {"T"},
		"variables":     {`{"name":"Cart"}`},
		"extensions":    {`{"some":"value"}`},
	}, gqlMedia))
	res.expect(t, http.StatusOK, gqlType)
	res.expectData(t, `{"__type":{"name":"Cart"}}`)
}

func TestGETMutationNotAllowed(t *testing.T) {
	h := newServer(httptransport.POST{})
	for _, accept := range []string{"", gqlMedia} {
		res := do(t, h, get(url.Values{"query": {"mutation { __typename }"}}, accept))
		want := jsonType
		if accept != "" {
			want = gqlType
		}
		res.expect(t, http.StatusMethodNotAllowed, want)
		if got := res.header.Get("Allow"); got != "POST" {
			t.Errorf("Allow = %q, want POST", got)
		}
		res.expectRequestError(t, httptransport.CodeMethodNotAllowed)
	}
	// A document with a mutation may still run its query over GET.
	res := do(t, h, get(url.Values{
		"query":         {"mutation M { __typename } query Q { __typename }"},
		"operationName": {"Q"},
	}, ""))
	res.expect(t, http.StatusOK, jsonType)
	res.expectData(t, `{"__typename":"Query"}`)
}

func TestGETBadRequest(t *testing.T) {
	h := newServer(httptransport.POST{})
	for name, q := range map[string]string{
		"missing query":       "",
		"missing query 2":     "operationName=A",
		"twice query":         "query=%7B__typename%7D&query=%7B__typename%7D",
		"bad escape":          "query=%zz",
		"string variables":    "query=%7B__typename%7D&variables=%22s%22",
		"array variables":     "query=%7B__typename%7D&variables=%5B%5D",
		"broken variables":    "query=%7B__typename%7D&variables=%7B",
		"number extensions":   "query=%7B__typename%7D&extensions=0",
		"broken extensions":   "query=%7B__typename%7D&extensions=x",
		"variables then junk": "query=%7B__typename%7D&variables=%7B%7D%7B%7D",
	} {
		t.Run(name, func(t *testing.T) {
			res := do(t, h, httptest.NewRequest(http.MethodGet, "/graphql?"+q, nil))
			res.expect(t, http.StatusBadRequest, jsonType)
			res.expectRequestError(t, httptransport.CodeBadRequest)
		})
	}
}

func TestGETGraphQLRequestErrors(t *testing.T) {
	h := newServer(httptransport.POST{})
	q := url.Values{"query": {"{ noSuchField }"}}
	res := do(t, h, get(q, ""))
	res.expect(t, http.StatusOK, jsonType)
	res.expectRequestError(t, "GRAPHQL_VALIDATION_FAILED")

	res = do(t, h, get(url.Values{"query": {"{"}}, gqlMedia))
	res.expect(t, http.StatusBadRequest, gqlType)
	res.expectRequestError(t, "GRAPHQL_PARSE_FAILED")
}

// A client of automatic persisted queries first sends only the query's hash.
func TestAutomaticPersistedQuery(t *testing.T) {
	h := newServer(httptransport.POST{})
	const query = "{ apq: __typename }"
	sum := sha256.Sum256([]byte(query))
	ext := `{"persistedQuery":{"version":1,"sha256Hash":"` + hex.EncodeToString(sum[:]) + `"}}`

	res := do(t, h, post(`{"extensions":`+ext+`}`, "application/json", ""))
	res.expect(t, http.StatusOK, jsonType)
	res.expectRequestError(t, "PERSISTED_QUERY_NOT_FOUND")

	res = do(t, h, post(`{"query":"`+query+`","extensions":`+ext+`}`, "application/json", ""))
	res.expect(t, http.StatusOK, jsonType)
	res.expectData(t, `{"apq":"Query"}`)

	res = do(t, h, post(`{"query":null,"extensions":`+ext+`}`, "application/json", gqlMedia))
	res.expect(t, http.StatusOK, gqlType)
	res.expectData(t, `{"apq":"Query"}`)

	res = do(t, h, get(url.Values{"extensions": {ext}}, ""))
	res.expect(t, http.StatusOK, jsonType)
	res.expectData(t, `{"apq":"Query"}`)

	res = do(t, h, post(`{"query":0,"extensions":`+ext+`}`, "application/json", ""))
	res.expect(t, http.StatusBadRequest, jsonType)
	res.expectRequestError(t, httptransport.CodeBadRequest)

	// An APQ error without a code of its own gets BAD_REQUEST.
	res = do(t, h, post(`{"query":"{ __typename }","extensions":{"persistedQuery":{"version":2}}}`, "application/json", gqlMedia))
	res.expect(t, http.StatusBadRequest, gqlType)
	res.expectRequestError(t, httptransport.CodeBadRequest)
}
