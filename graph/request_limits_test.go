package graph

// Request-level tests of the limits of limits.go, through NewHandler (no
// database: every request below is refused, or answered, before any
// resolver needs a service).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"salesplatform/domain"
)

// syncBuffer collects the handler's log lines from concurrent resolvers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// testGraph is NewHandler without services, and what it logged.
type testGraph struct {
	h    http.Handler
	logs *syncBuffer
}

func newTestGraph() testGraph {
	logs := &syncBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	return testGraph{h: NewHandler(&Resolver{}, func(context.Context) *slog.Logger { return logger }), logs: logs}
}

type answerError struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

type answer struct {
	status int
	raw    string
	Data   json.RawMessage `json:"data"`
	Errors []answerError   `json:"errors"`
}

// codes lists the extensions.code of the answer's errors.
func (a answer) codes() []string {
	var out []string
	for _, e := range a.Errors {
		out = append(out, fmt.Sprint(e.Extensions["code"]))
	}
	return out
}

// ask POSTs query with variables, a raw JSON object ("" for none), as
// application/json.
func (g testGraph) ask(t *testing.T, query, variables string) answer {
	t.Helper()
	q, _ := json.Marshal(query)
	body := `{"query":` + string(q)
	if variables != "" {
		body += `,"variables":` + variables
	}
	body += `}`
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	g.h.ServeHTTP(w, req)
	a := answer{status: w.Code, raw: w.Body.String()}
	if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil {
		t.Fatalf("%s: body is not JSON: %v: %.300s", query, err, a.raw)
	}
	return a
}

// refused checks that a is a request error (no data) with the one code and
// returns its message.
func refused(t *testing.T, a answer, code string) string {
	t.Helper()
	if a.status != http.StatusOK || a.Data != nil || len(a.Errors) != 1 || a.Errors[0].Extensions["code"] != code {
		t.Fatalf("want one %s request error, got %d %.500s", code, a.status, a.raw)
	}
	return a.Errors[0].Message
}

// fragmentChain is a query of levels fragments, each spreading the one
// below twice: its expanded form holds 2^levels __typename fields, while
// the text grows by one line a level.
func fragmentChain(levels int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "query { ...F%d }\nfragment F0 on Query { __typename }\n", levels)
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "fragment F%d on Query { ...F%d ...F%d }\n", i, i-1, i-1)
	}
	return b.String()
}

// The cost of a fragment chain is its exact expanded cost (one per
// __typename), counted in time linear in the text: the walk used to spread
// every fragment again at each use, 2^levels walks (24 levels: 7.7 s).
// Past 2^63 the count saturates instead of wrapping around.
func TestFragmentChainComplexity(t *testing.T) {
	g := newTestGraph()
	for _, c := range []struct {
		levels int
		want   int
	}{
		{40, 1 << 40},
		{62, 1 << 62},
		{63, math.MaxInt},
		{150, math.MaxInt},
	} {
		msg := refused(t, g.ask(t, fragmentChain(c.levels), ""), "COMPLEXITY_LIMIT_EXCEEDED")
		want := fmt.Sprintf("operation has complexity %d, which exceeds the limit of %d", c.want, maxComplexity)
		if msg != want {
			t.Errorf("%d levels: %q, want %q", c.levels, msg, want)
		}
	}
}

// GraphiQL's introspection query (graphql-js getIntrospectionQuery with
// every option GraphiQL and the graphql-http audit may turn on).
const graphiQLIntrospection = `
query IntrospectionQuery {
  __schema {
    description
    queryType { name }
    mutationType { name }
    subscriptionType { name }
    types { ...FullType }
    directives {
      name
      description
      isRepeatable
      locations
      args(includeDeprecated: true) { ...InputValue }
    }
  }
}
fragment FullType on __Type {
  kind
  name
  description
  specifiedByURL
  isOneOf
  fields(includeDeprecated: true) {
    name
    description
    args(includeDeprecated: true) { ...InputValue }
    type { ...TypeRef }
    isDeprecated
    deprecationReason
  }
  inputFields(includeDeprecated: true) { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) {
    name
    description
    isDeprecated
    deprecationReason
  }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue {
  name
  description
  type { ...TypeRef }
  defaultValue
  isDeprecated
  deprecationReason
}
fragment TypeRef on __Type {
  kind
  name
  ofType { kind name ofType { kind name ofType { kind name ofType { kind name
    ofType { kind name ofType { kind name ofType { kind name ofType { kind name
      ofType { kind name } } } } } } } } }
}`

