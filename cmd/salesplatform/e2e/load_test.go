package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// loadConns is how many connections the load benchmarks keep busy, as
// the measurements in docs/PERFORMANCE.md do.
const loadConns = 16

// benchLoad serves h on a real loopback listener and sends it b.N
// requests from conns clients at once, each on its own keep-alive
// connection, as a load tool would: the measure includes the network,
// net/http and the client's own cost, which the two sides of a
// comparison share. newReq makes one request against the server's URL;
// each answer must have status want. It reports requests per second.
func benchLoad(b *testing.B, h http.Handler, conns, want int, newReq func(url string) *http.Request) {
	b.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns}}
	defer client.CloseIdleConnections()
	do := func() error {
		res, err := client.Do(newReq(srv.URL))
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != want {
			return &statusError{res.StatusCode}
		}
		return nil
	}
	if err := do(); err != nil { // warm: the first answer is checked before timing
		b.Fatal(err)
	}
	var left atomic.Int64
	left.Store(int64(b.N))
	var failed atomic.Value
	var wg sync.WaitGroup
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for left.Add(-1) >= 0 {
				if err := do(); err != nil {
					failed.Store(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if err, _ := failed.Load().(error); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
}

type statusError struct{ status int }

func (e *statusError) Error() string { return "status " + http.StatusText(e.status) }
