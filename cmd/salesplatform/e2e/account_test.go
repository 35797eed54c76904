package e2e

import (
	"regexp"
	"strings"
	"testing"

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
	t.Parallel()
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
		WantResponse(t, Do(t, "POST", url, `{"username": null, "password": null}`),
			400, `{"username": ["This field may not be null."], "password": ["This field may not be null."]}`)
		WantResponse(t, Do(t, "POST", url, `{"username": "   ", "password": "x"}`),
			400, `{"username": ["This field may not be blank."]}`)
		WantResponse(t, Do(t, "POST", url, `{"username": ["shop"], "password": {}}`),
			400, `{"username": ["Not a valid string."], "password": ["Not a valid string."]}`)
	})

	// As DRF's login serializer: the username is trimmed (the password is
	// not: domain/account's TestLogin).
	t.Run("OKUsernameTrimmed", func(t *testing.T) {
		WantResponse(t, Do(t, "POST", url, `{"username": "  shop ", "password": "shop-password"}`), 200, "")
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
	t.Parallel()
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

// A route that needs a token answers 401 to a request without one before
// it reads the body: a malformed body, or one of the wrong type, does not
// turn the refusal into a 400 or a 415.
func TestTokenDecidedBeforeBody(t *testing.T) {
	t.Parallel()
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
