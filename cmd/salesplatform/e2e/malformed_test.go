package e2e

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gorilla/mux"
	"github.com/vektah/gqlparser/v2/ast"

	"salesplatform/cmd/salesplatform/app"
	"salesplatform/domain/cart"
	"salesplatform/graph"
	"salesplatform/persistence/cartstore"
	"salesplatform/persistence/dbtest"
	"salesplatform/rest/middleware"
)

// The malformed-input walk: every registered REST route, with every method
// it serves and one it does not, gets malformed path values, query strings,
// bodies and content types, anonymously and as staff; every root field of
// the graph gets arguments of the wrong type and out-of-range values. No
// answer may be a 5xx, and the log may hold no error nor panic: bad input
// is the client's 4xx, never the server's fault.

// malformedPathValues replace every path variable in turn.
var malformedPathValues = []string{
	"0", "-1", "99999999999999999999999", "1e400", "abc", "%00", "%27%3B%20DROP%20TABLE%20x",
	strings.Repeat("x", 5000), "00000000-0000-0000-0000-000000000000", "5eed0000000000000000000000000001",
	"DEMO-VOUCHER-1", "1", "%FF", "%C0%80", "%ED%A0%80", "DEMO-NV-PAID%00", "1%00",
}

// malformedQueries are sent to every route that reads.
var malformedQueries = []string{
	"page=0", "page=-1", "page=abc", "page=99999999999999999999", "page_size=100000", "page_size=-5",
	"page_size=1e400", "ordering=nonsense", "ordering=-id,-code,,", "creation_date__gte=0001-01-01",
	"creation_date__lte=0001-01-01T00:00:00%2B14:00", "creation_date__range=a,b,c",
	"creation_date__range=0000-01-01,9999-12-31", "created_on__gte=9999-12-31T23:59:59-14:00",
	"created_on__range=0001-01-01,0001-01-02", "search=" + strings.Repeat("é", 3000), "%zz", "cart=not-a-uuid",
	"is_active=maybe", "type=%00", "universe=1e400", "partner=abc", "partner_uuid=zz", "code=%00",
	"date=0000-00-00", "date_from=99999-01-01", "start_date=-1", "unused=" + strings.Repeat("a", 10000),
	"search=%FF", "email=%C0%80", "code=%ED%A0%80", "%00=1",
}

// malformedBodies are sent to every route that writes: content type, body.
var malformedBodies = [][2]string{
	{"application/json", ""},
	{"application/json", "null"},
	{"application/json", "[]"},
	{"application/json", `"x"`},
	{"application/json", "1e400"},
	{"application/json", "{"},
	{"application/json", `{"a":`},
	{"application/json", strings.Repeat("[", 100000)},
	{"application/json", `{"a": ` + strings.Repeat(`{"a": `, 5000) + "1" + strings.Repeat("}", 5001)},
	{"application/json", `{"id": "x", "name": 1, "items": "x", "quantity": 1e400, "code": [], "value": -1e308,
		"partner_uuid": "zz", "page": {}, "state": null, "name_fr": 5, "universe": 1e400, "images": [1e400, "x", null],
		"cover_image": -1, "stay_price": "NaN", "selling_price": 1e400, "starting_datetime": "0000-01-01T00:00:00Z",
		"last_active_day": "0000-01-01", "return_url": 5, "username": ["a"], "password": {}, "gift_code": 1,
		"email": "a@", "category": "x", "voucher_prototypes": {}, "min_number_options": 99999999999999999999}`},
	{"application/json", `{"items": [{"product_id": 99999999999999999999, "quantity": -1e400, "attribute_values": {"x": 1}}],
		"return_url": "javascript:alert(1)", "id": "00000000-0000-0000-0000-000000000000"}`},
	{"application/json", `{"stay_price": 1e400, "adults_price": "-0.0000000000001", "max_capacity": 2147483648,
		"ranking": -99999999999, "last_active_day": "9999-99-99", "type": "x", "price_scope": 1.5}`},
	{"application/json", `{"state": "used", "username": "` + strings.Repeat("u", 300) + `", "password": "p"}`},
	{"application/json", "\xff\xfe"},
	{"application/json; charset=latin1", "{}"},
	{"text/plain", "hello"},
	{"", "{}"},
	{"application/x-www-form-urlencoded", "a=%zz&b"},
	{"application/x-www-form-urlencoded", "name=" + strings.Repeat("x", 100000)},
	{"multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\n\r\nnot a png\r\n--x--\r\n"},
	{"multipart/form-data; boundary=x", "garbage"},
	{"multipart/form-data", "--x--"},
	{"application/json", `{"a": "` + strings.Repeat("x", 11<<20) + `"}`},
	{"application/json", `{"code": "\u0000", "name": "a\u0000", "comment": "\u0000", "partner_source_id": "1\u0000", "creation_date": "2024-01-01\u0000",
		"username": "\u0000", "password": "\u0000", "items": [{"product_id": "\u0000"}], "return_url": "https://a.example/\u0000"}`},
	{"application/json", "{\"code\": \"\xc0\x80\", \"name\": \"\xed\xa0\x80\"}"},
	{"application/json", `{"code": "\ud800", "name": "\udfff"}`},
	{"application/x-www-form-urlencoded", "code=%00&name=%FF&comment=%C0%80&partner_source_id=%ED%A0%80"},
}

