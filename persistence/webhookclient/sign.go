// Package webhookclient delivers one webhook per Standard Webhooks 1.0: it
// signs the body, POSTs it to an endpoint that resolves only to public
// addresses (or to the configured allowed networks), and classifies the
// answer; RetrySchedule says when a failed delivery is tried again
// (docs/DECISIONS.md, "Webhook deliveries").
package webhookclient

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// SecretPrefix starts every endpoint secret; base64 of the HMAC key follows.
const SecretPrefix = "whsec_"

// ErrBadSecret is a secret that is not "whsec_" + base64 of a key.
var ErrBadSecret = errors.New("webhookclient: secret is not whsec_ followed by base64")

// Sign is the webhook-signature value of one delivery under one secret:
// "v1," + base64(HMAC-SHA256(key, id + "." + unix seconds + "." + body)).
func Sign(secret, id string, ts time.Time, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, SecretPrefix))
	if err != nil || len(key) == 0 || !strings.HasPrefix(secret, SecretPrefix) {
		return "", ErrBadSecret
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id))
	mac.Write([]byte{'.'})
	mac.Write(strconv.AppendInt(nil, ts.Unix(), 10))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// Signatures is the webhook-signature header under every live secret,
// space-separated: while a rotated secret is still live a receiver that
// knows either one verifies the delivery.
func Signatures(secrets []string, id string, ts time.Time, body []byte) (string, error) {
	if len(secrets) == 0 {
		return "", ErrBadSecret
	}
	sigs := make([]string, len(secrets))
	for i, s := range secrets {
		sig, err := Sign(s, id, ts, body)
		if err != nil {
			return "", err
		}
		sigs[i] = sig
	}
	return strings.Join(sigs, " "), nil
}