// Introspection: one __schema per operation, however it is spelt, and
// __type is priced; the tools' own introspection query still passes.
func TestIntrospectionLimits(t *testing.T) {
	g := newTestGraph()

	t.Run("GraphiQL", func(t *testing.T) {
		a := g.ask(t, graphiQLIntrospection, "")
		var data struct {
			Schema struct {
				Types []struct{ Name string } `json:"types"`
			} `json:"__schema"`
		}
		if a.status != http.StatusOK || len(a.Errors) > 0 || json.Unmarshal(a.Data, &data) != nil || len(data.Schema.Types) < 50 {
			t.Fatalf("GraphiQL's introspection: %d %.500s", a.status, a.raw)
		}
		// And the one-type form tools use to refresh a type.
		a = g.ask(t, `{ __type(name: "Mutation") { ...FullType } }`+graphiQLIntrospection[strings.Index(graphiQLIntrospection, "fragment FullType"):], "")
		if a.status != http.StatusOK || len(a.Errors) > 0 {
			t.Fatalf("__type with FullType: %d %.500s", a.status, a.raw)
		}
	})

	t.Run("SchemaTwice", func(t *testing.T) {
		for _, q := range []string{
			`{ a: __schema { queryType { name } } b: __schema { queryType { name } } }`,
			`{ ...S ...S } fragment S on Query { __schema { queryType { name } } }`,
			`{ ... on Query { __schema { queryType { name } } } __schema { queryType { name } } }`,
			// The request: 300 aliases, 45 KB, answered with 20 MB.
			aliases(300, ` a%d: __schema { types { fields { args { name } type { name } } } }`),
		} {
			msg := refused(t, g.ask(t, q, ""), "INTROSPECTION_LIMIT")
			if !strings.Contains(msg, "__schema") {
				t.Errorf("%.80s: message %q does not name __schema", q, msg)
			}
		}
	})

	t.Run("ManyTypes", func(t *testing.T) {
		refused(t, g.ask(t, aliases(300, ` t%d: __type(name: "Query") { fields { args { name } type { name } } }`), ""), "COMPLEXITY_LIMIT_EXCEEDED")
		// However little each asks: 100 + 1 each.
		msg := refused(t, g.ask(t, aliases(300, ` t%d: __type(name: "Query") { name }`), ""), "COMPLEXITY_LIMIT_EXCEEDED")
		if want := fmt.Sprintf("operation has complexity %d,", 300*101); !strings.HasPrefix(msg, want) {
			t.Errorf("300 __type { name }: %q, want %s…", msg, want)
		}
		// A few are fine.
		if a := g.ask(t, aliases(20, ` t%d: __type(name: "Query") { name fields { name } }`), ""); len(a.Errors) > 0 {
			t.Errorf("20 __type: %.300s", a.raw)
		}
	})

	// Aliases below __schema and __type would multiply a list of the
	// schema each (70 aliases of types under one __schema: 2.5 s of CPU).
	t.Run("Aliases", func(t *testing.T) {
		for _, q := range []string{
			`{ __schema {` + aliases(70, ` t%d: types { fields { args { name } type { name } } }`)[1:] + ` }`,
			`{ __schema { q1: queryType { name } q2: queryType { name } } }`,
			`{ __type(name: "Query") { f: fields { name } } }`,
			`{ __type(name: "Query") { ...F } } fragment F on __Type { fields { n: name } }`,
		} {
			msg := refused(t, g.ask(t, q, ""), "INTROSPECTION_LIMIT")
			if !strings.Contains(msg, "alias") {
				t.Errorf("%.80s: %q", q, msg)
			}
		}
	})

	// Fragments on __Type that each spread the next twice: counted once
	// each, by our limits and by the introspection depth rule of
	// validation (gqlparser's walked 2^levels paths: 30 levels, minutes).
	t.Run("FragmentChain", func(t *testing.T) {
		chain := func(levels int) string {
			var b strings.Builder
			fmt.Fprintf(&b, "fragment F0 on __Type { name }\n")
			for i := 1; i <= levels; i++ {
				fmt.Fprintf(&b, "fragment F%d on __Type { ...F%d ...F%d }\n", i, i-1, i-1)
			}
			return b.String()
		}
		msg := refused(t, g.ask(t, `{ __schema { types { ...F40 } } }`+chain(40), ""), "INTROSPECTION_LIMIT")
		// __schema 1 + types (1 + 10 × 2^40 names).
		if want := fmt.Sprintf("operation has a __schema of complexity %d, which exceeds the limit of %d", 2+10<<40, maxSchemaComplexity); msg != want {
			t.Errorf("__schema chain: %q, want %q", msg, want)
		}
		msg = refused(t, g.ask(t, `{ __type(name: "Query") { ...F40 } }`+chain(40), ""), "COMPLEXITY_LIMIT_EXCEEDED")
		if want := fmt.Sprintf("operation has complexity %d, which exceeds the limit of %d", 100+1<<40, maxComplexity); msg != want {
			t.Errorf("__type chain: %q, want %q", msg, want)
		}
		// And with lists, the depth rule's verdict.
		q := `{ __type(name: "Query") { ...L40 } } fragment L0 on __Type { fields { type { fields { type { fields { name } } } } } }`
		for i := 1; i <= 40; i++ {
			q += fmt.Sprintf("\nfragment L%d on __Type { ...L%d ...L%d }", i, i-1, i-1)
		}
		if msg := refused(t, g.ask(t, q, ""), "GRAPHQL_VALIDATION_FAILED"); msg != "Maximum introspection depth exceeded" {
			t.Errorf("deep chain: %q", msg)
		}
	})
}