var pathVariable = regexp.MustCompile(`\{[^{}]*(\{[^{}]*\}[^{}]*)*\}`)

// malformedRequest is one request of the walk.
type malformedRequest struct {
	method, target, contentType, body, token string
}

// malformedServer is the whole handler in the test process on the demo
// data: its router, the handler, the log and demo-staff's token.
func malformedServer(t *testing.T) (router *mux.Router, h http.Handler, log *SyncBuffer, staff string) {
	t.Helper()
	dsn := dbtest.NewDSN(t)
	dataDir := t.TempDir()
	staff = SeedDemo(t, dsn, dataDir)["demo-staff"]
	if staff == "" {
		t.Fatal("seed demo printed no token for demo-staff")
	}
	db := OpenDB(t, dsn)
	log = &SyncBuffer{}
	cfg := &app.Config{PasswordHashing: dbtest.CheapHashing, DataDir: dataDir, CartTTL: cart.DefaultCartTTL, PublicBaseURL: "http://127.0.0.1"}
	carts := cartstore.NewMemory(1000)
	t.Cleanup(carts.Close)
	router, accounts := app.NewRouter(db, carts, cfg, app.NewLogger(log, 0))
	h = middleware.Observe(app.NewLogger(log, 0))(middleware.Authenticate(accounts, nil, middleware.ClientIPs{})(router))
	return router, h, log, staff
}

func TestMalformedInputs(t *testing.T) {
	router, h, log, staff := malformedServer(t)

	var reqs []malformedRequest
	add := func(method, target, ct, body string) {
		for _, tok := range []string{"", staff} {
			reqs = append(reqs, malformedRequest{method, target, ct, body, tok})
		}
	}
	walked := 0
	err := router.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		tpl, err := route.GetPathTemplate()
		if err != nil {
			return nil // a prefix route without a template of its own
		}
		methods, _ := route.GetMethods()
		if len(methods) == 0 {
			methods = []string{http.MethodGet, http.MethodPost}
		}
		walked++
		fill := func(v string) string {
			// The optional slash first: it is no variable to fill.
			return pathVariable.ReplaceAllString(strings.ReplaceAll(tpl, "{slash:/?}", "/"), v)
		}
		path := fill("1")
		for _, v := range malformedPathValues {
			for _, m := range methods {
				add(m, fill(v), "application/json", "{}")
			}
		}
		add(http.MethodDelete, path, "", "")
		add("BREW", path, "", "")
		for _, m := range methods {
			switch m {
			case http.MethodGet, http.MethodHead, http.MethodOptions:
				for _, q := range malformedQueries {
					add(m, path+"?"+q, "", "")
				}
			default:
				for _, b := range malformedBodies {
					add(m, path, b[0], b[1])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if walked < 40 {
		t.Fatalf("walked only %d routes", walked)
	}
	for _, doc := range malformedGraphQL(t) {
		add(http.MethodPost, "/graphql", "application/json", doc)
	}

	// Four at a time, as concurrent clients would.
	work := make(chan malformedRequest)
	var mu sync.Mutex
	var failures []string
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range work {
				status, body := serveMalformed(t, h, r)
				if status >= 500 || strings.Contains(body, "INTERNAL_SERVER_ERROR") {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("%s %.200s [%s %.120q] token=%v: %d %.300s",
						r.method, r.target, r.contentType, r.body, r.token != "", status, body))
					mu.Unlock()
				}
			}
		}()
	}
	for _, r := range reqs {
		work <- r
	}
	close(work)
	wg.Wait()
	t.Logf("%d routes, %d requests", walked, len(reqs))
	slices.Sort(failures)
	for i, f := range failures {
		if i == 30 {
			t.Errorf("… and %d more", len(failures)-30)
			break
		}
		t.Error(f)
	}
	for line := range strings.SplitSeq(log.String(), "\n") {
		if strings.Contains(line, `"level":"ERROR"`) || strings.Contains(line, "panic") {
			t.Errorf("log: %.500s", line)
		}
	}
}

