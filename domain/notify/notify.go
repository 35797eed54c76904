// Package notify is the platform's transactional mails: what a mail is,
// the outbox a service puts mails in, in the transaction of the change
// that causes them (so a mail is sent if and only if the change commits),
// and the rendering of each notification in the card's or customer's
// language. Delivery (SMTP, retries) is infrastructure: persistence/mailer.
package notify

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"salesplatform/domain/l10n"
)

// Limits of a mail: a queued mail is a row (its job), and a subject is one
// header line.
const (
	MaxSubjectRunes = 255
	MaxBodyBytes    = 256 << 10 // Text and HTML together
)

// Mail is one message to one recipient.
type Mail struct {
	// Kind says what the mail is, in logs and metrics: a-z, 0-9 and _,
	// 3 to 64 characters ("network_giftcard_usage_marketplace").
	Kind string
	// To is the recipient: "name@example.com" or "Name <name@example.com>".
	To      string
	Subject string
	Text    string // the plain-text body, always sent
	HTML    string // an HTML alternative; empty sends the text alone
	// Language is the l10n language of the texts, one of l10n.Languages.
	Language string
}

// Outbox queues mails for delivery. A service takes it from the stores of
// its transaction (a store of the unit of work): the mails are queued if
// and only if the transaction commits, and delivered after it, at least
// once (docs/DECISIONS.md, "Transactional mails").
type Outbox interface {
	// Enqueue queues the mails, all or none. An invalid mail (Validate) is
	// an error, and then none is queued.
	Enqueue(ctx context.Context, mails ...Mail) error
}

var kindPattern = regexp.MustCompile(`^[a-z0-9_]{3,64}$`)

// Validate reports what makes m undeliverable: an error of the service
// that wrote it, never of its user, so it is a plain error.
func (m Mail) Validate() error {
	var problems []string
	if !kindPattern.MatchString(m.Kind) {
		problems = append(problems, fmt.Sprintf("kind %q is not 3 to 64 of a-z, 0-9 and _", m.Kind))
	}
	if a, err := mail.ParseAddress(m.To); err != nil || len(a.Address) > 254 {
		problems = append(problems, fmt.Sprintf("recipient %q is not one address", m.To))
	}
	switch {
	case strings.TrimSpace(m.Subject) == "":
		problems = append(problems, "no subject")
	case strings.ContainsAny(m.Subject, "\r\n"):
		problems = append(problems, "the subject is more than one line")
	case utf8.RuneCountInString(m.Subject) > MaxSubjectRunes:
		problems = append(problems, fmt.Sprintf("the subject is longer than %d characters", MaxSubjectRunes))
	}
	switch {
	case strings.TrimSpace(m.Text) == "":
		problems = append(problems, "no text")
	case len(m.Text)+len(m.HTML) > MaxBodyBytes:
		problems = append(problems, fmt.Sprintf("the body is larger than %d bytes", MaxBodyBytes))
	}
	if !utf8.ValidString(m.To) || !utf8.ValidString(m.Subject) || !utf8.ValidString(m.Text) || !utf8.ValidString(m.HTML) {
		problems = append(problems, "not UTF-8")
	}
	if !slices.Contains(l10n.Languages, m.Language) {
		problems = append(problems, fmt.Sprintf("language %q is not one of %s", m.Language, strings.Join(l10n.Languages, ", ")))
	}
	if len(problems) > 0 {
		return errors.New("notify: invalid mail: " + strings.Join(problems, "; "))
	}
	return nil
}
