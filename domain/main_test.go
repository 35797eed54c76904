package domain_test

import (
	"context"
	"testing"

	"github.com/alexedwards/argon2id"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// cheapHashing keeps tests fast; production uses argon2id's defaults.
var cheapHashing = &argon2id.Params{Memory: 1024, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 32}

// mustDatabase returns a fresh migrated database, as stores and as a pool
// for the test's own checks.
func mustDatabase(tb testing.TB) (*persistence.Database, *bun.DB) {
	tb.Helper()
	raw := dbtest.New(tb)
	return persistence.NewDatabase(raw), raw
}

// mustAccount creates an account through the service and returns it.
func mustAccount(tb testing.TB, accounts *domain.AccountService, in domain.NewAccountInput) *domain.NewAccount {
	tb.Helper()
	if in.Password == "" {
		in.Password = "correct horse"
	}
	a, err := accounts.CreateAccount(context.Background(), in)
	if err != nil {
		tb.Fatalf("create account %q: %v", in.Username, err)
	}
	return a
}

// asCaller returns a context authenticated with the account's token.
func asCaller(tb testing.TB, accounts *domain.AccountService, a *domain.NewAccount) context.Context {
	tb.Helper()
	c, err := accounts.Authenticate(context.Background(), a.Token)
	if err != nil {
		tb.Fatalf("authenticate %q: %v", a.User.Username, err)
	}
	return domain.WithCaller(context.Background(), c)
}

// wantCode fails unless err is a domain error with the code.
func wantCode(tb testing.TB, err error, code domain.Code) *domain.Error {
	tb.Helper()
	if !domain.IsCode(err, code) {
		tb.Fatalf("error = %v, want code %s", err, code)
	}
	return err.(*domain.Error)
}
