package e2e

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// loadConns is how many connections the load benchmarks keep busy, as
// the measurements in docs/PERFORMANCE.md do.
const loadConns = 16

// loader serves a handler on a real loopback listener and sends it
// requests from conns clients at once, each on its own keep-alive
// connection, as a load tool would: the measure includes the network,
// net/http and the client's own cost, which the two sides of a
// comparison share. newReq makes one request against the server's URL;
// each answer must have status want.
type loader struct {
	srv    *httptest.Server
	client *http.Client
	conns  int
	want   int
	newReq func(url string) *http.Request
}

func newLoader(b *testing.B, h http.Handler, conns, want int, newReq func(url string) *http.Request) *loader {
	b.Helper()
	l := &loader{srv: httptest.NewServer(h), conns: conns, want: want, newReq: newReq,
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns}}}
	b.Cleanup(func() {
		l.client.CloseIdleConnections()
		l.srv.Close()
	})
	return l
}

// one sends one request and returns its body, read into buf.
func (l *loader) one(buf *bytes.Buffer) ([]byte, error) {
	buf.Reset()
	res, err := l.client.Do(l.newReq(l.srv.URL))
	if err != nil {
		return nil, err
	}
	_, err = io.Copy(buf, res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	if res.StatusCode != l.want {
		return nil, fmt.Errorf("status %d: %.500s", res.StatusCode, buf.Bytes())
	}
	return buf.Bytes(), nil
}

// run sends n requests from the conns clients and returns the wall time
// they took. Every status is checked; check (when not nil) reads each
// client's last body, after the clock has stopped.
func (l *loader) run(n int, check func(body []byte) error) (time.Duration, error) {
	var left atomic.Int64
	left.Store(int64(n))
	var failed atomic.Value
	var wg sync.WaitGroup
	last := make([]*bytes.Buffer, l.conns)
	start := time.Now()
	for i := range l.conns {
		last[i] = &bytes.Buffer{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for left.Add(-1) >= 0 {
				if _, err := l.one(last[i]); err != nil {
					failed.Store(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err, _ := failed.Load().(error); err != nil {
		return elapsed, err
	}
	for _, body := range last {
		if check != nil && body.Len() > 0 {
			if err := check(body.Bytes()); err != nil {
				return elapsed, err
			}
		}
	}
	return elapsed, nil
}

// warm sends the first request, whose answer is checked before timing.
func (l *loader) warm(b *testing.B, check func(body []byte) error) []byte {
	b.Helper()
	body, err := l.one(&bytes.Buffer{})
	if err == nil && check != nil {
		err = check(body)
	}
	if err != nil {
		b.Fatal(err)
	}
	return body
}

// benchLoad sends h b.N requests from conns clients (a loader) and
// reports requests per second. The first answer and every client's last
// one must pass check (when not nil).
func benchLoad(b *testing.B, h http.Handler, conns, want int, newReq func(url string) *http.Request, check func(body []byte) error) {
	b.Helper()
	l := newLoader(b, h, conns, want, newReq)
	l.warm(b, check)
	b.ReportAllocs()
	b.ResetTimer()
	elapsed, err := l.run(b.N, check)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
}

// side is one side of a comparison: run serves n requests and returns
// the wall time they took, or the first wrong answer.
type side struct {
	name string
	run  func(n int) (time.Duration, error)
}

// benchAgainst times the service against its reference in one
// benchmark, alternating them so that the machine's drift during the run
// weighs on both alike: b.N requests to each, in up to 10 rounds, the
// order of the two swapped every round. It reports each side's requests
// per second, allocations and bytes per request (the process's, as
// b.ReportAllocs counts them), and the ratio of the service's rate to
// the reference's; ns/op is one request to each.
func benchAgainst(b *testing.B, service, reference side) {
	b.Helper()
	sides := [2]side{service, reference}
	var took [2]time.Duration
	var allocs, heap [2]uint64
	rounds := min(b.N, 10)
	b.ReportAllocs()
	b.ResetTimer()
	for r := range rounds {
		n := b.N / rounds
		if r < b.N%rounds {
			n++
		}
		for k := range 2 {
			i := (r + k) % 2 // the service first in even rounds, the reference in odd ones
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			d, err := sides[i].run(n)
			runtime.ReadMemStats(&after)
			if err != nil {
				b.Fatalf("%s: %v", sides[i].name, err)
			}
			took[i] += d
			allocs[i] += after.Mallocs - before.Mallocs
			heap[i] += after.TotalAlloc - before.TotalAlloc
		}
	}
	b.StopTimer()
	rate := [2]float64{}
	for i, s := range sides {
		rate[i] = float64(b.N) / took[i].Seconds()
		b.ReportMetric(rate[i], s.name+"-req/s")
		b.ReportMetric(float64(allocs[i])/float64(b.N), s.name+"-allocs/req")
		b.ReportMetric(float64(heap[i])/float64(b.N), s.name+"-B/req")
	}
	b.ReportMetric(rate[0]/rate[1], "ratio")
}

// loadSide is the side of a comparison that loads h over loopback TCP
// from conns clients, checking its first answer and each client's last
// with check.
func loadSide(b *testing.B, name string, h http.Handler, conns, want int, newReq func(url string) *http.Request,
	check func(body []byte) error) side {
	l := newLoader(b, h, conns, want, newReq)
	l.warm(b, check)
	return side{name: name, run: func(n int) (time.Duration, error) { return l.run(n, check) }}
}
