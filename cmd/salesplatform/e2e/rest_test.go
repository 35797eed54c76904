package e2e

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"salesplatform/persistence/dbtest"
)

// restFixture is a running server with a shop partner (with a site domain),
// a partner without one, and a staff user.
type restFixture struct {
	*Server
	shop, other, staff string // tokens
}

func newRESTFixture(t *testing.T, flags ...string) *restFixture {
	t.Helper()
	dsn := dbtest.NewDSN(t)
	return &restFixture{
		shop:   CreateUser(t, dsn, "--username", "shop", "--password", "shop-password", "--email", "shop@example.com", "--partner-name", "Shop", "--partner-domain", "shop.example.com"),
		other:  CreateUser(t, dsn, "--username", "other", "--password", "other-password", "--partner-name", "Other"),
		staff:  CreateUser(t, dsn, "--username", "staff", "--password", "staff-password", "--staff"),
		Server: Serve(t, dsn, flags...),
	}
}

func auth(token string) []string { return []string{"Authorization", "Token " + token} }

func TestTokenEndpoint(t *testing.T) {
	f := newRESTFixture(t)
	url := f.URL + "/api-token-auth/"

	t.Run("OKJSON", func(t *testing.T) {
		res := Do(t, "POST", url, `{"username": "shop", "password": "shop-password"}`)
		WantResponse(t, res, 200, "")
		body := res.JSON(t)
		token, _ := body["token"].(string)
		if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(token) {
			t.Errorf("token = %q", token)
		}
		user := body["user"].(map[string]any)
		if user["username"] != "shop" || user["email"] != "shop@example.com" || user["first_name"] != "" || user["id"] == nil {
			t.Errorf("user = %v", user)
		}
		if _, ok := body["uuid"].(string); !ok {
			t.Errorf("uuid missing: %v", body)
		}
		// The new token works.
		WantResponse(t, Do(t, "GET", f.URL+"/api/v2/ecommerce/cart/00000000-0000-0000-0000-000000000000/", "", auth(token)...),
			404, `{"detail": "Cart not found"}`)
	})

	t.Run("OKForm", func(t *testing.T) {
		res := Do(t, "POST", url, "username=shop&password=shop-password", "Content-Type", "application/x-www-form-urlencoded")
		WantResponse(t, res, 200, "")
	})

	t.Run("ErrBadCredentials", func(t *testing.T) {
		WantResponse(t, Do(t, "POST", url, `{"username": "shop", "password": "nope"}`),
			400, `{"non_field_errors": ["Unable to log in with provided credentials."]}`)
	})

	t.Run("ErrMissingFields", func(t *testing.T) {
		WantResponse(t, Do(t, "POST", url, `{"username": ""}`),
			400, `{"username": ["This field may not be blank."], "password": ["This field is required."]}`)
	})

	t.Run("ErrMalformedJSON", func(t *testing.T) {
		res := Do(t, "POST", url, `{"username": `)
		if res.Status != 400 || !strings.HasPrefix(res.JSON(t)["detail"].(string), "JSON parse error - ") {
			t.Errorf("got %d %s", res.Status, res.Body)
		}
	})

	t.Run("ErrUnsupportedMediaType", func(t *testing.T) {
		WantResponse(t, Do(t, "POST", url, "hello", "Content-Type", "text/plain"),
			415, `{"detail": "Unsupported media type \"text/plain\" in request."}`)
	})

	t.Run("ErrMethodNotAllowed", func(t *testing.T) {
		res := Do(t, "GET", url, "")
		WantResponse(t, res, 405, `{"detail": "Method \"GET\" not allowed."}`)
		if res.Header.Get("Allow") != "POST" {
			t.Errorf("Allow = %q", res.Header.Get("Allow"))
		}
	})

	t.Run("ErrThrottled", func(t *testing.T) {
		// Ten failures are allowed (one was spent above), then every attempt
		// from this address waits, even with the right password.
		for i := 0; i < 9; i++ {
			WantResponse(t, Do(t, "POST", url, `{"username": "other", "password": "nope"}`), 400, "")
		}
		res := Do(t, "POST", url, `{"username": "other", "password": "other-password"}`)
		if res.Status != 429 || res.Header.Get("Retry-After") == "" ||
			!strings.HasPrefix(res.JSON(t)["detail"].(string), "Request was throttled. Expected available in ") {
			t.Errorf("got %d %v %s", res.Status, res.Header, res.Body)
		}
	})
}

