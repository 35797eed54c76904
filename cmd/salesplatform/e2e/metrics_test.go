package e2e

import (
	"regexp"
	"strings"
	"testing"

	"salesplatform/persistence/dbtest"
)

// TestMetrics sends a few requests and reads them back from /metrics, by
// route template (not raw path) and status class, with the database pool,
// cart store and runtime metrics beside them.
func TestMetrics(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewDSN(t)
	token := CreateUser(t, dsn, "--username", "shop", "--password", "shop-password", "--partner-name", "Shop")
	s := Serve(t, dsn, "--cors-origins", "http://front.test")
	WantResponse(t, Do(t, "GET", s.URL+"/healthz", ""), 200, "")
	WantResponse(t, Do(t, "GET", s.URL+"/api/v2/partners/12345/", "", "Authorization", "Token "+token), 404, "")
	WantResponse(t, Do(t, "GET", s.URL+"/api/v2/partners/67890", "", "Authorization", "Token "+token), 404, "")
	WantResponse(t, Do(t, "POST", s.URL+"/graphql", `{"query":"{ __typename }"}`), 200, "")
	WantResponse(t, Do(t, "POST", s.URL+"/api/v2/ecommerce/cart/", `{"items":[{"product_id":1,"quantity":1}]}`,
		"Authorization", "Token "+token), 201, "")
	WantResponse(t, Do(t, "GET", s.URL+"/no/such/path/4242", ""), 404, "")
	WantResponse(t, Do(t, "OPTIONS", s.URL+"/graphql", "", "Origin", "http://front.test", "Access-Control-Request-Method", "POST"), 204, "")

	res := Do(t, "GET", s.URL+"/metrics", "")
	if res.Status != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("%d %v", res.Status, res.Header)
	}
	body := res.Body
	for _, want := range []string{
		`salesplatform_http_request_duration_seconds_count{method="GET",route="/healthz/"} 1`,
		`salesplatform_http_responses_total{class="2xx",method="GET",route="/healthz/"} 1`,
		// Both partner paths are one route, with or without the slash.
		`salesplatform_http_request_duration_seconds_count{method="GET",route="/api/v2/partners/{id}/"} 2`,
		`salesplatform_http_responses_total{class="4xx",method="GET",route="/api/v2/partners/{id}/"} 2`,
		`salesplatform_http_responses_total{class="2xx",method="POST",route="/graphql"} 1`,
		`salesplatform_http_responses_total{class="2xx",method="POST",route="/api/v2/ecommerce/cart/"} 1`,
		`salesplatform_http_responses_total{class="4xx",method="GET",route="unmatched"} 1`,
		`salesplatform_http_responses_total{class="2xx",method="OPTIONS",route="cors_preflight"} 1`,
		`salesplatform_http_request_duration_seconds_bucket{method="POST",route="/graphql",le="+Inf"} 1`,
		`salesplatform_http_requests_in_flight 1`, // this request
		`salesplatform_carts_in_memory 1`,
		`go_sql_max_open_connections{db_name="salesplatform"}`,
		`go_sql_in_use_connections{db_name="salesplatform"}`,
		`go_sql_idle_connections{db_name="salesplatform"}`,
		`go_sql_wait_count_total{db_name="salesplatform"}`,
		`go_sql_wait_duration_seconds_total{db_name="salesplatform"}`,
		`go_goroutines `,
		`process_open_fds `,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	// No raw path becomes a label.
	if m := regexp.MustCompile(`route="[^"]*(12345|67890|4242)`).FindString(body); m != "" {
		t.Errorf("a raw path is a label: %s", m)
	}
	if t.Failed() {
		t.Logf("/metrics:\n%s", body)
	}
}