// aliases is an operation of n copies of field, a format with the copy's
// number.
func aliases(n int, field string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, field, i)
	}
	b.WriteString(" }")
	return b.String()
}

// Once the request's context is done, no further field is resolved, and
// the error is not logged as a server error.
func TestStopWhenDone(t *testing.T) {
	called := false
	next := func(context.Context) (any, error) { called = true; return "value", nil }
	if v, err := stopWhenDone(context.Background(), next); v != "value" || err != nil || !called {
		t.Fatalf("live request: %v, %v", v, err)
	}
	called = false
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	v, err := stopWhenDone(ctx, next)
	if called || v != nil || err == nil {
		t.Fatalf("ended request: resolved %v: %v, %v", called, v, err)
	}
	logs := &syncBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	if got := presentInputErrors(presentError(ctxLogger(func(context.Context) *slog.Logger { return logger })))(ctx, err); got.Extensions["code"] != CodeRequestEnded || logs.String() != "" {
		t.Errorf("presented as %v, logged %q", got, logs.String())
	}
}

// A resolver that failed because its client went away (a statement
// cancelled mid-flight, which the store reports as a dependency failure)
// is REQUEST_ENDED, not logged: not a fault of the server.
func TestCancelledResolverNotLogged(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	logs := &syncBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	present := presentInputErrors(presentError(ctxLogger(func(context.Context) *slog.Logger { return logger })))
	for _, err := range []error{fmt.Errorf("select boxes: %w", context.Canceled), domain.ErrUnavailable} {
		if got := present(ctx, err); got.Extensions["code"] != CodeRequestEnded {
			t.Errorf("%v presented as %v", err, got)
		}
	}
	if logs.String() != "" {
		t.Errorf("logged %q", logs.String())
	}
	// With the request alive, the same failure is a logged fault.
	if got := present(context.Background(), fmt.Errorf("select boxes: %w", context.Canceled)); got.Extensions["code"] != "INTERNAL_SERVER_ERROR" || logs.String() == "" {
		t.Errorf("a live request's failure: %v, logged %q", got, logs.String())
	}
}

