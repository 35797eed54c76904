package e2e

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"

	"salesplatform/cmd/salesplatform/app"
	"salesplatform/persistence/cartstore"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/redistest"
)

// tcpProxy forwards connections from a loopback port to a PostgreSQL
// server, so a test can take the database away from a running server and
// give it back.
type tcpProxy struct {
	addr     string
	dial     func() (net.Conn, error)
	mu       sync.Mutex
	ln       net.Listener
	conns    []net.Conn
	accepted sync.WaitGroup
}

// newDBProxy starts a proxy to the database of dsn and returns it with the
// DSN that reaches the database through it.
func newDBProxy(t *testing.T, dsn string) (*tcpProxy, string) {
	t.Helper()
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	network, target := "tcp", net.JoinHostPort(cfg.Host, fmt.Sprint(cfg.Port))
	if strings.HasPrefix(cfg.Host, "/") {
		network, target = "unix", filepath.Join(cfg.Host, fmt.Sprintf(".s.PGSQL.%d", cfg.Port))
	}
	p := &tcpProxy{dial: func() (net.Conn, error) { return net.Dial(network, target) }}
	p.start(t, "127.0.0.1:0")
	t.Cleanup(p.stop)
	return p, fmt.Sprintf("postgres://%s@%s/%s?sslmode=disable", cfg.User, p.addr, cfg.Database)
}

func (p *tcpProxy) start(t *testing.T, addr string) {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	p.ln, p.addr = ln, ln.Addr().String()
	p.mu.Unlock()
	p.accepted.Add(1)
	go func() {
		defer p.accepted.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := p.dial()
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(up, c); up.Close() }()
			go func() { _, _ = io.Copy(c, up); c.Close() }()
		}
	}()
}

// stop closes the listener and every forwarded connection: the database
// is gone, as when PostgreSQL stops.
func (p *tcpProxy) stop() {
	p.mu.Lock()
	if p.ln != nil {
		p.ln.Close()
	}
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
	p.mu.Unlock()
	p.accepted.Wait()
}

// With PostgreSQL gone, requests that need it answer 503 with Retry-After
// (REST in DRF's shape, the graph with SERVICE_UNAVAILABLE) and /readyz
// says so; once it is back, they work again.
func TestDatabaseOutage(t *testing.T) {
	t.Parallel()
	proxy, dsn := newDBProxy(t, dbtest.NewDSN(t))
	s := Serve(t, dsn)
	CreateUser(t, dsn, "--username", "shop", "--password", "shop-password", "--partner-name", "Shop", "--partner-domain", "shop.example.com")
	partners := s.URL + "/api/v2/partners/"
	if r := Do(t, "GET", partners, "", "X-Partner-Domain", "shop.example.com"); r.Status != 200 {
		t.Fatalf("before the outage: %d %s", r.Status, r.Body)
	}

	proxy.stop()
	r := Do(t, "GET", partners, "", "X-Partner-Domain", "shop.example.com")
	WantResponse(t, r, 503, `{"detail": "Service temporarily unavailable, try again later."}`)
	if r.Header.Get("Retry-After") != "5" {
		t.Errorf("Retry-After = %q, want 5", r.Header.Get("Retry-After"))
	}
	r = Do(t, "POST", s.URL+"/graphql", `{"query": "{ partners(first: 1) { totalCount } }"}`, "X-Partner-Domain", "shop.example.com")
	if !strings.Contains(r.Body, `"SERVICE_UNAVAILABLE"`) {
		t.Errorf("graph during the outage: %d %s", r.Status, r.Body)
	}
	WantResponse(t, Do(t, "GET", s.URL+"/readyz", ""), 503, `{"status": "database unreachable"}`)

	proxy.start(t, proxy.addr)
	if r := Do(t, "GET", partners, "", "X-Partner-Domain", "shop.example.com"); r.Status != 200 {
		t.Errorf("after the outage: %d %s", r.Status, r.Body)
	}
	WantResponse(t, Do(t, "GET", s.URL+"/readyz", ""), 200, `{"status": "ok"}`)
}

