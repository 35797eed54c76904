package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/99designs/gqlgen/client"

	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// graphFixture is the service's handler behind gqlgen's test client, with the
// same accounts as the REST tests.
type graphFixture struct {
	h                  http.Handler
	c                  *client.Client
	shop, other, staff string
}

func newGraphFixture(t *testing.T) *graphFixture {
	t.Helper()
	dsn := dbtest.NewDSN(t)
	f := &graphFixture{
		shop:  CreateUser(t, dsn, "--username", "shop", "--password", "shop-password", "--partner-name", "Shop", "--partner-domain", "shop.example.com"),
		other: CreateUser(t, dsn, "--username", "other", "--password", "other-password", "--partner-name", "Other"),
		staff: CreateUser(t, dsn, "--username", "staff", "--password", "staff-password", "--staff"),
	}
	db, err := persistence.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	f.h = Handler(t, db)
	f.c = client.New(f.h)
	return f
}

// gqlError is one entry of a response's errors.
type gqlError struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

// post runs an operation and returns its data and errors.
func post(t *testing.T, c *client.Client, token, query string, vars map[string]any) (json.RawMessage, []gqlError) {
	t.Helper()
	return postAt(t, c, "", token, query, vars)
}

// postAt is post for the catalogue of site (X-Partner-Domain, "" for none).
func postAt(t *testing.T, c *client.Client, site, token, query string, vars map[string]any) (json.RawMessage, []gqlError) {
	t.Helper()
	opts := []client.Option{client.Path("/graphql")}
	for k, v := range vars {
		opts = append(opts, client.Var(k, v))
	}
	if site != "" {
		opts = append(opts, client.AddHeader("X-Partner-Domain", site))
	}
	if token != "" {
		opts = append(opts, client.AddHeader("Authorization", "Token "+token))
	}
	resp, err := c.RawPost(query, opts...)
	if err != nil {
		t.Fatalf("post: %v", err)
	}
	data, _ := json.Marshal(resp.Data)
	CheckPayloadErrors(t, query, data)
	var errs []gqlError
	if len(resp.Errors) > 0 {
		if err := json.Unmarshal(resp.Errors, &errs); err != nil {
			t.Fatalf("errors %s: %v", resp.Errors, err)
		}
	}
	return data, errs
}

func wantErrorCode(t *testing.T, errs []gqlError, code string) {
	t.Helper()
	if len(errs) != 1 || errs[0].Extensions["code"] != code {
		t.Fatalf("errors = %+v, want one with code %s", errs, code)
	}
}

const cartFields = `id: legacyId items { productId quantity variantId attributeValues { attributeId value } }
	returnUrl funnelUrl lastModified createdAt expiresAt etag`

func TestGraphViewer(t *testing.T) {
	t.Parallel()
	f := newGraphFixture(t)
	q := `{ viewer { user { username isStaff } partner { name siteDomain isMarketplace status } permissions } }`

	t.Run("OK", func(t *testing.T) {
		data, errs := post(t, f.c, f.shop, q, nil)
		if errs != nil {
			t.Fatal(errs)
		}
		want := `{"viewer":{"user":{"username":"shop","isStaff":false},"partner":{"name":"Shop","siteDomain":"shop.example.com","isMarketplace":false,"status":"a"},"permissions":[]}}`
		WantJSON(t, data, want)
	})
	t.Run("ErrUnauthenticated", func(t *testing.T) {
		_, errs := post(t, f.c, "", q, nil)
		wantErrorCode(t, errs, "UNAUTHENTICATED")
		if errs[0].Message != "Authentication credentials were not provided." {
			t.Errorf("message = %q", errs[0].Message)
		}
		_, errs = post(t, f.c, "0123456789abcdef0123456789abcdef01234567", q, nil)
		wantErrorCode(t, errs, "UNAUTHENTICATED")
		if errs[0].Message != "Invalid token." {
			t.Errorf("message = %q", errs[0].Message)
		}
	})
}

func TestGraphCreateToken(t *testing.T) {
	t.Parallel()
	f := newGraphFixture(t)
	m := `mutation($in: CreateTokenInput!) { createToken(input: $in) { token uuid user { username } userErrors { field code message } errors { field code message } } }`

	t.Run("OK", func(t *testing.T) {
		data, errs := post(t, f.c, "", m, map[string]any{"in": map[string]any{"username": "shop", "password": "shop-password"}})
		if errs != nil {
			t.Fatal(errs)
		}
		var out struct {
			CreateToken struct {
				Token      string
				UUID       string
				User       struct{ Username string }
				UserErrors []any
			}
		}
		_ = json.Unmarshal(data, &out)
		if len(out.CreateToken.Token) != 40 || out.CreateToken.User.Username != "shop" || len(out.CreateToken.UserErrors) != 0 {
			t.Fatalf("payload = %s", data)
		}
		// The token authenticates GraphQL requests.
		if _, errs := post(t, f.c, out.CreateToken.Token, `{ viewer { user { username } } }`, nil); errs != nil {
			t.Errorf("new token refused: %v", errs)
		}
	})
	t.Run("ErrBadCredentials", func(t *testing.T) {
		data, errs := post(t, f.c, "", m, map[string]any{"in": map[string]any{"username": "shop", "password": "wrong"}})
		if errs != nil {
			t.Fatal(errs)
		}
		want := `{"createToken":{"token":null,"uuid":null,"user":null,"userErrors":[{"field":[],"code":"invalid","message":"Unable to log in with provided credentials."}],` +
			`"errors":[{"field":["input"],"code":"INVALID","message":"Unable to log in with provided credentials."}]}}`
		WantJSON(t, data, want)
	})
}