// A request whose client has gone is not answered.
func TestCancelledRequest(t *testing.T) {
	g := newTestGraph()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{"query":"{ __typename }"}`)).WithContext(ctx)
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	g.h.ServeHTTP(w, req)
	if w.Body.Len() > 0 {
		t.Errorf("answered %s", w.Body.String())
	}
}

// Validation takes time about linear in the document: gqlparser's rule
// OverlappingFieldsCanBeMerged compared every pair of fields of a response
// name (20,000 __typename, 214 KB: 82 s) and walked fragments again at
// each spread (fragments that each spread the next twice, with a field to
// merge: 20 levels, 27 s). A watchdog, far above the milliseconds these
// take, turns the old behaviour into a failure rather than a hang.
func TestValidationLinear(t *testing.T) {
	g := newTestGraph()
	within := func(query string) answer {
		t.Helper()
		done := make(chan answer, 1)
		go func() { done <- g.ask(t, query, "") }()
		select {
		case a := <-done:
			return a
		case <-time.After(30 * time.Second):
			t.Fatalf("no answer in 30 s to %.100s", query)
		}
		return answer{}
	}

	// 20,000 fields of one response name: each costs 1, the limit.
	a := within("{" + strings.Repeat(" __typename", maxComplexity) + " }")
	if len(a.Errors) > 0 || string(a.Data) != `{"__typename":"Query"}` {
		t.Errorf("20,000 __typename: %.300s", a.raw)
	}

	// A chain of fragments that each merge a field and spread the next
	// twice: refused for its exact cost, 2 + 2 × the next's.
	var b strings.Builder
	b.WriteString("{ ...F40 }\nfragment V on Viewer { permissions }\nfragment F0 on Query { v: viewer { permissions } }\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "fragment F%d on Query { v: viewer { ...V } ...F%d ...F%d }\n", i, i-1, i-1)
	}
	msg := refused(t, within(b.String()), "COMPLEXITY_LIMIT_EXCEEDED")
	if want := fmt.Sprintf("operation has complexity %d,", 1<<42-2); !strings.HasPrefix(msg, want) {
		t.Errorf("merged chain: %q, want %s…", msg, want)
	}

	// Validation walks each fragment with all those it spreads: a document
	// holds at most maxFragments fragments and maxOperations operations.
	b.Reset()
	b.WriteString("{ ...F1000 }\nfragment F0 on Query { __typename }\n")
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&b, "fragment F%d on Query { ...F%d }\n", i, i-1)
	}
	if msg := refused(t, within(b.String()), "GRAPHQL_VALIDATION_FAILED"); msg != "the document has 1001 fragments, which exceeds the limit of 200" {
		t.Errorf("1,000 fragments: %q", msg)
	}
	b.Reset()
	for i := range 1000 {
		fmt.Fprintf(&b, "query Q%d { ...F }\n", i)
	}
	b.WriteString("fragment F on Query { __typename }")
	if msg := refused(t, within(b.String()), "GRAPHQL_VALIDATION_FAILED"); msg != "the document has 1000 operations, which exceeds the limit of 50" {
		t.Errorf("1,000 operations: %q", msg)
	}

	// Conflicts are still found, through fragments.
	msg = refused(t, within(`{ ...A ...B } fragment A on Query { x: viewer { permissions } } fragment B on Query { x: __typename }`), "GRAPHQL_VALIDATION_FAILED")
	if !strings.Contains(msg, `Fields "x" conflict because "viewer" and "__typename" are different fields`) {
		t.Errorf("conflict: %q", msg)
	}
}