func TestAuthErrors(t *testing.T) {
	f := newRESTFixture(t)
	url := f.URL + "/api/v2/ecommerce/cart/"
	cases := map[string]struct {
		headers []string
		status  int
		body    string
	}{
		"ErrMissing":        {nil, 401, `{"detail": "Authentication credentials were not provided."}`},
		"ErrOtherScheme":    {[]string{"Authorization", "Bearer x"}, 401, `{"detail": "Authentication credentials were not provided."}`},
		"ErrInvalid":        {auth("0123456789abcdef0123456789abcdef01234567"), 401, `{"detail": "Invalid token."}`},
		"ErrMalformed":      {auth("short"), 401, `{"detail": "Invalid token."}`},
		"ErrEmpty":          {[]string{"Authorization", "Token"}, 401, `{"detail": "Invalid token header. No credentials provided."}`},
		"ErrSpaces":         {[]string{"Authorization", "Token a b"}, 401, `{"detail": "Invalid token header. Token string should not contain spaces."}`},
		"ErrStaffNoPartner": {auth(f.staff), 403, `{"detail": "You do not have permission to perform this action."}`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			for _, res := range []Response{
				Do(t, "POST", url, `{"items": []}`, tc.headers...),
				Do(t, "GET", url+"00000000-0000-0000-0000-000000000000/", "", tc.headers...),
				Do(t, "GET", url+"not-a-uuid/", "", tc.headers...),
			} {
				WantResponse(t, res, tc.status, tc.body)
				if tc.status == 401 && res.Header.Get("WWW-Authenticate") != "Token" {
					t.Errorf("WWW-Authenticate = %q", res.Header.Get("WWW-Authenticate"))
				}
			}
		})
	}
}

func TestCartAPI(t *testing.T) {
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
	})
}

func TestCartExpiry(t *testing.T) {
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
	f := newRESTFixture(t)
	res := Do(t, "POST", f.URL+"/api/v2/ecommerce/cart/", `{"items": [{"product_id": 31, "quantity": 4}]}`, auth(f.shop)...)
	shopCart := res.JSON(t)["id"].(string)
	res = Do(t, "POST", f.URL+"/api/v2/ecommerce/cart/", `{"items": []}`, auth(f.other)...)
	otherFunnel := res.JSON(t)["funnel_url"].(string)
	otherCart := res.JSON(t)["id"].(string)

	t.Run("OKPartnerDomain", func(t *testing.T) {
		for _, step := range []string{"shop", "order"} {
			page := Do(t, "GET", f.URL+"/ecommerce/"+step+"/customization/?cart="+shopCart, "", "Host", "shop.example.com")
			if page.Status != 200 || !strings.Contains(page.Body, `data-product-id="31"`) || !strings.Contains(page.Body, `value="4"`) {
				t.Errorf("%s step: %d %s", step, page.Status, page.Body)
			}
			if c := page.Header.Get("Set-Cookie"); !strings.Contains(c, "ecommerce_cart="+shopCart) || !strings.Contains(c, "HttpOnly") {
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
		if page.Header.Get("Set-Cookie") != "" {
			t.Error("a cookie was set for a cart that is not shown")
		}
	})

	t.Run("ErrNoCart", func(t *testing.T) {
		if page := Do(t, "GET", f.URL+"/ecommerce/shop/customization/", "", "Host", "shop.example.com"); page.Status != http.StatusBadRequest {
			t.Errorf("status %d", page.Status)
		}
	})
}

// A route that needs a token answers 401 to a request without one before
// it reads the body: a malformed body, or one of the wrong type, does not
// turn the refusal into a 400 or a 415.
func TestTokenDecidedBeforeBody(t *testing.T) {
	s := Serve(t, dbtest.NewDSN(t))
	for _, route := range []struct{ method, path string }{
		{"POST", "/api/v2/ecommerce/cart/"}, {"POST", "/api/media/"}, {"PATCH", "/api/media/1/"},
		{"POST", "/api/voucher_prototypes/"}, {"PUT", "/api/voucher_prototypes/1/"}, {"PATCH", "/api/voucher_prototypes/1/"},
		{"POST", "/api/options/"}, {"POST", "/api/option_categories/"}, {"PATCH", "/api/vouchers/X/"},
	} {
		for _, body := range [][2]string{{"application/json", "{"}, {"text/plain", "hello"}, {"application/json", "[]"}} {
			r := Do(t, route.method, s.URL+route.path, body[1], "Content-Type", body[0])
			WantResponse(t, r, 401, `{"detail": "Authentication credentials were not provided."}`)
			if r.Header.Get("WWW-Authenticate") != "Token" {
				t.Errorf("%s %s: WWW-Authenticate %q", route.method, route.path, r.Header.Get("WWW-Authenticate"))
			}
		}
		r := Do(t, route.method, s.URL+route.path, "{", "Content-Type", "application/json", "Authorization", "Token "+strings.Repeat("0", 40))
		WantResponse(t, r, 401, `{"detail": "Invalid token."}`)
	}
}
