package account

import (
	"testing"

	"github.com/alexedwards/argon2id"
)

// The dummy hash is a well-formed hash of the service's cost, which no
// password matches.
func TestDummyHash(t *testing.T) {
	params := &argon2id.Params{Memory: 1024, Iterations: 2, Parallelism: 1, SaltLength: 16, KeyLength: 32}
	h := dummyHash(params)
	got, salt, key, err := argon2id.DecodeHash(h)
	if err != nil {
		t.Fatalf("%q: %v", h, err)
	}
	if got.Memory != params.Memory || got.Iterations != params.Iterations || got.Parallelism != params.Parallelism ||
		len(salt) != int(params.SaltLength) || len(key) != int(params.KeyLength) {
		t.Errorf("decoded %+v, salt %d, key %d; want %+v", got, len(salt), len(key), params)
	}
	if match, err := argon2id.ComparePasswordAndHash("no such user", h); err != nil || match {
		t.Errorf("a password matches the dummy: %v %v", match, err)
	}
	if dummyHash(params) == h {
		t.Error("two dummies are the same")
	}
}