// serveMalformed sends r to h; the answer must match the OpenAPI document
// like any other (CheckContract).
func serveMalformed(t *testing.T, h http.Handler, r malformedRequest) (int, string) {
	t.Helper()
	req := httptest.NewRequest(r.method, "http://salesplatform.test"+r.target, strings.NewReader(r.body))
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	if r.token != "" {
		req.Header.Set("Authorization", "Token "+r.token)
	}
	req.Header.Set("X-Partner-Domain", "chateau.localhost")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	b, _ := io.ReadAll(rec.Result().Body)
	CheckContract(t, req, rec.Code, rec.Header(), b)
	return rec.Code, string(b)
}

// malformedGraphQL is, for every root field of the graph, documents whose
// arguments are all of one wrong or out-of-range value, and documents
// whose variables are.
func malformedGraphQL(t *testing.T) []string {
	t.Helper()
	schema := graph.NewExecutableSchema(graph.Config{Resolvers: &graph.Resolver{}}).Schema()
	literals := []string{"1e400", "-1", "99999999999999999999999", `"x"`, `"0000-01-01T00:00:00Z"`, "null", "[]", "{}",
		`"` + strings.Repeat("9", 400) + `"`, "1.5", "true", `"00000000-0000-0000-0000-000000000000"`,
		`"DEMO-NV-PAID\u0000"`, `"\ud800"`, "\"\xff\"", `{code: "\u0000", partnerSourceId: "1", creationDate: "2024-01-01"}`}
	var docs []string
	for _, root := range []*ast.Definition{schema.Query, schema.Mutation} {
		op := "query"
		if root == schema.Mutation {
			op = "mutation"
		}
		for _, f := range root.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			sel := ""
			if def := schema.Types[f.Type.Name()]; def != nil && (def.Kind == ast.Object || def.Kind == ast.Interface || def.Kind == ast.Union) {
				sel = " { __typename }"
			}
			for _, lit := range literals {
				args := make([]string, len(f.Arguments))
				for i, a := range f.Arguments {
					args[i] = a.Name + ": " + lit
				}
				call := f.Name
				if len(args) > 0 {
					call += "(" + strings.Join(args, ", ") + ")"
				}
				docs = append(docs, jsonQuery(op+" { "+call+sel+" }", nil))
			}
			// The same through variables, which gqlgen coerces apart.
			if len(f.Arguments) == 0 {
				continue
			}
			var decls, args []string
			for i, a := range f.Arguments {
				decls = append(decls, fmt.Sprintf("$v%d: %s", i, a.Type.String()))
				args = append(args, fmt.Sprintf("%s: $v%d", a.Name, i))
			}
			doc := op + "(" + strings.Join(decls, ", ") + ") { " + f.Name + "(" + strings.Join(args, ", ") + ")" + sel + " }"
			for _, lit := range literals {
				vars := map[string]string{}
				for i := range f.Arguments {
					vars[fmt.Sprintf("v%d", i)] = lit
				}
				docs = append(docs, jsonQuery(doc, vars))
			}
		}
	}
	return docs
}

// jsonQuery is a GraphQL request body; vars maps names to raw JSON values.
func jsonQuery(query string, vars map[string]string) string {
	q := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(query)
	if len(vars) == 0 {
		return `{"query": "` + q + `"}`
	}
	parts := make([]string, 0, len(vars))
	for k, v := range vars {
		parts = append(parts, `"`+k+`": `+v)
	}
	return `{"query": "` + q + `", "variables": {` + strings.Join(parts, ", ") + `}}`
}

