package app

import (
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// idleTimeout is how long a keep-alive connection may wait for its next
// request: long enough for a client's next call, short enough that idle
// sockets give their slots back soon.
const idleTimeout = 30 * time.Second

// defaultMaxConnsPerIP caps the connections of one client address: room
// for a few browsers behind one NAT, far below MAX_CONNS, so that one
// address cannot take every slot.
const defaultMaxConnsPerIP = 64

// connLimiter is the server's listener. It caps the connections open at
// once (MAX_CONNS: past it Accept waits, and new connections wait in the
// kernel's backlog) and per client address (MAX_CONNS_PER_IP: past it a
// new connection from that address is reset at once; trusted proxies, who
// carry many clients, are not capped). When the open connections pass nine
// tenths of the cap, idle keep-alive connections are closed, the longest
// idle first, so that idle sockets cannot keep new clients waiting: a
// client's next request on a closed idle connection opens a new one.
//
// The address is the TCP peer's (an IPv6 address counts by its /64, which
// one host usually holds whole): behind a reverse proxy it is the proxy's,
// hence the exemption of TRUSTED_PROXIES.
//
// Its ConnState must be the server's ConnState hook: it tells which
// connections are idle.
type connLimiter struct {
	net.Listener
	slots     chan struct{} // one per open connection
	done      chan struct{} // closed by Close
	closeOnce sync.Once
	perAddr   int // 0: no cap per address
	exempt    func(netip.Addr) bool
	highWater int // past it, idle connections are closed

	mu     sync.Mutex
	open   int
	byAddr map[netip.Addr]int
	idle   map[*limitedConn]time.Time // since its last request began

	refused, idleClosed atomic.Int64
}

func newConnLimiter(ln net.Listener, max, perAddr int, exempt func(netip.Addr) bool) *connLimiter {
	return &connLimiter{
		Listener:  ln,
		slots:     make(chan struct{}, max),
		done:      make(chan struct{}),
		perAddr:   perAddr,
		exempt:    exempt,
		highWater: max * 9 / 10,
		byAddr:    map[netip.Addr]int{},
		idle:      map[*limitedConn]time.Time{},
	}
}

// limitedConn is an accepted connection; Close gives its slot back once.
type limitedConn struct {
	net.Conn
	l       *connLimiter
	addr    netip.Addr
	release sync.Once
	began   time.Time // its last request's start (l.mu guards it)
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.release.Do(func() { c.l.release(c) })
	return err
}

// Accept waits for a free slot, then returns the next connection whose
// address is under its cap.
func (l *connLimiter) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			<-l.slots
			return nil, err
		}
		addr := peerKey(c.RemoteAddr())
		l.mu.Lock()
		if l.perAddr > 0 && l.byAddr[addr] >= l.perAddr && (l.exempt == nil || !l.exempt(addr)) {
			l.mu.Unlock()
			l.refused.Add(1)
			if tc, ok := c.(*net.TCPConn); ok {
				_ = tc.SetLinger(0) // a reset: no TIME_WAIT kept for it here
			}
			_ = c.Close()
			continue
		}
		l.byAddr[addr]++
		l.open++
		victims := l.longestIdle(l.open - l.highWater)
		l.mu.Unlock()
		closeIdle(victims)
		return &limitedConn{Conn: c, l: l, addr: addr, began: time.Now()}, nil
	}
}

func (l *connLimiter) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

func (l *connLimiter) release(c *limitedConn) {
	l.mu.Lock()
	delete(l.idle, c)
	l.open--
	if l.byAddr[c.addr]--; l.byAddr[c.addr] <= 0 {
		delete(l.byAddr, c.addr)
	}
	l.mu.Unlock()
	<-l.slots
}

// ConnState tracks the idle connections; one that turns idle while the
// server is near its cap is closed at once.
//
// An idle connection ranks by the start of its last request, not by the
// moment its hook ran: the hook runs after the answer is sent, and a busy
// machine can delay it past the client's next connections, which would
// make the connection idle longest look the newest.
func (l *connLimiter) ConnState(nc net.Conn, state http.ConnState) {
	c, ok := nc.(*limitedConn)
	if !ok {
		return
	}
	l.mu.Lock()
	if state != http.StateIdle {
		if state == http.StateActive {
			c.began = time.Now()
		}
		delete(l.idle, c)
		l.mu.Unlock()
		return
	}
	if l.open > l.highWater {
		l.mu.Unlock()
		closeIdle([]*limitedConn{c})
		return
	}
	l.idle[c] = c.began
	l.mu.Unlock()
}

// longestIdle takes out of the idle set the n connections idle longest;
// l.mu is held.
func (l *connLimiter) longestIdle(n int) []*limitedConn {
	var out []*limitedConn
	for ; n > 0 && len(l.idle) > 0; n-- {
		var oldest *limitedConn
		var since time.Time
		for c, t := range l.idle {
			if oldest == nil || t.Before(since) {
				oldest, since = c, t
			}
		}
		delete(l.idle, oldest)
		out = append(out, oldest)
	}
	return out
}

// closeIdle closes the sockets of idle connections: the server's read of
// their next request fails, and it closes them (giving their slots back).
func closeIdle(cs []*limitedConn) {
	for _, c := range cs {
		_ = c.Conn.Close()
	}
	if len(cs) > 0 {
		cs[0].l.idleClosed.Add(int64(len(cs)))
	}
}

// peerKey is the address a connection counts against: the peer's IP, or
// its /64 for IPv6.
func peerKey(a net.Addr) netip.Addr {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return netip.Addr{}
	}
	ip := tcp.AddrPort().Addr().Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.Addr()
	}
	return ip
}

// collectors are the listener's metrics.
func (l *connLimiter) collectors() []prometheus.Collector {
	return []prometheus.Collector{
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "salesplatform", Subsystem: "http", Name: "connections",
			Help: "HTTP connections open (MAX_CONNS caps them)."}, func() float64 {
			l.mu.Lock()
			defer l.mu.Unlock()
			return float64(l.open)
		}),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: "salesplatform", Subsystem: "http", Name: "connections_refused_total",
			Help: "HTTP connections reset at accept: their address had MAX_CONNS_PER_IP open."}, func() float64 {
			return float64(l.refused.Load())
		}),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: "salesplatform", Subsystem: "http", Name: "idle_connections_closed_total",
			Help: "Idle keep-alive connections closed because the open ones passed nine tenths of MAX_CONNS."}, func() float64 {
			return float64(l.idleClosed.Load())
		}),
	}
}
