package cart_test

import (
	"encoding/json"
	"testing"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/cart"
)

// input is the input of a cart body of well-typed JSON values: an absent
// key is absent, null is null.
func input(t *testing.T, body string) cart.CartInput {
	t.Helper()
	obj := object(t, []byte(body))
	in := cart.CartInput{ID: field[uuid.UUID](t, obj, "id"), ReturnURL: field[string](t, obj, "return_url")}
	items := field[[]json.RawMessage](t, obj, "items")
	in.Items = domain.Optional[[]cart.ItemInput]{Set: items.Set, Null: items.Null}
	if v, ok := items.Get(); ok {
		list := make([]cart.ItemInput, len(v))
		for i, raw := range v {
			it := object(t, raw)
			list[i] = cart.ItemInput{ProductID: field[int64](t, it, "product_id"), Quantity: field[int64](t, it, "quantity"),
				VariantID: field[int64](t, it, "variant_id"), AttributeValues: field[map[string]string](t, it, "attribute_values")}
		}
		in.Items = domain.Some(list)
	}
	return in
}

func object(t *testing.T, b []byte) map[string]json.RawMessage {
	t.Helper()
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return obj
}

func field[T any](t *testing.T, obj map[string]json.RawMessage, key string) domain.Optional[T] {
	t.Helper()
	raw, ok := obj[key]
	switch {
	case !ok:
		return domain.Optional[T]{}
	case string(raw) == "null":
		return domain.Null[T]()
	}
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %s: %v", key, raw, err)
	}
	return domain.Some(v)
}

func withIfMatch(in cart.CartInput, ifMatch string) cart.CartInput {
	in.IfMatch = ifMatch
	return in
}
