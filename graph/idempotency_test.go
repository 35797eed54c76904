package graph

import (
	"context"
	"log/slog"
	"testing"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
)

// The argument reaches the service as the REST header does; a bad key is
// BAD_USER_INPUT, a reused one UNPROCESSABLE, one still running CONFLICT.
func TestIdempotencyKeyArgument(t *testing.T) {
	// The key's effect (a replay) is the end-to-end tests'; here, that
	// null leaves the request as it is and a key is taken.
	parent := context.Background()
	ctx, err := withIdempotencyKey(parent, nil)
	if err != nil || ctx != parent {
		t.Errorf("null: a context of its own, %v", err)
	}
	key := "0b8f1c1e-5d52-4a4f-9e55-1f6c1d1c2b3a"
	if ctx, err = withIdempotencyKey(parent, &key); err != nil || ctx == parent {
		t.Errorf("a key: not taken, %v", err)
	}
	bad := "a b"
	if _, err = withIdempotencyKey(parent, &bad); !domain.IsCode(err, domain.CodeInvalid) {
		t.Fatalf("a key with a space: %v", err)
	}
	present := presentError(ctxLogger(func(context.Context) *slog.Logger { return slog.New(slog.DiscardHandler) }))
	for err, code := range map[error]string{
		err: "BAD_USER_INPUT",
		&domain.Error{Code: domain.CodeUnprocessable, Message: idempotency.MsgKeyReused}: "UNPROCESSABLE",
		&domain.Error{Code: domain.CodeConflict, Message: idempotency.MsgInProgress}:     "CONFLICT",
	} {
		got := present(context.Background(), err)
		if got.Extensions["code"] != code || got.Message != err.(*domain.Error).Message {
			t.Errorf("%v presented as %s %q, want %s", err, got.Extensions["code"], got.Message, code)
		}
	}
}
