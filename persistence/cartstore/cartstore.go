// Package cartstore implements domain.CartStore.
//
// By the API contract a cart is a temporary handoff object kept in memory, not
// in the database, that lapses a TTL after its last modification; reading it
// does not extend its life. Two stores implement that:
//
//   - Memory keeps carts in this process. It is the default: nothing to run,
//     but carts are lost on restart and seen by this instance only.
//   - Redis keeps carts in a Redis server (REDIS_URL), still in memory but
//     shared, so several instances of the service behind a load balancer see
//     the same carts. Redis expires the keys itself.
//
// Both hand out copies only, so a caller mutating a cart it got never changes
// the stored one, and both make Update an atomic read-modify-write.
package cartstore

import (
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain/cart"
)

var (
	_ cart.CartStore = (*Memory)(nil)
	_ cart.CartStore = (*Redis)(nil)
)

// errNilCart reports a nil cart given to Create or returned by an Update fn;
// it is a programming error, so it stays an internal error.
var errNilCart = errors.New("cartstore: nil cart")

// checkTTL rejects a TTL that would store a cart forever (Redis treats 0 as
// "no expiry") or lapse it at once; both would be caller bugs.
func checkTTL(ttl time.Duration) error {
	if ttl <= 0 {
		return fmt.Errorf("cartstore: ttl must be positive, got %v", ttl)
	}
	return nil
}

// checkReplacement makes sure Update stores the cart under the id it was
// asked for; otherwise the key and the cart's own ID would disagree.
func checkReplacement(id uuid.UUID, next *cart.Cart) error {
	if next == nil {
		return errNilCart
	}
	if next.ID != id {
		return fmt.Errorf("cartstore: update of cart %s returned cart %s", id, next.ID)
	}
	return nil
}

// cloneCart deep-copies c so that neither the caller nor the store can reach
// the other's items, attribute maps or variant pointers. nil and empty
// slices and maps stay as they were, as they do through JSON.
func cloneCart(c *cart.Cart) *cart.Cart {
	out := *c
	if c.Items != nil {
		out.Items = make([]cart.CartItem, len(c.Items))
		for i, it := range c.Items {
			if it.VariantID != nil {
				v := *it.VariantID
				it.VariantID = &v
			}
			it.AttributeValues = maps.Clone(it.AttributeValues)
			out.Items[i] = it
		}
	}
	return &out
}
