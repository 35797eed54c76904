package e2e

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"salesplatform/persistence/dbtest"
)

// keptAlive opens a connection from the loopback address source to host,
// sends GET /healthz and reads the answer, leaving the connection open
// and idle; it returns nil when the server closed (or reset) it unserved.
func keptAlive(host, source string) net.Conn {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(source)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", host)
	if err != nil {
		return nil
	}
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"); err == nil {
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err == nil {
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				_ = c.SetDeadline(time.Time{})
				return c
			}
		}
	}
	c.Close()
	return nil
}

// clientFrom is an HTTP client whose connections come from the loopback
// address source.
func clientFrom(source string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(source)}}
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
}

// One address holding more idle connections than MAX_CONNS_PER_IP gets
// the rest reset at accept, and a client from another address is served
// at once, though that address opened more connections than MAX_CONNS.
func TestConnectionCapPerAddress(t *testing.T) {
	t.Parallel()
	s := Serve(t, dbtest.NewDSN(t), "--max-conns", "200")
	host := strings.TrimPrefix(s.URL, "http://")

	const opened = 250
	var mu sync.Mutex
	var held []net.Conn
	var wg sync.WaitGroup
	for range opened {
		wg.Go(func() {
			if c := keptAlive(host, "127.0.0.1"); c != nil {
				mu.Lock()
				held = append(held, c)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	if len(held) != 64 {
		t.Errorf("127.0.0.1 kept %d of %d connections served, want MAX_CONNS_PER_IP's default, 64", len(held), opened)
	}

	other := clientFrom("127.0.0.2")
	res, err := other.Get(s.URL + "/metrics")
	if err != nil {
		t.Fatalf("a client from 127.0.0.2, while 127.0.0.1 holds its connections: %v", err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("/metrics: %d", res.StatusCode)
	}
	want := fmt.Sprintf("salesplatform_http_connections_refused_total %d\n", opened-64)
	if !strings.Contains(string(body), want) {
		t.Errorf("/metrics lacks %q:\n%s", want, grepLines(string(body), "salesplatform_http_"))
	}
}

// Near MAX_CONNS, idle keep-alive connections are closed, the longest idle
// first, so that a new client is served; a request in progress is not cut.
func TestIdleConnectionsClosedNearCapacity(t *testing.T) {
	t.Parallel()
	s := Serve(t, dbtest.NewDSN(t), "--max-conns", "20")
	host := strings.TrimPrefix(s.URL, "http://")

	// A request in progress: its handler waits for the rest of its body.
	body := `{"query": "{ __typename }"}`
	active, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer active.Close()
	fmt.Fprintf(active, "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:5])

	// Then every other slot taken by idle connections.
	var idle []net.Conn
	for range 19 {
		c := keptAlive(host, "127.0.0.1")
		if c == nil {
			t.Fatal("an idle connection was not served")
		}
		idle = append(idle, c)
		defer c.Close()
	}

	for i := range 10 {
		res, err := clientFrom("127.0.0.1").Get(s.URL + "/healthz")
		if err != nil {
			t.Fatalf("new client %d, with every slot taken by idle connections: %v", i, err)
		}
		res.Body.Close()
	}

	// The first idle connection was closed by the server: a read ends, not
	// by its deadline.
	_ = idle[0].SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := idle[0].Read(make([]byte, 1)); err == nil || errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
		t.Errorf("the longest idle connection is still open: %v", err)
	}

	// The request in progress goes on.
	_ = active.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(active, body[5:]); err != nil {
		t.Fatalf("the request in progress lost its connection: %v", err)
	}
	res, err := http.ReadResponse(bufio.NewReader(active), nil)
	if err != nil {
		t.Fatalf("the request in progress got no answer: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("the request in progress: %d", res.StatusCode)
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// grepLines keeps the lines of s that contain sub.
func grepLines(s, sub string) string {
	var out []string
	for line := range strings.SplitSeq(s, "\n") {
		if strings.Contains(line, sub) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
