package dbtest

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/alexedwards/argon2id"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/persistence"
)

// Helpers for tests of the domain's services on a real database.

// CheapHashing keeps tests fast; production uses argon2id's defaults.
var CheapHashing = &argon2id.Params{Memory: 1024, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 32}

// NewDatabase returns a fresh migrated database, as the domain's stores and
// as a pool for the test's own checks.
func NewDatabase(tb testing.TB) (*persistence.Database, *bun.DB) {
	tb.Helper()
	raw := New(tb)
	return persistence.NewDatabase(raw), raw
}

// MustAccount creates an account through the service and returns it; the
// password defaults to "correct horse".
func MustAccount(tb testing.TB, accounts *account.AccountService, in account.NewAccountInput) *account.NewAccount {
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

// AsCaller returns a context authenticated with the account's token.
func AsCaller(tb testing.TB, accounts *account.AccountService, a *account.NewAccount) context.Context {
	tb.Helper()
	c, err := accounts.Authenticate(context.Background(), a.Token)
	if err != nil {
		tb.Fatalf("authenticate %q: %v", a.User.Username, err)
	}
	return domain.WithCaller(context.Background(), c)
}

// WantCode fails unless err is a domain error with the code.
func WantCode(tb testing.TB, err error, code domain.Code) *domain.Error {
	tb.Helper()
	if !domain.IsCode(err, code) {
		tb.Fatalf("error = %v, want code %s", err, code)
	}
	return err.(*domain.Error)
}

// AsStaff is a context whose caller is a staff user without a partner.
func AsStaff() context.Context {
	return domain.WithCaller(context.Background(), &domain.Caller{User: &domain.User{Username: "staff", IsStaff: true}})
}

// MustPartner creates p (active unless it says otherwise).
func MustPartner(tb testing.TB, partners domain.PartnerStore, p *domain.Partner) *domain.Partner {
	tb.Helper()
	if p.Status == "" {
		p.Status = domain.PartnerStatusActive
	}
	if err := partners.CreatePartner(context.Background(), p); err != nil {
		tb.Fatalf("create partner %q: %v", p.Name, err)
	}
	return p
}

// WantFieldErrors fails unless err is CodeInvalid with exactly the
// messages want, keyed by dotted path ("items.1.quantity").
func WantFieldErrors(tb testing.TB, err error, want map[string]string) *domain.Error {
	tb.Helper()
	e := WantCode(tb, err, domain.CodeInvalid)
	got := map[string]string{}
	for _, f := range e.Fields {
		got[domain.PathKey(f.Path)] = f.Message
	}
	if !reflect.DeepEqual(got, want) {
		tb.Errorf("field errors = %v, want %v", got, want)
	}
	return e
}

// JSON decodes a test's JSON document as a request body is decoded
// (numbers as json.Number).
func JSON(tb testing.TB, s string) any {
	tb.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		tb.Fatalf("bad test JSON %s: %v", s, err)
	}
	return v
}

// Concurrently runs n calls of f at once and counts the error codes they
// return ("" for a success).
func Concurrently(n int, f func(i int) error) map[domain.Code]int {
	var mu sync.Mutex
	got := map[domain.Code]int{}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			code := domain.Code("")
			if err := f(i); err != nil {
				code = domain.ErrorCode(err)
			}
			mu.Lock()
			got[code]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return got
}
