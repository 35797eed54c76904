package domain

import (
	"crypto/rand"
	"fmt"
)

// Gift codes made by the platform: GiftCodeLength characters drawn by
// crypto/rand from an alphabet without the look-alikes 0, O, 1 and I
// (32 symbols, so each byte maps without bias: 60 bits a code).
const (
	GiftCodeLength   = 12
	giftCodeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	giftCodeAttempts = 5
)

// NewGiftCode returns a fresh random gift code.
func NewGiftCode() string {
	b := make([]byte, GiftCodeLength)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	for i := range b {
		b[i] = giftCodeAlphabet[int(b[i])%len(giftCodeAlphabet)]
	}
	return string(b)
}

// IssueWithCode runs insert with fresh codes until one is not taken (a
// CodeInvalid error on the one field "code" means taken) and returns it.
func IssueWithCode(insert func(code string) error) (string, error) {
	for range giftCodeAttempts {
		code := NewGiftCode()
		err := insert(code)
		if err == nil {
			return code, nil
		}
		if de, ok := err.(*Error); !ok || de.Code != CodeInvalid || len(de.Fields) != 1 || de.Fields[0].Path[0] != "code" {
			return "", err
		}
	}
	return "", fmt.Errorf("issue: no free code after %d attempts", giftCodeAttempts)
}
