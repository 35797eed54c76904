package graph

import (
	"context"

	"salesplatform/domain/idempotency"
)

// withIdempotencyKey puts a mutation's idempotencyKey argument on ctx for
// the service's guard (domain/idempotency, docs/GRAPHQL.md): the mutations
// that create or move value call it before their service; null is no key.
// Errors: BAD_USER_INPUT for a key that is not 1 to 255 printable ASCII
// characters without spaces.
func withIdempotencyKey(ctx context.Context, key *string) (context.Context, error) {
	if key == nil {
		return ctx, nil
	}
	return idempotency.WithKey(ctx, *key)
}
