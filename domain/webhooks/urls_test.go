package webhooks_test

import (
	"context"
	"errors"
	"net/netip"
	"testing"

	"salesplatform/domain/webhooks"
)

// stubResolver answers from a fixed table; an unknown name fails.
type stubResolver map[string][]string

func (s stubResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	addrs, ok := s[host]
	if !ok {
		return nil, errors.New("no such host")
	}
	out := make([]netip.Addr, len(addrs))
	for i, a := range addrs {
		out[i] = netip.MustParseAddr(a)
	}
	return out, nil
}

var names = stubResolver{
	"hooks.example.com":    {"93.184.216.34", "2606:2800:220:1::1"},
	"internal.example.com": {"10.1.2.3"},
	"mixed.example.com":    {"93.184.216.34", "192.168.1.1"},
	"metadata.example.com": {"169.254.169.254"},
	"lab.example.com":      {"127.0.0.1"},
}

func TestURLRule(t *testing.T) {
	rule := webhooks.URLRule{Resolver: names}
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"https://hooks.example.com/in", true},
		{"https://93.184.216.34/in", true},
		{"https://[2606:2800:220:1::1]:8443/in", true},
		{"http://hooks.example.com/in", false}, // http only for allowed networks
		{"ftp://hooks.example.com/in", false},
		{"https://user:pw@hooks.example.com/in", false},
		{"https://unknown.example.com/in", false},
		{"https://127.0.0.1/in", false},
		{"https://[::1]/in", false},
		{"https://10.0.0.1/in", false},
		{"https://172.16.5.4/in", false},
		{"https://192.168.0.1/in", false},
		{"https://[fd00::1]/in", false},
		{"https://169.254.169.254/latest/meta-data", false},
		{"https://[fe80::1]/in", false},
		{"https://0.0.0.0/in", false},
		{"https://[::]/in", false},
		{"https://224.0.0.1/in", false},
		{"https://[ff02::1]/in", false},
		{"https://100.64.0.1/in", false},
		{"https://[::ffff:10.0.0.1]/in", false}, // IPv4-mapped
		{"https://internal.example.com/in", false},
		{"https://mixed.example.com/in", false}, // one private address suffices
		{"https://metadata.example.com/in", false},
	} {
		if got := rule.Check(context.Background(), tc.url); (got == "") != tc.ok {
			t.Errorf("Check(%s) = %q, want ok %v", tc.url, got, tc.ok)
		}
	}
}

func TestURLRuleAllowedNetworks(t *testing.T) {
	allowed, err := webhooks.ParseAllowedNetworks(" 127.0.0.0/8, 10.1.0.0/16 ,")
	if err != nil || len(allowed) != 2 {
		t.Fatalf("ParseAllowedNetworks = %v, %v", allowed, err)
	}
	rule := webhooks.URLRule{Resolver: names, Allowed: allowed}
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"http://127.0.0.1:8080/in", true},
		{"http://lab.example.com/in", true},
		{"https://internal.example.com/in", true},
		{"http://10.2.0.1/in", false},          // private, outside the allowed networks
		{"http://hooks.example.com/in", false}, // public: https only
		{"https://hooks.example.com/in", true},
		{"https://169.254.169.254/in", false},
	} {
		if got := rule.Check(context.Background(), tc.url); (got == "") != tc.ok {
			t.Errorf("Check(%s) = %q, want ok %v", tc.url, got, tc.ok)
		}
	}
	if _, err := webhooks.ParseAllowedNetworks("10.0.0.0/33"); err == nil {
		t.Error("ParseAllowedNetworks accepted a bad prefix")
	}
	if got, err := webhooks.ParseAllowedNetworks(""); err != nil || len(got) != 0 {
		t.Errorf(`ParseAllowedNetworks("") = %v, %v`, got, err)
	}
}
