package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"salesplatform/cmd/salesplatform/app"
	"salesplatform/domain/cart"
	"salesplatform/persistence/cartstore"
	"salesplatform/persistence/dbtest"
)

func TestCartAPI(t *testing.T) {
	t.Parallel()
	f := newRESTFixture(t)
	url := f.URL + "/api/v2/ecommerce/cart/"
	uuidRE := `[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`

	create := func(t *testing.T, token, body string) (string, Response) {
		t.Helper()
		res := Do(t, "POST", url, body, auth(token)...)
		if res.Status != 201 {
			t.Fatalf("create: %d %s", res.Status, res.Body)
		}
		return res.JSON(t)["id"].(string), res
	}

	t.Run("OKCreate", func(t *testing.T) {
		before := time.Now().UnixMilli()
		id, res := create(t, f.shop, `{"items": [{"product_id": 12, "quantity": 2},
			{"product_id": 13, "quantity": 1, "variant_id": 4, "attribute_values": {"7": "blue"}}],
			"return_url": "https://shop.example.com/thanks"}`)
		body := res.JSON(t)
		lm := int64(body["last_modified"].(float64))
		if lm < before || lm > time.Now().UnixMilli() {
			t.Errorf("last_modified = %d, not a current Unix time in ms", lm)
		}
		WantResponse(t, res, 201, fmt.Sprintf(`{"id": %q, "items": [
			{"product_id": 12, "quantity": 2, "variant_id": null, "attribute_values": {}},
			{"product_id": 13, "quantity": 1, "variant_id": 4, "attribute_values": {"7": "blue"}}],
			"return_url": "https://shop.example.com/thanks",
			"funnel_url": "https://shop.example.com/ecommerce/shop/customization/?cart=%s",
			"last_modified": %d, "created_at": %q, "expires_at": %q}`,
			id, id, lm, body["created_at"], body["expires_at"]))
		if !regexp.MustCompile("^" + uuidRE + "$").MatchString(id) {
			t.Errorf("id %q is not a canonical UUID", id)
		}
		created, _ := time.Parse(time.RFC3339Nano, body["created_at"].(string))
		expires, _ := time.Parse(time.RFC3339Nano, body["expires_at"].(string))
		if created.UnixMilli() != lm || expires.Sub(created) != 2*time.Hour {
			t.Errorf("created_at %v, expires_at %v, last_modified %d", created, expires, lm)
		}
		if res.Header.Get("Location") != "/api/v2/ecommerce/cart/"+id+"/" || res.Header.Get("ETag") == "" {
			t.Errorf("headers = %v", res.Header)
		}
		get := Do(t, "GET", url+id+"/", "", auth(f.shop)...)
		WantResponse(t, get, 200, res.Body)
		if get.Header.Get("ETag") != res.Header.Get("ETag") {
			t.Errorf("ETag on GET %q, on create %q", get.Header.Get("ETag"), res.Header.Get("ETag"))
		}
		if nm := Do(t, "GET", url+id+"/", "", append(auth(f.shop), "If-None-Match", get.Header.Get("ETag"))...); nm.Status != 304 {
			t.Errorf("If-None-Match: status %d", nm.Status)
		}
		// If-None-Match is a list, in one header or several, compared
		// weakly (RFC 9110).
		tag := get.Header.Get("ETag")
		for want, lists := range map[int][][]string{
			304: {{`"other", ` + tag}, {"W/" + tag}, {"*"}, {`"other"`, tag}},
			200: {{`"other", W/"other"`}, {`"other"`, `"more"`}},
		} {
			for _, list := range lists {
				if got := sendWith(t, "GET", url+id+"/", "", http.Header{"Authorization": {"Token " + f.shop}, "If-None-Match": list}); got != want {
					t.Errorf("If-None-Match %q: status %d, want %d", list, got, want)
				}
			}
		}
	})

	t.Run("OKReplace", func(t *testing.T) {
		id, first := create(t, f.shop, `{"items": [{"product_id": 1, "quantity": 1}], "return_url": "https://a.example/"}`)
		time.Sleep(2 * time.Millisecond)
		res := Do(t, "POST", url, `{"id": "`+id+`", "items": [{"product_id": 2, "quantity": 3}]}`, auth(f.shop)...)
		WantResponse(t, res, 200, "")
		body := res.JSON(t)
		if body["id"] != id || body["last_modified"].(float64) <= first.JSON(t)["last_modified"].(float64) || body["return_url"] != "" {
			t.Errorf("replace = %s", res.Body)
		}
		items := body["items"].([]any)
		if len(items) != 1 || items[0].(map[string]any)["product_id"].(float64) != 2 {
			t.Errorf("items = %v", items)
		}
		WantResponse(t, Do(t, "GET", url+id, "", auth(f.shop)...), 200, res.Body) // no trailing slash
	})

	// A path that is not the route's own (an empty or a dot segment) is
	// not found, as the legacy service answered, rather than redirected:
	// a redirected POST would lose its body.
	t.Run("ErrNonCanonicalPath", func(t *testing.T) {
		for _, path := range []string{"/api/v2/ecommerce/cart//", "/api/v2//ecommerce/cart/", "/api/v2/ecommerce/./cart/",
			"/api/v2/ecommerce/x/../cart/"} {
			req, err := http.NewRequest("POST", f.URL+path, strings.NewReader(`{"items": []}`))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Token "+f.shop)
			res, err := http.DefaultTransport.RoundTrip(req) // no redirect followed
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 404 || res.Header.Get("Location") != "" || strings.TrimSpace(string(body)) != `{"detail":"Not found."}` {
				t.Errorf("POST %s: %d, Location %q, %s", path, res.StatusCode, res.Header.Get("Location"), body)
			}
		}
	})

	t.Run("OKFunnelURLPathForm", func(t *testing.T) {
		_, res := create(t, f.other, `{"items": []}`)
		want := regexp.MustCompile(`^` + regexp.QuoteMeta(f.URL) + `/p/` + uuidRE + `/ecommerce/shop/customization/\?cart=` + uuidRE + `$`)
		if fu := res.JSON(t)["funnel_url"].(string); !want.MatchString(fu) {
			t.Errorf("funnel_url = %q", fu)
		}
	})

	t.Run("ErrOtherPartner", func(t *testing.T) {
		id, _ := create(t, f.shop, `{"items": []}`)
		WantResponse(t, Do(t, "GET", url+id+"/", "", auth(f.other)...), 404, `{"detail": "Cart not found"}`)
		WantResponse(t, Do(t, "POST", url, `{"id": "`+id+`", "items": []}`, auth(f.other)...), 400, `{"id": ["Cart not found"]}`)
	})

	t.Run("ErrUnknown", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url+"not-a-uuid/", "", auth(f.shop)...), 404, `{"detail": "Cart not found"}`)
		WantResponse(t, Do(t, "POST", url, `{"id": "2b1c0a44-4a4e-4c4e-9c1a-0d3f1a2b3c4d", "items": []}`, auth(f.shop)...),
			400, `{"id": ["Cart not found"]}`)
	})

	t.Run("ErrValidation", func(t *testing.T) {
		cases := map[string]struct{ body, want string }{
			"items missing":      {`{}`, `{"items": ["This field is required."]}`},
			"attributes a list":  {`{"items": [{"product_id": 1, "quantity": 1, "attribute_values": []}]}`, `{"items": [{"attribute_values": ["Expected a dictionary of items but got type \"list\"."]}]}`},
			"attribute key text": {`{"items": [{"product_id": 1, "quantity": 1, "attribute_values": {"x": "a"}}]}`, `{"items": [{"attribute_values": {"x": ["Attribute ids must be positive integers."]}}]}`},
			"attribute value":    {`{"items": [{"product_id": 1, "quantity": 1, "attribute_values": {"3": 4}}]}`, `{"items": [{"attribute_values": {"3": ["Not a valid string."]}}]}`},
			"nested per item": {`{"items": [{"product_id": 1, "quantity": 1}, {"product_id": 1, "quantity": "x"}], "return_url": "nope"}`,
				`{"items": [{}, {"quantity": ["A valid integer is required."]}], "return_url": ["Enter a valid URL."]}`},
			"body not an object": {`[1]`, `{"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]}`},
		}
		for name, tc := range cases {
			t.Run(name, func(t *testing.T) {
				WantResponse(t, Do(t, "POST", url, tc.body, auth(f.shop)...), 400, tc.want)
			})
		}
	})

	t.Run("ErrTransport", func(t *testing.T) {
		res := Do(t, "POST", url, `{"items": [`, auth(f.shop)...)
		if res.Status != 400 || !strings.HasPrefix(res.JSON(t)["detail"].(string), "JSON parse error - ") {
			t.Errorf("malformed JSON: %d %s", res.Status, res.Body)
		}
		WantResponse(t, Do(t, "POST", url, "items=1", append(auth(f.shop), "Content-Type", "application/x-www-form-urlencoded")...),
			415, `{"detail": "Unsupported media type \"application/x-www-form-urlencoded\" in request."}`)
		big := `{"items": [], "return_url": "` + strings.Repeat("x", 300<<10) + `"}`
		WantResponse(t, Do(t, "POST", url, big, auth(f.shop)...), 413, `{"detail": "Request body too large: the limit is 262144 bytes."}`)
		WantResponse(t, Do(t, "DELETE", url, "", auth(f.shop)...), 405, `{"detail": "Method \"DELETE\" not allowed."}`)
		WantResponse(t, Do(t, "GET", f.URL+"/api/nothing-here/", ""), 404, `{"detail": "Not found."}`)
	})

	t.Run("IfMatch", func(t *testing.T) {
		id, res := create(t, f.shop, `{"items": []}`)
		etag := res.Header.Get("ETag")
		body := `{"id": "` + id + `", "items": [{"product_id": 1, "quantity": 1}]}`
		first := Do(t, "POST", url, body, append(auth(f.shop), "If-Match", etag)...)
		WantResponse(t, first, 200, "")
		// A second writer holding the old ETag does not overwrite.
		WantResponse(t, Do(t, "POST", url, body, append(auth(f.shop), "If-Match", etag)...),
			412, `{"detail": "The cart has changed since it was read."}`)
		WantResponse(t, Do(t, "POST", url, body, append(auth(f.shop), "If-Match", first.Header.Get("ETag"))...), 200, "")
		// Its list may come in several headers.
		cur := Do(t, "GET", url+id+"/", "", auth(f.shop)...).Header.Get("ETag")
		if got := sendWith(t, "POST", url, body, http.Header{"Authorization": {"Token " + f.shop},
			"Content-Type": {"application/json"}, "If-Match": {etag, cur}}); got != 200 {
			t.Errorf("If-Match in two headers naming the current ETag: %d", got)
		}
	})
}

