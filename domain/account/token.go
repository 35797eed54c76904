package account

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
)

// tokenBytes gives keys of 40 hex characters, the shape legacy clients store.
const tokenBytes = 20

// newTokenKey returns a fresh random API key and the hash to store for it.
func newTokenKey() (key string, hash []byte) {
	b := make([]byte, tokenBytes)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	key = hex.EncodeToString(b)
	return key, hashTokenKey(key)
}

func hashTokenKey(key string) []byte {
	sum := sha256.Sum256([]byte(key))
	return sum[:]
}

// wellFormedKey reports whether key can be a key this service issued, so that
// garbage never reaches the database.
func wellFormedKey(key string) bool {
	if len(key) != 2*tokenBytes {
		return false
	}
	_, err := hex.DecodeString(key)
	return err == nil
}

// sameHash compares two hashes in constant time.
func sameHash(a, b []byte) bool {
	return subtle.ConstantTimeCompare(a, b) == 1
}
