package cart_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"salesplatform/domain/cart"
	"salesplatform/persistence/dbtest"
)

// saveWithReturnURL saves a new cart of the shop with return_url u.
func saveWithReturnURL(t *testing.T, f *cartFixture, svc *cart.Service, u string) (*cart.CartView, error) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"items": []any{}, "return_url": u})
	v, _, err := svc.SaveCart(f.asShop, input(t, string(b)))
	return v, err
}

// The return_url rule: an https URL of a public host in URI characters,
// without user information, at most 2000 characters; local hosts only in
// development mode. Checked on save, and again for the funnel.
func TestReturnURLRule(t *testing.T) {
	t.Parallel()
	f := newCartFixture(t, time.Hour)
	dev := cart.NewService(f.store, f.partners, time.Hour, "http://api.test:8000/").AllowLocalReturnURLs(true)
	const (
		invalid  = "Enter a valid URL."
		https    = "Enter an https URL."
		userinfo = "Enter a URL without a user name or password."
		local    = "Enter a URL of a public host, not a local or private address."
	)
	long := "https://shop.example.com/" + strings.Repeat("a", 2000-len("https://shop.example.com/"))

	rejected := map[string]string{
		"https://shop.example.com@evil.example.com":   userinfo,
		"https://user:secret@shop.example.com/":       userinfo,
		"http://127.0.0.1:18080/admin":                local,
		"https://127.0.0.1/":                          local,
		"https://10.1.2.3/":                           local,
		"https://172.16.0.1/":                         local,
		"https://192.168.1.1/back":                    local,
		"https://169.254.169.254/latest/meta-data/":   local,
		"https://0.0.0.0/":                            local,
		"https://[::1]/":                              local,
		"https://[::]/":                               local,
		"https://[fe80::1]/":                          local,
		"https://[fd00::1]/":                          local,
		"https://[::ffff:127.0.0.1]/":                 local,
		"https://224.0.0.1/":                          local,
		"https://localhost/":                          local,
		"https://shop.localhost:3000/":                local,
		"https://LOCALHOST./":                         local,
		"https://2130706433/":                         invalid, // 127.0.0.1 to a browser
		"https://0x7f000001/":                         invalid,
		"https://127.1/":                              invalid,
		"https://evil.example.com/<script>":           invalid,
		"https://shop.example.com/a b":                invalid,
		`https://shop.example.com/"x"`:                invalid,
		"https://shop.example.com/\x00":               invalid,
		"https://shop.example.com/\t":                 invalid,
		"https://shop.example.com/\x7f":               invalid,
		`https://shop.example.com\@evil.example.com/`: invalid,
		"https://shop.example.com/café":               invalid,
		"https://shop.example.com/?q=%zz":             invalid,
		"https://shop.example.com/{x}":                invalid,
		"https://shop_example.com/":                   invalid,
		"https://-shop.example.com/":                  invalid,
		"https:///thanks":                             invalid,
		"https://:443/":                               invalid,
		"https://shop.example.com:99999/":             invalid,
		"https://shop.example.com:0/":                 invalid,
		"https:shop.example.com":                      invalid,
		"//shop.example.com/":                         invalid,
		"javascript:alert(1)":                         invalid,
		"ftp://shop.example.com/":                     invalid,
		"not a url":                                   invalid,
		"http://shop.example.com/thanks":              https,
		long + "a":                                    "Ensure this field has no more than 2000 characters.",
	}
	for u, msg := range rejected {
		t.Run("rejects "+u, func(t *testing.T) {
			before := f.store.Len()
			_, err := saveWithReturnURL(t, f, f.svc, u)
			dbtest.WantFieldErrors(t, err, map[string]string{"return_url": msg})
			if f.store.Len() != before {
				t.Error("a cart was stored")
			}
		})
	}

	accepted := []string{
		"https://shop.example.com/thanks?order=12&x=%20y#done",
		"https://shop.example.com:8443/",
		"https://SHOP.Example.COM./merci",
		"https://8.8.8.8/back",
		"https://[2001:4860:4860::8888]/",
		"https://shop.example.com/a;b=c/(d)!*'$,+~_.-@:",
		long,
	}
	for _, u := range accepted {
		t.Run("accepts "+u, func(t *testing.T) {
			v, err := saveWithReturnURL(t, f, f.svc, u)
			if err != nil {
				t.Fatal(err)
			}
			if v.ReturnURL != u || v.ReturnTo != u {
				t.Errorf("return_url %q, return to %q, want %q", v.ReturnURL, v.ReturnTo, u)
			}
		})
	}

	t.Run("development mode allows local hosts", func(t *testing.T) {
		for _, u := range []string{"http://localhost:3000/done", "http://market.localhost/", "http://127.0.0.1:18080/back",
			"https://[::1]:8443/", "http://127.0.0.2/"} {
			if v, err := saveWithReturnURL(t, f, dev, u); err != nil || v.ReturnTo != u {
				t.Errorf("%s: %v", u, err)
			}
			if _, err := saveWithReturnURL(t, f, f.svc, u); err == nil {
				t.Errorf("%s accepted outside development mode", u)
			}
		}
		for u, msg := range map[string]string{
			"http://shop.example.com/":  https,
			"http://10.0.0.1/":          local,
			"http://192.168.0.10:8000/": local,
			"http://user@localhost/":    userinfo,
			"http://localhost/<script>": invalid,
		} {
			_, err := saveWithReturnURL(t, f, dev, u)
			dbtest.WantFieldErrors(t, err, map[string]string{"return_url": msg})
		}
	})

	t.Run("the funnel sends no one to a URL stored under an older rule", func(t *testing.T) {
		c := f.mustSave(t, f.asShop, `{"items": [], "return_url": "https://shop.example.com/thanks"}`)
		for _, old := range []string{"https://shop.example.com@evil.example.com", "http://127.0.0.1:18080/admin", "https://evil.example.com/<script>"} {
			if err := f.store.Update(f.asShop, c.ID, time.Hour, func(cur *cart.Cart) (*cart.Cart, error) {
				cur.ReturnURL = old
				return cur, nil
			}); err != nil {
				t.Fatal(err)
			}
			v, _, err := f.svc.FunnelCart(f.asShop, cart.FunnelSite{Host: "shop.example.com"}, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			if v.ReturnURL != old || v.ReturnTo != "" {
				t.Errorf("stored %q: return_url %q, return to %q, want none", old, v.ReturnURL, v.ReturnTo)
			}
		}
	})
}