// sendWith sends a request with header, whose values may repeat, and
// returns its status.
func sendWith(t *testing.T, method, url, body string, header http.Header) int {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

func TestCartExpiry(t *testing.T) {
	t.Parallel()
	f := newRESTFixture(t, "--cart-ttl", "500ms")
	url := f.URL + "/api/v2/ecommerce/cart/"
	res := Do(t, "POST", url, `{"items": []}`, auth(f.shop)...)
	id := res.JSON(t)["id"].(string)
	WantResponse(t, Do(t, "GET", url+id+"/", "", auth(f.shop)...), 200, "")
	time.Sleep(700 * time.Millisecond)
	WantResponse(t, Do(t, "GET", url+id+"/", "", auth(f.shop)...), 404, `{"detail": "Cart not found"}`)
	WantResponse(t, Do(t, "POST", url, `{"id": "`+id+`", "items": []}`, auth(f.shop)...), 400, `{"id": ["Cart not found"]}`)
}

func TestFunnelPage(t *testing.T) {
	t.Parallel()
	f := newRESTFixture(t)
	res := Do(t, "POST", f.URL+"/api/v2/ecommerce/cart/", `{"items": [{"product_id": 31, "quantity": 4}]}`, auth(f.shop)...)
	shopCart := res.JSON(t)["id"].(string)
	res = Do(t, "POST", f.URL+"/api/v2/ecommerce/cart/", `{"items": []}`, auth(f.other)...)
	otherFunnel := res.JSON(t)["funnel_url"].(string)
	otherCart := res.JSON(t)["id"].(string)

	t.Run("OKPartnerDomain", func(t *testing.T) {
		for _, step := range []string{"shop", "order"} {
			page := Do(t, "GET", f.URL+"/ecommerce/"+step+"/customization/?cart="+shopCart, "", "Host", "shop.example.com")
			if page.Status != 200 || !strings.Contains(page.Body, `<h2>#31</h2>`) || !strings.Contains(page.Body, `name="lines.0.quantity" value="4"`) ||
				!strings.Contains(page.Body, "This product is no longer available.") {
				t.Errorf("%s step: %d %s", step, page.Status, page.Body)
			}
			if c := strings.Join(page.Header.Values("Set-Cookie"), "\n"); !strings.Contains(c, "ecommerce_cart="+shopCart+"; Path=/; HttpOnly") {
				t.Errorf("Set-Cookie = %q", c)
			}
		}
	})

	t.Run("OKPathForm", func(t *testing.T) {
		page := Do(t, "GET", otherFunnel, "")
		if page.Status != 200 || !strings.Contains(page.Body, "Your cart is empty") {
			t.Errorf("%d %s", page.Status, page.Body)
		}
	})

	t.Run("ErrNotThisPartnersCart", func(t *testing.T) {
		page := Do(t, "GET", f.URL+"/ecommerce/shop/customization/?cart="+otherCart, "", "Host", "shop.example.com")
		if page.Status != 404 || !strings.Contains(page.Body, "expired or does not exist") {
			t.Errorf("%d %s", page.Status, page.Body)
		}
		if c := strings.Join(page.Header.Values("Set-Cookie"), "\n"); strings.Contains(c, "ecommerce_cart") {
			t.Errorf("a cookie was set for a cart that is not shown: %q", c)
		}
	})

	t.Run("ErrNoCart", func(t *testing.T) {
		if page := Do(t, "GET", f.URL+"/ecommerce/shop/customization/", "", "Host", "shop.example.com"); page.Status != http.StatusBadRequest {
			t.Errorf("status %d", page.Status)
		}
	})
}

// return_url takes only what the funnel may send a customer to: an https
// URL of a public host, no user information, URI characters only; local
// hosts in development mode alone. The funnel page links back to it.
func TestCartReturnURL(t *testing.T) {
	t.Parallel()
	f := newRESTFixture(t)
	url := f.URL + "/api/v2/ecommerce/cart/"
	for u, msg := range map[string]string{
		"https://shop.example.com@evil.example.com":             "Enter a URL without a user name or password.",
		"http://127.0.0.1:18080/admin":                          "Enter a URL of a public host, not a local or private address.",
		"https://10.0.0.7/":                                     "Enter a URL of a public host, not a local or private address.",
		"http://localhost:3000/done":                            "Enter a URL of a public host, not a local or private address.",
		"https://evil.example.com/<script>":                     "Enter a valid URL.",
		"https://shop.example.com/a b":                          "Enter a valid URL.",
		"http://shop.example.com/thanks":                        "Enter an https URL.",
		"https://shop.example.com/" + strings.Repeat("a", 2000): "Ensure this field has no more than 2000 characters.",
	} {
		body, _ := json.Marshal(map[string]any{"items": []any{}, "return_url": u})
		WantResponse(t, Do(t, "POST", url, string(body), auth(f.shop)...), 400, `{"return_url": ["`+msg+`"]}`)
	}

	res := Do(t, "POST", url, `{"items": [], "return_url": "https://shop.example.com/thanks?order=1"}`, auth(f.shop)...)
	if res.Status != 201 || res.JSON(t)["return_url"] != "https://shop.example.com/thanks?order=1" {
		t.Fatalf("https URL: %d %s", res.Status, res.Body)
	}
	page := Do(t, "GET", f.URL+"/ecommerce/shop/customization/?cart="+res.JSON(t)["id"].(string), "", "Host", "shop.example.com")
	if !strings.Contains(page.Body, `<a id="return-to-shop" href="https://shop.example.com/thanks?order=1">`) {
		t.Errorf("funnel page without the way back: %s", page.Body)
	}

	dev := newRESTFixture(t, "--dev-mode")
	for _, u := range []string{"http://localhost:3000/done", "http://127.0.0.1:18080/back"} {
		res := Do(t, "POST", dev.URL+"/api/v2/ecommerce/cart/", `{"items": [], "return_url": "`+u+`"}`, auth(dev.shop)...)
		if res.Status != 201 || res.JSON(t)["return_url"] != u {
			t.Errorf("development mode, %s: %d %s", u, res.Status, res.Body)
		}
	}
}

// A cart stored under an older rule keeps its return_url, but the funnel
// page never links to it when the rule refuses it now.
func TestFunnelOldReturnURL(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewDSN(t)
	shop := CreateUser(t, dsn, "--username", "shop", "--password", "shop-password", "--partner-name", "Shop", "--partner-domain", "shop.example.com")
	db := OpenDB(t, dsn)
	store := cartstore.NewMemory(10)
	t.Cleanup(store.Close)
	cfg := &app.Config{PasswordHashing: dbtest.CheapHashing, CartTTL: time.Hour, PublicBaseURL: "http://api.test", DataDir: t.TempDir()}
	srv := httptest.NewServer(app.NewHandler(db, store, cfg, app.NewLogger(io.Discard, slog.LevelInfo)))
	t.Cleanup(srv.Close)

	res := Do(t, "POST", srv.URL+"/api/v2/ecommerce/cart/", `{"items": [], "return_url": "https://shop.example.com/thanks"}`, auth(shop)...)
	id := uuid.MustParse(res.JSON(t)["id"].(string))
	for _, old := range []string{"https://shop.example.com@evil.example.com", "http://127.0.0.1:18080/admin", "https://evil.example.com/<script>"} {
		if err := store.Update(t.Context(), id, time.Hour, func(c *cart.Cart) (*cart.Cart, error) {
			c.ReturnURL = old
			return c, nil
		}); err != nil {
			t.Fatal(err)
		}
		page := Do(t, "GET", srv.URL+"/ecommerce/shop/customization/?cart="+id.String(), "", "Host", "shop.example.com")
		if page.Status != 200 || strings.Contains(page.Body, "return-to-shop") || strings.Contains(page.Body, "evil") || strings.Contains(page.Body, "127.0.0.1") {
			t.Errorf("stored %s: %d %s", old, page.Status, page.Body)
		}
	}
}
