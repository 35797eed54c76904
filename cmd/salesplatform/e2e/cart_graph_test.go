package e2e

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestGraphCart(t *testing.T) {
	t.Parallel()
	f := newGraphFixture(t)
	create := `mutation($in: CreateCartInput!) { createCart(input: $in) { cart { ` + cartFields + ` } userErrors { field code message } errors { field code message } } }`
	replace := `mutation($in: ReplaceCartInput!) { replaceCart(input: $in) { cart { ` + cartFields + ` } userErrors { field code message } errors { field code message } } }`
	get := `query($id: UUID!) { cart(id: $id) { ` + cartFields + ` } }`

	type cart struct {
		ID    string
		Items []struct {
			ProductID, Quantity int64
			VariantID           *int64
			AttributeValues     []struct {
				AttributeID int64
				Value       string
			}
		}
		ReturnURL, FunnelURL, Etag         string
		LastModified, CreatedAt, ExpiresAt time.Time
	}
	type payload struct {
		Cart       *cart
		UserErrors []struct {
			Field         []string
			Code, Message string
		}
	}
	mustCreate := func(t *testing.T, token string, in map[string]any) cart {
		t.Helper()
		data, errs := post(t, f.c, token, create, map[string]any{"in": in})
		if errs != nil {
			t.Fatal(errs)
		}
		var out struct{ CreateCart payload }
		_ = json.Unmarshal(data, &out)
		if out.CreateCart.Cart == nil {
			t.Fatalf("no cart: %s", data)
		}
		return *out.CreateCart.Cart
	}

	t.Run("OKCreateReplaceRead", func(t *testing.T) {
		c := mustCreate(t, f.shop, map[string]any{"items": []any{
			map[string]any{"productId": 5, "quantity": 2},
			map[string]any{"productId": 6, "quantity": 1, "variantId": 9, "attributeValues": []any{map[string]any{"attributeId": 3, "value": "red"}}},
		}, "returnUrl": "https://shop.example.com/done"})
		if len(c.Items) != 2 || c.Items[0].VariantID != nil || len(c.Items[0].AttributeValues) != 0 ||
			*c.Items[1].VariantID != 9 || c.Items[1].AttributeValues[0].Value != "red" || c.ReturnURL != "https://shop.example.com/done" {
			t.Errorf("cart = %+v", c)
		}
		if c.FunnelURL != "https://shop.example.com/ecommerce/shop/customization/?cart="+c.ID || !c.ExpiresAt.Equal(c.LastModified.Add(time.Hour)) {
			t.Errorf("funnelUrl %q, expiresAt %v", c.FunnelURL, c.ExpiresAt)
		}

		data, errs := post(t, f.c, f.shop, replace, map[string]any{"in": map[string]any{"id": c.ID, "ifMatch": c.Etag,
			"items": []any{map[string]any{"productId": 7, "quantity": 0}}}})
		if errs != nil {
			t.Fatal(errs)
		}
		var out struct{ ReplaceCart payload }
		_ = json.Unmarshal(data, &out)
		r := out.ReplaceCart.Cart
		if r == nil || r.ID != c.ID || len(r.Items) != 1 || r.Items[0].ProductID != 7 || !r.LastModified.After(c.LastModified) || r.Etag == c.Etag {
			t.Fatalf("replace = %s", data)
		}

		data, errs = post(t, f.c, f.shop, get, map[string]any{"id": c.ID})
		if errs != nil || !strings.Contains(string(data), `"productId":7`) {
			t.Errorf("read = %s %v", data, errs)
		}
		// The lookup takes the Cart's global id too.
		data, errs = post(t, f.c, f.shop, `query($id: ID!) { cart(cartId: $id) { legacyId } }`, map[string]any{"id": globalID("Cart", c.ID)})
		if errs != nil || !strings.Contains(string(data), c.ID) {
			t.Errorf("read by cartId = %s %v", data, errs)
		}

		// A writer holding the first ETag is refused.
		_, errs = post(t, f.c, f.shop, replace, map[string]any{"in": map[string]any{"id": c.ID, "ifMatch": c.Etag, "items": []any{}}})
		wantErrorCode(t, errs, "PRECONDITION_FAILED")

		// cartId, the Cart's global id, replaces the deprecated id; the errors name it.
		data, errs = post(t, f.c, f.shop, replace, map[string]any{"in": map[string]any{"cartId": globalID("Cart", c.ID),
			"items": []any{map[string]any{"productId": 8, "quantity": 1}}}})
		if errs != nil || !strings.Contains(string(data), `"productId":8`) {
			t.Errorf("replace by cartId = %s %v", data, errs)
		}
		_, errs = post(t, f.c, f.shop, replace, map[string]any{"in": map[string]any{"cartId": globalID("Cart", c.ID), "id": c.ID, "items": []any{}}})
		wantErrorCode(t, errs, "BAD_USER_INPUT")
		data, _ = post(t, f.c, f.other, replace, map[string]any{"in": map[string]any{"cartId": globalID("Cart", c.ID), "items": []any{}}})
		WantJSON(t, data, `{"replaceCart":{"cart":null,"userErrors":[{"field":["cartId"],"code":"does_not_exist","message":"Cart not found"}],`+
			`"errors":[{"field":["input","cartId"],"code":"DOES_NOT_EXIST","message":"Cart not found"}]}}`)
	})

	t.Run("ErrNotFound", func(t *testing.T) {
		c := mustCreate(t, f.shop, map[string]any{"items": []any{}})
		data, errs := post(t, f.c, f.other, get, map[string]any{"id": c.ID})
		wantErrorCode(t, errs, "NOT_FOUND")
		if errs[0].Message != "Cart not found" || string(data) != `{"cart":null}` {
			t.Errorf("data %s, errors %+v", data, errs)
		}
		data, errs = post(t, f.c, f.other, replace, map[string]any{"in": map[string]any{"id": c.ID, "items": []any{}}})
		if errs != nil {
			t.Fatal(errs)
		}
		WantJSON(t, data, `{"replaceCart":{"cart":null,"userErrors":[{"field":["id"],"code":"does_not_exist","message":"Cart not found"}],`+
			`"errors":[{"field":["input","id"],"code":"DOES_NOT_EXIST","message":"Cart not found"}]}}`)
	})

	t.Run("ErrUserInput", func(t *testing.T) {
		data, errs := post(t, f.c, f.shop, create, map[string]any{"in": map[string]any{"items": []any{
			map[string]any{"productId": 1, "quantity": 1},
			map[string]any{"productId": 0, "quantity": -2},
		}, "returnUrl": "nope"}})
		if errs != nil {
			t.Fatal(errs)
		}
		want := `{"createCart":{"cart":null,"userErrors":[` +
			`{"field":["return_url"],"code":"invalid","message":"Enter a valid URL."},` +
			`{"field":["items","1","product_id"],"code":"min_value","message":"Ensure this value is greater than or equal to 1."},` +
			`{"field":["items","1","quantity"],"code":"min_value","message":"Ensure this value is greater than or equal to 0."}],` +
			// The typed errors name the input as sent.
			`"errors":[{"field":["input","returnUrl"],"code":"INVALID","message":"Enter a valid URL."},` +
			`{"field":["input","items","1","productId"],"code":"MIN_VALUE","message":"Ensure this value is greater than or equal to 1."},` +
			`{"field":["input","items","1","quantity"],"code":"MIN_VALUE","message":"Ensure this value is greater than or equal to 0."}]}}`
		WantJSON(t, data, want)
	})

	t.Run("ErrReturnURL", func(t *testing.T) {
		for u, msg := range map[string]string{
			"https://shop.example.com@evil.example.com": "Enter a URL without a user name or password.",
			"http://127.0.0.1:18080/admin":              "Enter a URL of a public host, not a local or private address.",
			"https://evil.example.com/<script>":         "Enter a valid URL.",
		} {
			data, errs := post(t, f.c, f.shop, create, map[string]any{"in": map[string]any{"items": []any{}, "returnUrl": u}})
			if errs != nil {
				t.Fatal(errs)
			}
			WantJSON(t, data, `{"createCart":{"cart":null,"userErrors":[{"field":["return_url"],"code":"invalid","message":"`+msg+`"}],`+
				`"errors":[{"field":["input","returnUrl"],"code":"INVALID","message":"`+msg+`"}]}}`)
		}
	})

	t.Run("ErrAuth", func(t *testing.T) {
		_, errs := post(t, f.c, "", create, map[string]any{"in": map[string]any{"items": []any{}}})
		wantErrorCode(t, errs, "UNAUTHENTICATED")
		_, errs = post(t, f.c, f.staff, get, map[string]any{"id": "2b1c0a44-4a4e-4c4e-9c1a-0d3f1a2b3c4d"})
		wantErrorCode(t, errs, "FORBIDDEN")
	})

	t.Run("ErrBadArgument", func(t *testing.T) {
		_, errs := post(t, f.c, f.shop, get, map[string]any{"id": "not-a-uuid"})
		if len(errs) == 0 || errs[0].Extensions["code"] == nil {
			t.Errorf("errors = %+v, want a coded error", errs)
		}
	})
}

