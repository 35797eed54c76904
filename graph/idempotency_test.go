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
	ctx, err := withIdempotencyKey(context.Background(), nil)
	if err != nil || idempotency.KeyFrom(ctx) != "" {
		t.Errorf("null: key %q, %v", idempotency.KeyFrom(ctx), err)
	}
	key := "0b8f1c1e-5d52-4a4f-9e55-1f6c1d1c2b3a"
	if ctx, err = withIdempotencyKey(context.Background(), &key); err != nil || idempotency.KeyFrom(ctx) != key {
		t.Errorf("a key: %q, %v", idempotency.KeyFrom(ctx), err)
	}
	bad := "a b"
	if _, err = withIdempotencyKey(context.Background(), &bad); !domain.IsCode(err, domain.CodeInvalid) {
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
