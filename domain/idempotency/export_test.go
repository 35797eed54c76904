package idempotency

import "context"

// KeyFrom returns the request's idempotency key; "" when it has none.
func KeyFrom(ctx context.Context) string {
	if h, _ := ctx.Value(ctxKey{}).(*holder); h != nil {
		return h.key
	}
	return ""
}
