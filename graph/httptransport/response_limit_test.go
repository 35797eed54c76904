package httptransport_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"salesplatform/graph"
	"salesplatform/graph/httptransport"
)

// bigExecutor answers every operation with data of about size bytes.
type bigExecutor struct{ size int }

func (bigExecutor) CreateOperationContext(context.Context, *graphql.RawParams) (*graphql.OperationContext, gqlerror.List) {
	return &graphql.OperationContext{Operation: &ast.OperationDefinition{Operation: ast.Query}}, nil
}

func (e bigExecutor) DispatchOperation(ctx context.Context, _ *graphql.OperationContext) (graphql.ResponseHandler, context.Context) {
	data := `{"s":"` + strings.Repeat("x", e.size) + `"}`
	return graphql.OneShot(&graphql.Response{Data: json.RawMessage(data)}), ctx
}

func (bigExecutor) DispatchError(_ context.Context, list gqlerror.List) *graphql.Response {
	return &graphql.Response{Errors: list}
}

// A response past the default limit (8 MiB) is not sent: the client gets
// RESPONSE_TOO_LARGE instead, with data null. One just under it is sent.
func TestResponseLimitDefault(t *testing.T) {
	for _, tc := range []struct {
		size int
		want string // "" for the data
	}{
		{8<<20 + 1, "RESPONSE_TOO_LARGE"},
		{8<<20 - 100, ""},
	} {
		w := &countingWriter{header: http.Header{}}
		httptransport.POST{MaxBodyBytes: 0}.Do(w, post(typename, "application/json", ""), bigExecutor{size: tc.size})
		if tc.want == "" {
			if w.status != http.StatusOK || w.n < tc.size || strings.Contains(w.head.String(), "RESPONSE_TOO_LARGE") {
				t.Errorf("%d bytes: status %d, %d bytes sent", tc.size, w.status, w.n)
			}
			continue
		}
		var body struct {
			Data   json.RawMessage `json:"data"`
			Errors []struct {
				Message    string         `json:"message"`
				Extensions map[string]any `json:"extensions"`
			} `json:"errors"`
		}
		if w.n > 4096 || json.Unmarshal([]byte(w.head.String()), &body) != nil {
			t.Fatalf("%d bytes: %d bytes sent: %.200s", tc.size, w.n, w.head.String())
		}
		if w.status != http.StatusOK || string(body.Data) != "null" || len(body.Errors) != 1 ||
			body.Errors[0].Extensions["code"] != tc.want || !strings.Contains(body.Errors[0].Message, "8388608 bytes") {
			t.Errorf("%d bytes: %d %s", tc.size, w.status, w.head.String())
		}
	}
}

// countingWriter keeps the status, the first 4 KiB and the number of bytes
// of a response.
type countingWriter struct {
	header http.Header
	status int
	head   strings.Builder
	n      int
}

func (w *countingWriter) Header() http.Header { return w.header }

func (w *countingWriter) WriteHeader(status int) { w.status = status }

func (w *countingWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if rest := 4096 - w.head.Len(); rest > 0 {
		w.head.Write(p[:min(rest, len(p))])
	}
	w.n += len(p)
	return len(p), nil
}

// MaxResponseBytes bounds the answers of each transport: GET, POST and
// MultipartForm.
func TestMaxResponseBytes(t *testing.T) {
	const query = `{ __schema { types { name } } }` // about 6 KB
	for _, limit := range []int64{1000, 1 << 20} {
		srv := handler.New(graph.NewExecutableSchema(graph.Config{Resolvers: &graph.Resolver{}}))
		srv.AddTransport(httptransport.GET{MaxResponseBytes: limit})
		srv.AddTransport(httptransport.MultipartForm{MaxResponseBytes: limit})
		srv.AddTransport(httptransport.POST{MaxResponseBytes: limit})
		srv.Use(extension.Introspection{})
		body := `{"query":"` + query + `"}`
		for name, r := range map[string]*http.Request{
			"POST":      post(body, "application/json", gqlMedia),
			"GET":       get(url.Values{"query": {query}}, gqlMedia),
			"multipart": multipartRequest(t, []part{{name: "operations", value: body}, {name: "map", value: `{}`}}, "GraphQL-Require-Preflight", "1", "Accept", gqlMedia),
		} {
			res := do(t, srv, r)
			res.expect(t, http.StatusOK, gqlType)
			if limit >= 1<<20 {
				if _, ok := res.body["errors"]; ok || len(res.raw) < 1000 {
					t.Errorf("%s under the limit: %.300s", name, res.raw)
				}
				continue
			}
			errs, _ := res.body["errors"].([]any)
			first, _ := errs[0].(map[string]any)
			ext, _ := first["extensions"].(map[string]any)
			if data, ok := res.body["data"]; !ok || data != nil || len(errs) != 1 || ext["code"] != httptransport.CodeResponseTooLarge ||
				!strings.Contains(first["message"].(string), "1000 bytes") {
				t.Errorf("%s past the limit: %s", name, res.raw)
			}
		}
	}
}

// A request error holds at most 100 errors.
func TestRequestErrorsBounded(t *testing.T) {
	h := newServer(httptransport.POST{})
	query := `{ __typename` + strings.Repeat(` @include(if: true)`, 1000) + ` }`
	q, _ := json.Marshal(query)
	res := do(t, h, post(`{"query":`+string(q)+`}`, "application/json", ""))
	res.expectRequestError(t, "GRAPHQL_VALIDATION_FAILED")
	if errs, _ := res.body["errors"].([]any); len(errs) != 100 {
		t.Errorf("%d errors", len(errs))
	}
}
