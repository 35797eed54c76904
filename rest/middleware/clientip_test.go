package middleware

import (
	"net/http/httptest"
	"testing"
)

func TestClientIPs(t *testing.T) {
	proxies, err := ParseTrustedProxies("10.0.0.0/8, 127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, peer, forwarded, want string
		trust                       ClientIPs
	}{
		{"no proxy trusted: the peer", "10.1.2.3:5000", "203.0.113.9", "10.1.2.3", ClientIPs{}},
		{"an untrusted peer's header is ignored", "198.51.100.7:5000", "203.0.113.9", "198.51.100.7", proxies},
		{"behind a trusted proxy: the address it saw", "127.0.0.1:5000", "203.0.113.9", "203.0.113.9", proxies},
		{"what the client prepended is skipped", "127.0.0.1:5000", "1.2.3.4, 203.0.113.9", "203.0.113.9", proxies},
		{"through two trusted proxies", "127.0.0.1:5000", "203.0.113.9, 10.0.0.5", "203.0.113.9", proxies},
		{"all trusted: the leftmost", "127.0.0.1:5000", "10.0.0.6, 10.0.0.5", "10.0.0.6", proxies},
		{"no header: the proxy", "127.0.0.1:5000", "", "127.0.0.1", proxies},
		{"garbage: the proxy", "127.0.0.1:5000", "not-an-ip", "127.0.0.1", proxies},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/api-token-auth/", nil)
			r.RemoteAddr = tc.peer
			if tc.forwarded != "" {
				r.Header.Set("X-Forwarded-For", tc.forwarded)
			}
			if got := tc.trust.Of(r); got != tc.want {
				t.Errorf("Of = %q, want %q", got, tc.want)
			}
		})
	}
	if _, err := ParseTrustedProxies("10.0.0.0/8,nope"); err == nil {
		t.Error("a bad entry is accepted")
	}
}
