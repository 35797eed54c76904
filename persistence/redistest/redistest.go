// Package redistest connects tests to the test Redis server: TEST_REDIS_URL,
// else REDIS_URL, else redis://127.0.0.1:6379/0. Without one a test is
// skipped locally but fails under CI=true, where a skip must not pass for a
// success.
package redistest

import (
	"context"
	"net"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// URL is the test server's URL.
func URL() string {
	for _, env := range []string{"TEST_REDIS_URL", "REDIS_URL"} {
		if u := os.Getenv(env); u != "" {
			return u
		}
	}
	return "redis://127.0.0.1:6379/0"
}

// Options returns the test server's options once it has answered a PING;
// a caller may change the database before connecting.
func Options(tb testing.TB) *redis.Options {
	tb.Helper()
	raw := URL()
	opts, err := redis.ParseURL(raw)
	if err == nil {
		client := redis.NewClient(opts)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		err = client.Ping(ctx).Err()
		cancel()
		_ = client.Close()
	}
	if err != nil {
		shown := "(unparsable URL)"
		if u, perr := url.Parse(raw); perr == nil {
			shown = u.Redacted()
		}
		msg := "Redis unreachable at " + shown + " (set TEST_REDIS_URL or REDIS_URL): " + err.Error()
		if os.Getenv("CI") == "true" {
			tb.Fatal(msg)
		}
		tb.Skip(msg)
	}
	return opts
}

// Open connects to the test server until the test ends.
func Open(tb testing.TB) *redis.Client {
	tb.Helper()
	client := redis.NewClient(Options(tb))
	tb.Cleanup(func() { _ = client.Close() })
	return client
}

// Prefix returns a key prefix of this test only (name, then a random part)
// and deletes its keys when the test ends.
func Prefix(tb testing.TB, client redis.UniversalClient, name string) string {
	prefix := name + ":" + uuid.NewString() + ":"
	tb.Cleanup(func() {
		// The test's context is already cancelled when cleanups run.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		iter := client.Scan(ctx, 0, prefix+"*", 100).Iterator()
		for iter.Next(ctx) {
			if err := client.Del(ctx, iter.Val()).Err(); err != nil {
				tb.Errorf("cleanup: %v", err)
			}
		}
		if err := iter.Err(); err != nil {
			tb.Errorf("cleanup: %v", err)
		}
	})
	return prefix
}

// ClosedPort returns a loopback address nothing listens on: a server that
// is down.
func ClosedPort(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}

// FrozenServer returns the address of a listener that accepts connections
// and never answers on them, as a stopped or stalled server does; they are
// closed when the test ends.
func FrozenServer(tb testing.TB) string {
	tb.Helper()
	addr, _ := Freeze(tb, "127.0.0.1:0")
	return addr
}

// Freeze listens on addr (host:port, port 0 for any) and holds every
// connection unanswered until stop is called or the test ends; it returns
// the address.
func Freeze(tb testing.TB, addr string) (_ string, stop func()) {
	tb.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		tb.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			_ = ln.Close()
			<-done
			mu.Lock()
			defer mu.Unlock()
			for _, c := range conns {
				_ = c.Close()
			}
		})
	}
	tb.Cleanup(stop)
	return ln.Addr().String(), stop
}
