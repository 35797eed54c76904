package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/uptrace/bun"

	"salesplatform/cmd/salesplatform/demo"
	"salesplatform/persistence/dbtest"
	"salesplatform/rest/openapi"
)

// TestOpenAPITour calls every operation of rest/openapi/openapi.yaml on
// the demo dataset, through Do, so that each one has at least one success
// checked against the document (Do checks every response), whatever the
// other tests happen to call. Each area keeps its steps in
// openapi_tour_<area>_test.go.
func TestOpenAPITour(t *testing.T) {
	t.Parallel()
	tr := newTour(t)
	// The funnel last: its shop's payments would change what the
	// payments' steps find.
	for _, steps := range [][]tourStep{catalogueTour, adminTour, networkTour, paymentsTour, ecommerceTour, webhooksTour, serviceTour, {tourFunnel}} {
		for _, step := range steps {
			step(tr)
		}
	}
	wantEveryOperation(t)
}

// tourStep is one step of the tour: it calls the operations of an area.
type tourStep func(*tour)

// tour is the demo dataset served, and what its steps share.
type tour struct {
	t      *testing.T
	data   *demo.Dataset
	dsn    string
	srv    *Server
	tokens map[string]string
	// staff is staff's Authorization header value; admin the header.
	staff string
	admin []string
	// marketplaceUUID is a demo marketplace's, the first.
	marketplaceUUID string
	db              *bun.DB
}

func newTour(t *testing.T) *tour {
	t.Helper()
	data, err := demo.Data()
	if err != nil {
		t.Fatal(err)
	}
	dsn := dbtest.NewDSN(t)
	dataDir := t.TempDir()
	tokens := SeedDemo(t, dsn, dataDir)
	srv := Serve(t, dsn, "--data-dir", dataDir, "--webhook-allowed-networks", "127.0.0.0/8")
	staff := "Token " + tokens[data.Staff.Username]
	tr := &tour{t: t, data: data, dsn: dsn, srv: srv, tokens: tokens, staff: staff, admin: []string{"Authorization", staff},
		db: OpenDB(t, dsn)}
	gcMust(t, tr.db.NewRaw("SELECT uuid::text FROM partners WHERE is_marketplace ORDER BY id LIMIT 1").
		Scan(context.Background(), &tr.marketplaceUUID))
	return tr
}

// call sends a request to the served demo (Do checks the answer against
// the document).
func (tr *tour) call(method, path, body string, headers ...string) Response {
	tr.t.Helper()
	return Do(tr.t, method, tr.srv.URL+path, body, headers...)
}

// list is the items of a list answer, paginated or not.
func (tr *tour) list(res Response) []map[string]any {
	tr.t.Helper()
	var v any
	if err := json.Unmarshal([]byte(res.Body), &v); err != nil {
		return nil
	}
	if m, ok := v.(map[string]any); ok {
		v = m["results"]
	}
	var out []map[string]any
	items, _ := v.([]any)
	for _, it := range items {
		if m, ok := it.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// tourID is an id of a JSON answer as a path takes it.
func tourID(v any) string { return strings.TrimSuffix(fmt.Sprint(v), ".0") }

// serviceTour is the service's own routes.
var serviceTour = []tourStep{func(tr *tour) {
	for _, path := range []string{"/healthz", "/readyz", "/api/schema/", "/api/schema/?format=json", "/api/schema/openapi.json",
		"/api/schema/docs/", "/api/schema/docs/viewer.js", "/api/schema/docs/LICENSE.redoc"} {
		tr.call("GET", path, "")
	}
}}

// wantEveryOperation fails for each operation without a success checked
// against the document.
func wantEveryOperation(t *testing.T) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(openapi.YAML)
	if err != nil {
		t.Fatal(err)
	}
	seen := CheckedOperations()
	var missing []string
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			ok := false
			for s := range op.Responses.Map() {
				// A success, or the redirect of a page's form.
				if (strings.HasPrefix(s, "2") || s == "303") && seen[op.OperationID+" "+s] {
					ok = true
				}
			}
			if !ok {
				missing = append(missing, method+" "+path+" ("+op.OperationID+")")
			}
		}
	}
	slices.Sort(missing)
	for _, m := range missing {
		t.Errorf("no success of %s was checked against the document", m)
	}
}