// TestTextInputsAreRefused: a NUL or bytes that are not UTF-8 in a path,
// a query parameter, a body or a GraphQL value is a 400 (BAD_USER_INPUT),
// before any service: PostgreSQL refused them (a 500), and Bun dropped the
// NUL of a code, so that DEMO-NV-PAID%00 found DEMO-NV-PAID.
func TestTextInputsAreRefused(t *testing.T) {
	_, h, log, staff := malformedServer(t)
	const (
		nul     = `{"detail": "Malformed URL path: Null characters are not allowed."}`
		notUTF8 = `{"detail": "Malformed URL path: Enter text in valid UTF-8."}`
	)
	use := `{"partner_source_id": "1", "creation_date": "2024-01-01"}`
	for _, c := range []struct{ method, target, contentType, body, want string }{
		{"GET", "/api/networkvouchers_by_code/DEMO-NV-PAID%00/", "", "", nul},
		{"GET", "/api/networkvouchers_by_code/DEMO-NV-PAID%FF/", "", "", notUTF8},
		{"GET", "/api/networkvouchers_by_code/DEMO-NV-PAID/usages/?page=%C0%80", "", "", `{"detail": "Malformed query string: Enter text in valid UTF-8."}`},
		{"GET", "/api/networkvouchers_by_email/a%00@example.com/", "", "", nul},
		{"GET", "/api/networkvouchers_by_code/DEMO-NV-PAID/usages/?page=1%00", "", "", `{"detail": "Malformed query string: Null characters are not allowed."}`},
		{"GET", "/api/v2/gift/DEMO%00/", "", "", nul},
		{"POST", "/api/networkvouchers_by_code/%00/use/", "application/json", use, nul},
		{"POST", "/api/networkvouchers_by_code/%FF/use/", "application/json", use, notUTF8},
		{"POST", "/api/networkvouchers_by_code/%C0%80/use/", "application/json", use, notUTF8},
		{"POST", "/api/networkvouchers_by_code/%ED%A0%80/use/", "application/json", use, notUTF8},
		{"POST", "/api/networkvouchers_by_code/DEMO-NV-PAID%00/use_with_service_id/", "application/json", `{"partner_id": 1, "creation_date": "2024-01-01"}`, nul},
		{"POST", "/api/networkvouchers_by_code/%ED%A0%80/use_with_service_id/", "application/json", `{"partner_id": 1, "creation_date": "2024-01-01"}`, notUTF8},
		{"POST", "/api/networkvouchers_by_code/DEMO-NV-PAID/use/", "application/json",
			`{"partner_source_id": "1\u0000", "creation_date": "2024-01-01", "comment": "a\u0000"}`,
			`{"partner_source_id": ["Null characters are not allowed."], "comment": ["Null characters are not allowed."]}`},
		{"POST", "/api/networkvouchers_by_code/DEMO-NV-PAID/use/", "application/json",
			"{\"partner_source_id\": \"1\", \"creation_date\": \"2024-01-01\", \"comment\": \"\xff\"}", `{"detail": "JSON parse error - Enter text in valid UTF-8."}`},
		{"POST", "/api/networkvouchers_by_code/DEMO-NV-PAID/use/", "application/json",
			`{"partner_source_id": "1", "creation_date": "2024-01-01", "comment": "\ud800"}`, `{"detail": "JSON parse error - Enter text in valid UTF-8."}`},
		{"POST", "/api/networkvouchers_by_code/DEMO-NV-PAID/use/", "application/x-www-form-urlencoded",
			"partner_source_id=1&creation_date=2024-01-01&comment=%ED%A0%80", `{"comment": ["Enter text in valid UTF-8."]}`},
	} {
		status, body := serveMalformed(t, h, malformedRequest{c.method, c.target, c.contentType, c.body, staff})
		WantResponse(t, Response{Status: status, Body: body}, http.StatusBadRequest, c.want)
	}
	if status, body := serveMalformed(t, h, malformedRequest{"GET", "/api/networkvouchers_by_code/DEMO-NV-PAID/", "", "", staff}); status != http.StatusOK {
		t.Errorf("DEMO-NV-PAID: %d %s", status, body)
	}
	// The payment request page answers its own 404 page.
	for _, m := range []string{"GET", "POST"} {
		if status, body := serveMalformed(t, h, malformedRequest{m, "/pay/%00/", "", "", ""}); status != http.StatusNotFound || !strings.Contains(body, "<html") {
			t.Errorf("%s /pay/%%00/: %d %.200s", m, status, body)
		}
	}

	const mutation = `mutation($in: RecordNetworkVoucherUsageInput!) { recordNetworkVoucherUsage(input: $in) { usage { id } } }`
	for _, c := range []struct{ doc, want string }{
		{jsonQuery(`mutation { recordNetworkVoucherUsage(input: {code: "\u0000", partnerSourceId: "1", creationDate: "2024-01-01"}) { usage { id } } }`, nil),
			`{"errors": [{"message": "Null characters are not allowed.", "locations": [{"line": 1, "column": 53}], "extensions": {"code": "BAD_USER_INPUT"}}]}`},
		{jsonQuery(mutation, map[string]string{"in": `{"code": "DEMO-NV-PAID\u0000", "partnerSourceId": "1", "creationDate": "2024-01-01"}`}),
			`{"errors": [{"message": "Null characters are not allowed.", "path": ["variable", "in", "code"], "extensions": {"code": "BAD_USER_INPUT"}}]}`},
		{jsonQuery(mutation, map[string]string{"in": `{"code": "\udc00", "partnerSourceId": "1", "creationDate": "2024-01-01"}`}),
			`{"errors": [{"message": "the request is not text: Enter text in valid UTF-8.", "extensions": {"code": "BAD_USER_INPUT"}}]}`},
	} {
		status, body := serveMalformed(t, h, malformedRequest{"POST", "/graphql", "application/json", c.doc, staff})
		if status != http.StatusOK && status != http.StatusBadRequest {
			t.Errorf("%s: %d", c.doc, status)
		}
		WantResponse(t, Response{Status: status, Body: body}, status, c.want)
	}
	for line := range strings.SplitSeq(log.String(), "\n") {
		if strings.Contains(line, `"level":"ERROR"`) {
			t.Errorf("log: %.500s", line)
		}
	}
}