// TestGraphAndRESTShareCarts proves the two surfaces run one service: a cart
// made through GraphQL is read through REST, and a REST replace is seen by
// GraphQL.
func TestGraphAndRESTShareCarts(t *testing.T) {
	t.Parallel()
	f := newGraphFixture(t)
	data, errs := post(t, f.c, f.shop, `mutation { createCart(input: {items: [{productId: 4, quantity: 3}]}) { cart { id: legacyId } } }`, nil)
	if errs != nil {
		t.Fatal(errs)
	}
	var out struct {
		CreateCart struct{ Cart struct{ ID string } }
	}
	_ = json.Unmarshal(data, &out)
	id := out.CreateCart.Cart.ID

	srv := httptest.NewServer(f.h)
	defer srv.Close()
	res := Do(t, "GET", srv.URL+"/api/v2/ecommerce/cart/"+id+"/", "", auth(f.shop)...)
	if res.Status != 200 || !strings.Contains(res.Body, `"product_id":4,"quantity":3`) {
		t.Fatalf("REST read: %d %s", res.Status, res.Body)
	}
	res = Do(t, "POST", srv.URL+"/api/v2/ecommerce/cart/", `{"id": "`+id+`", "items": [{"product_id": 8, "quantity": 1}]}`, auth(f.shop)...)
	WantResponse(t, res, 200, "")
	data, errs = post(t, f.c, f.shop, `query($id: UUID!) { cart(id: $id) { items { productId } } }`, map[string]any{"id": id})
	if errs != nil {
		t.Fatal(errs)
	}
	WantJSON(t, data, `{"cart":{"items":[{"productId":8}]}}`)
}
