package middleware_test

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"

	"salesplatform/rest/middleware"
)

func TestRouteLabel(t *testing.T) {
	for tpl, want := range map[string]string{
		"/graphql":                                 "/graphql",
		"/api/v2/partners/{id:[0-9]+}{slash:/?}":   "/api/v2/partners/{id}/",
		"/api/v2/gift/{code}{slash:/?}":            "/api/v2/gift/{code}/",
		"/api/vouchers/{code}/{x:[a-z]{2}}/{y:.*}": "/api/vouchers/{code}/{x}/{y}",
	} {
		if got := middleware.RouteLabel(tpl); got != want {
			t.Errorf("RouteLabel(%q) = %q, want %q", tpl, got, want)
		}
	}
}

func TestMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := middleware.NewMetrics(reg)
	r := mux.NewRouter()
	r.HandleFunc("/items/{id:[0-9]+}", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNotFound) })
	r.HandleFunc("/ok", func(http.ResponseWriter, *http.Request) {})
	r.HandleFunc("/panic", func(http.ResponseWriter, *http.Request) { panic("boom") })
	r.Use(middleware.Route)
	h := m.Observe(r)
	for _, path := range []string{"/items/1", "/items/2", "/ok", "/nowhere"} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil))
	}
	func() {
		defer func() { _ = recover() }()
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/panic", nil))
	}()
	got := map[string]float64{}
	durations := 0
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		for _, metric := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range metric.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			switch f.GetName() {
			case "salesplatform_http_responses_total":
				got[labels["method"]+" "+labels["route"]+" "+labels["class"]] = metric.GetCounter().GetValue()
			case "salesplatform_http_request_duration_seconds":
				durations++
			}
		}
	}
	want := map[string]float64{
		"GET /ok 2xx":         1,
		"GET /items/{id} 4xx": 2,
		"GET unmatched 4xx":   1,
		"POST /panic 5xx":     1,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("responses %v, want %v", got, want)
	}
	if durations != 4 {
		t.Errorf("%d duration series, want 4", durations)
	}
}
