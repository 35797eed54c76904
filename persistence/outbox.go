package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/uptrace/bun"

	"salesplatform/domain/notify"
)

// The outbox is River's job table (river_job): a mail is a job of kind
// "mail" on the queue MailQueue, inserted with the statements of the
// transaction that causes it, and worked by persistence/mailer once that
// transaction commits (docs/DECISIONS.md, "Transactional mails").
const (
	MailJobKind = "mail"
	MailQueue   = "mail"
	// MailMaxAttempts bounds the deliveries of a mail the SMTP server
	// keeps refusing for a while: with River's backoff (attempt⁴ seconds)
	// 12 attempts span about eleven hours, then the job is discarded
	// (kept 7 days in river_job, where it can be retried by hand).
	MailMaxAttempts = 12
)

// MailArgs is a mail job's arguments (river_job.args, JSON): the stored
// format of a queued mail, which outlives a deploy, so a field is never
// renamed without reading the old name too.
type MailArgs struct {
	MailKind string `json:"kind"`
	To       string `json:"to"`
	Subject  string `json:"subject"`
	Text     string `json:"text"`
	HTML     string `json:"html,omitempty"`
	Language string `json:"language"`
}

// Kind implements river.JobArgs.
func (MailArgs) Kind() string { return MailJobKind }

// InsertOpts implements river.JobArgsWithInsertOpts: every mail job, by
// whichever client it is inserted, goes to the mail queue.
func (MailArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: MailQueue, MaxAttempts: MailMaxAttempts}
}

// Mail is the mail a job delivers.
func (a MailArgs) Mail() notify.Mail {
	return notify.Mail{Kind: a.MailKind, To: a.To, Subject: a.Subject, Text: a.Text, HTML: a.HTML, Language: a.Language}
}

func mailArgs(m notify.Mail) MailArgs {
	return MailArgs{MailKind: m.Kind, To: m.To, Subject: m.Subject, Text: m.Text, HTML: m.HTML, Language: m.Language}
}

// Outbox is the notify.Outbox on PostgreSQL, a store of the unit of work:
// its mails commit or roll back with the transaction it is bound to.
type Outbox struct{ db bun.IDB }

var _ notify.Outbox = (*Outbox)(nil)

// NewOutbox returns the outbox on db, which must be a transaction for
// Enqueue to succeed: a mail is queued by the change that causes it.
func NewOutbox(db bun.IDB) *Outbox { return &Outbox{db: db} }

// errNoTx is Enqueue on a unit of work's Stores() rather than its
// transaction's: a programming error, which would send mails of a change
// that may yet roll back.
var errNoTx = errors.New("outbox: Enqueue runs in the unit of work's transaction only")

// jobInserter is a River client without a pool or workers: it only
// inserts jobs, on the transaction it is given. One serves every database.
var jobInserter = sync.OnceValue(func() *river.Client[*sql.Tx] {
	c, err := river.NewClient(riverdatabasesql.New(nil), &river.Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil { // only a bad configuration, which this is not
		panic(err)
	}
	return c
})

// Enqueue implements notify.Outbox: one job per mail, tagged with the
// mail's kind, inserted in one statement.
func (o *Outbox) Enqueue(ctx context.Context, mails ...notify.Mail) error {
	if len(mails) == 0 {
		return nil
	}
	params := make([]river.InsertManyParams, len(mails))
	for i, m := range mails {
		if err := m.Validate(); err != nil {
			return fmt.Errorf("outbox: mail %d (%s): %w", i, m.Kind, err)
		}
		params[i] = river.InsertManyParams{Args: mailArgs(m), InsertOpts: &river.InsertOpts{Tags: []string{m.Kind}}}
	}
	// A savepoint of the unit of work is a bun.Tx too, on the same *sql.Tx.
	tx, ok := o.db.(bun.Tx)
	if !ok {
		return errNoTx
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if _, err := jobInserter().InsertManyTx(ctx, tx.Tx, params); err != nil {
		return fmt.Errorf("outbox: insert mail jobs: %w", err)
	}
	return nil
}
