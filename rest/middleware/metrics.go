package middleware

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the HTTP metrics of one server, registered on its registry.
type Metrics struct {
	duration *prometheus.HistogramVec
	statuses *prometheus.CounterVec
	inFlight prometheus.Gauge
}

// RouteUnmatched labels the requests no route matched (404s, and 405s the
// router answered), so that unknown paths cannot grow the label set.
const RouteUnmatched = "unmatched"

// RoutePreflight labels the CORS preflights CORS answers itself.
const RoutePreflight = "cors_preflight"

// NewMetrics registers the HTTP metrics on reg:
//
//	salesplatform_http_request_duration_seconds{method,route}  histogram
//	salesplatform_http_responses_total{method,route,class}    counter (class 1xx…5xx)
//	salesplatform_http_requests_in_flight                      gauge
//
// route is the mux route template ("/graphql", "/api/v2/partners/{id}/").
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "salesplatform",
			Name:      "http_request_duration_seconds",
			Help:      "Time to answer an HTTP request, by method and route template.",
			Buckets:   []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"method", "route"}),
		statuses: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "salesplatform",
			Name:      "http_responses_total",
			Help:      "HTTP responses, by method, route template and status class (2xx…).",
		}, []string{"method", "route", "class"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "salesplatform",
			Name:      "http_requests_in_flight",
			Help:      "HTTP requests being answered.",
		}),
	}
	reg.MustRegister(m.duration, m.statuses, m.inFlight)
	return m
}

type routeKey struct{}

// routeHolder receives the template of the route that matched, from inside
// the router (Route), for Observe outside it.
type routeHolder struct{ template string }

// Observe measures each request; the router must run Route (mux's Use) so
// that the route template is known.
func (m *Metrics) Observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		holder := &routeHolder{}
		rec := &statusRecorder{ResponseWriter: w}
		start := time.Now()
		m.inFlight.Inc()
		defer func() {
			p := recover() // an aborted request (http.ErrAbortHandler) still counts
			m.inFlight.Dec()
			route := holder.template
			if route == "" {
				route = RouteUnmatched
			}
			status := rec.status
			switch {
			case p != nil && status == 0:
				status = http.StatusInternalServerError
			case status == 0:
				status = http.StatusOK // nothing written: net/http answers 200
			}
			method := methodLabel(r.Method)
			m.duration.WithLabelValues(method, route).Observe(time.Since(start).Seconds())
			m.statuses.WithLabelValues(method, route, strconv.Itoa(status/100)+"xx").Inc()
			if p != nil {
				panic(p)
			}
		}()
		next.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), routeKey{}, holder)))
	})
}

// Route is the mux middleware that records the matched route's template
// for Observe.
func Route(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h, ok := r.Context().Value(routeKey{}).(*routeHolder); ok {
			if cur := mux.CurrentRoute(r); cur != nil {
				if t, err := cur.GetPathTemplate(); err == nil {
					h.template = RouteLabel(t)
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// RouteLabel is a route template as a label: variables lose their patterns
// ("{id:[0-9]+}" is "{id}"), and the optional trailing slash of the legacy
// routes ("{slash:/?}") is "/".
func RouteLabel(template string) string {
	var b strings.Builder
	for i := 0; i < len(template); i++ {
		if template[i] != '{' {
			b.WriteByte(template[i])
			continue
		}
		depth, end := 0, len(template)
		for j := i; j < len(template); j++ { // mux allows balanced braces in patterns
			if template[j] == '{' {
				depth++
			} else if template[j] == '}' {
				if depth--; depth == 0 {
					end = j
					break
				}
			}
		}
		name, _, _ := strings.Cut(template[i+1:min(end, len(template))], ":")
		if name == "slash" {
			b.WriteByte('/')
		} else {
			b.WriteString("{" + name + "}")
		}
		i = end
	}
	return b.String()
}

// methodLabel keeps the method label set bounded.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions:
		return m
	}
	return "other"
}
