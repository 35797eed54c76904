package mailer_test

import (
	"strings"
	"testing"

	"salesplatform/persistence/mailer"
)

func TestParseSMTPURL(t *testing.T) {
	for raw, want := range map[string]mailer.SMTP{
		"smtp://relay.example.com":                        {Host: "relay.example.com", Port: 587, StartTLS: mailer.StartTLSMandatory},
		"smtp://u%40x:p%3Ass@relay.example.com:25/":       {Host: "relay.example.com", Port: 25, Username: "u@x", Password: "p:ss", StartTLS: mailer.StartTLSMandatory},
		"smtp://localhost:1025":                           {Host: "localhost", Port: 1025, StartTLS: mailer.StartTLSOpportunistic},
		"smtp://[::1]:1025":                               {Host: "::1", Port: 1025, StartTLS: mailer.StartTLSOpportunistic},
		"smtp://127.0.0.1?starttls=mandatory":             {Host: "127.0.0.1", Port: 587, StartTLS: mailer.StartTLSMandatory},
		"smtp://relay.internal:25?starttls=none":          {Host: "relay.internal", Port: 25, StartTLS: mailer.StartTLSNone},
		"smtp://relay.internal:25?starttls=opportunistic": {Host: "relay.internal", Port: 25, StartTLS: mailer.StartTLSOpportunistic},
		"smtps://apikey:secret@smtp.example.com":          {Host: "smtp.example.com", Port: 465, Username: "apikey", Password: "secret", ImplicitTLS: true},
	} {
		got, err := mailer.ParseSMTPURL(raw)
		if err != nil {
			t.Errorf("%s: %v", raw, err)
			continue
		}
		if got.Host != want.Host || got.Port != want.Port || got.Username != want.Username || got.Password != want.Password ||
			got.ImplicitTLS != want.ImplicitTLS || got.StartTLS != want.StartTLS {
			t.Errorf("%s: %+v, want %+v", raw, *got, want)
		}
		if strings.Contains(got.String(), "secret") || strings.Contains(got.String(), "p:ss") {
			t.Errorf("%s: String() %q shows the password", raw, got)
		}
	}
	for raw, msg := range map[string]string{
		"http://relay.example.com":                "scheme",
		"relay.example.com:587":                   "scheme",
		"smtp://":                                 "no host",
		"smtp://relay.example.com:0":              "port",
		"smtp://relay.example.com:99999":          "port",
		"smtp://relay.example.com/inbox":          "no path",
		"smtp://relay.example.com?starttls=yes":   "starttls",
		"smtp://relay.example.com?tls=1":          "unknown parameter",
		"smtps://relay.example.com?starttls=none": "unknown parameter",
		"smtp://u:secret@relay.example.com:x":     "",
		"smtp://u:secret@relay.example.com/x":     "no path",
	} {
		_, err := mailer.ParseSMTPURL(raw)
		if err == nil || !strings.Contains(err.Error(), msg) || strings.Contains(err.Error(), "secret") {
			t.Errorf("%s: %v, want an error about %q without the password", raw, err, msg)
		}
	}
}