// /readyz checks the Redis cart store too, when carts are kept there.
func TestReadyzChecksRedis(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close() // nothing answers there now
	client := redis.NewClient(&redis.Options{Addr: closed, MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	t.Cleanup(func() { client.Close() })
	cfg := &app.Config{PasswordHashing: dbtest.CheapHashing, DataDir: t.TempDir(), CartTTL: time.Hour, PublicBaseURL: "http://127.0.0.1"}
	h := app.NewHandler(db, cartstore.NewRedis(client, "test:"), cfg, app.NewLogger(io.Discard, 0))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/readyz", nil))
	if rec.Code != 503 || !strings.Contains(rec.Body.String(), "redis unreachable") {
		t.Errorf("/readyz with Redis down: %d %s", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	h = app.NewHandler(db, cartstore.NewMemory(10), cfg, app.NewLogger(io.Discard, 0))
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/readyz", nil))
	if rec.Code != 200 {
		t.Errorf("/readyz with in-process carts: %d %s", rec.Code, rec.Body)
	}
}

// With Redis down or frozen, the carts answer 503 with Retry-After within
// the client's timeouts, as the logins do (REST in DRF's shape, the graph
// with SERVICE_UNAVAILABLE, the funnel page with a 503 page); once Redis is
// back, the carts stored before are there again.
func TestCartRedisOutage(t *testing.T) {
	t.Parallel()
	redisAddr := redistest.Options(t).Addr
	proxy := &tcpProxy{dial: func() (net.Conn, error) { return net.Dial("tcp", redisAddr) }}
	proxy.start(t, "127.0.0.1:0")
	t.Cleanup(proxy.stop)
	dsn := dbtest.NewDSN(t)
	shop := CreateUser(t, dsn, "--username", "shop", "--password", "shop-password", "--partner-name", "Shop", "--partner-domain", "shop.example.com")
	s := Serve(t, dsn, "--redis-url", "redis://"+proxy.addr)
	carts := s.URL + "/api/v2/ecommerce/cart/"
	res := Do(t, "POST", carts, `{"items": [{"product_id": 1, "quantity": 1}]}`, auth(shop)...)
	if res.Status != 201 {
		t.Fatalf("before the outage: %d %s", res.Status, res.Body)
	}
	id := res.JSON(t)["id"].(string)

	unavailable := func(t *testing.T) {
		t.Helper()
		within := func(what string, call func() Response) Response {
			t.Helper()
			start := time.Now()
			r := call()
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("%s took %v", what, took)
			}
			return r
		}
		for what, call := range map[string]func() Response{
			"create": func() Response { return Do(t, "POST", carts, `{"items": []}`, auth(shop)...) },
			"get":    func() Response { return Do(t, "GET", carts+id+"/", "", auth(shop)...) },
			// The login throttle's buckets are in the same Redis.
			"login": func() Response {
				return Do(t, "POST", s.URL+"/api-token-auth/", `{"username": "shop", "password": "shop-password"}`)
			},
		} {
			r := within(what, call)
			WantResponse(t, r, 503, `{"detail": "Service temporarily unavailable, try again later."}`)
			if r.Header.Get("Retry-After") != "5" {
				t.Errorf("%s: Retry-After = %q, want 5", what, r.Header.Get("Retry-After"))
			}
		}
		for what, query := range map[string]string{
			"createCart": `{"query": "mutation { createCart(input: {items: []}) { cart { id } } }"}`,
			"cart":       `{"query": "{ cart(id: \"` + id + `\") { id } }"}`,
		} {
			r := within(what, func() Response { return Do(t, "POST", s.URL+"/graphql", query, auth(shop)...) })
			if !strings.Contains(r.Body, `"SERVICE_UNAVAILABLE"`) || !strings.Contains(r.Body, `"retryAfter":5`) {
				t.Errorf("graph %s: %d %s", what, r.Status, r.Body)
			}
		}
		page := within("funnel", func() Response {
			return Do(t, "GET", s.URL+"/ecommerce/shop/customization/?cart="+id, "", "Host", "shop.example.com")
		})
		if page.Status != 503 || page.Header.Get("Retry-After") != "5" {
			t.Errorf("funnel: %d Retry-After %q", page.Status, page.Header.Get("Retry-After"))
		}
	}

	proxy.stop()
	t.Run("unreachable", unavailable)
	_, unfreeze := redistest.Freeze(t, proxy.addr)
	t.Run("frozen", unavailable)
	unfreeze()
	proxy.start(t, proxy.addr)
	if r := Do(t, "GET", carts+id+"/", "", auth(shop)...); r.Status != 200 {
		t.Errorf("after the outage: %d %s", r.Status, r.Body)
	}
}

// A request still running when the shutdown grace ends is cut off and the
// process exits 0 with a warning: it was asked to stop, and it stopped.
func TestShutdownAfterGrace(t *testing.T) {
	t.Parallel()
	s := Serve(t, dbtest.NewDSN(t), "--shutdown-grace", "300ms")
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// A request whose body never comes: its handler waits for it.
	fmt.Fprint(conn, "POST /api-token-auth/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	if code := s.Stop(); code != 0 {
		t.Errorf("exit code %d, want 0:\n%s", code, s.Log)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("shutdown took %v", took)
	}
	if !strings.Contains(s.Log.String(), "requests still running after the shutdown grace") {
		t.Errorf("no warning in the log:\n%s", s.Log)
	}
}

// Connections past MAX_CONNS wait to be accepted until one closes.
func TestConnectionCap(t *testing.T) {
	t.Parallel()
	s := Serve(t, dbtest.NewDSN(t), "--max-conns", "2")
	host := strings.TrimPrefix(s.URL, "http://")
	var held []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	time.Sleep(100 * time.Millisecond) // both accepted
	client := &http.Client{Timeout: 500 * time.Millisecond}
	if res, err := client.Get(s.URL + "/healthz"); err == nil {
		res.Body.Close()
		t.Fatalf("a third connection was served while two were open: %d", res.StatusCode)
	}
	held[0].Close()
	client.Timeout = 5 * time.Second
	res, err := client.Get(s.URL + "/healthz")
	if err != nil {
		t.Fatalf("after one closed: %v", err)
	}
	res.Body.Close()
	held[1].Close()
	if res.StatusCode != 200 {
		t.Errorf("status %d", res.StatusCode)
	}
}
