// Package mailer delivers the outbox's mails (persistence.Outbox): a River
// client working the mail queue, whose worker sends each mail over SMTP,
// or, without an SMTP server, logs it whole. A mail is delivered at least
// once: retried with River's backoff until the server takes it, refuses it
// for good, or MailMaxAttempts are spent (docs/DECISIONS.md,
// "Transactional mails").
package mailer

import (
	"context"
	"fmt"
	"log/slog"
	"net/mail"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	gomail "github.com/wneessen/go-mail"

	"salesplatform/persistence"
)

// Workers is how many mails a process sends at once.
const Workers = 4

// rescueAfter is how long a mail job may stay running before River's
// leader gives it to another worker.
const rescueAfter = 5 * time.Minute

// PoolConns is the size of the pgx pool Start needs: River's fetches,
// completions, leader election and maintenance, and the connection it
// holds to LISTEN for new jobs.
const PoolConns = 4

// Config is the delivery's configuration.
type Config struct {
	// SMTP is the server mails go through (SMTP_URL); nil logs each mail
	// whole instead, at info level, and counts it delivered.
	SMTP *SMTP
	// From is every mail's sender (MAIL_FROM): "no-reply@example.com" or
	// "Name <no-reply@example.com>".
	From   string
	Logger *slog.Logger

	// Not settings, for tests: River's retry policy and job fetch poll
	// interval, its defaults when zero.
	RetryPolicy       river.ClientRetryPolicy
	FetchPollInterval time.Duration
}

// Mailer is the running delivery.
type Mailer struct {
	client  *river.Client[pgx.Tx]
	metrics *prometheus.CounterVec
}

// Start starts delivering the queued mails, on pool (OpenPgxPool; PoolConns
// connections are enough), until Stop. ctx is only for starting: jobs run
// until Stop however ctx ends.
func Start(ctx context.Context, pool *pgxpool.Pool, cfg Config) (*Mailer, error) {
	from, err := mail.ParseAddress(cfg.From)
	if err != nil {
		return nil, fmt.Errorf("mailer: sender %q: %w", cfg.From, err)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	w := &worker{smtp: cfg.SMTP, from: from, log: cfg.Logger, deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: "salesplatform",
		Name:      "mail_deliveries_total",
		Help:      "Attempts to deliver a mail, by kind and outcome: sent, logged (no SMTP_URL), retry, discarded (attempts spent), refused (the SMTP server's final refusal, or an invalid mail).",
	}, []string{"kind", "outcome"})}
	workersReg := river.NewWorkers()
	if err := river.AddWorkerSafely(workersReg, w); err != nil {
		return nil, fmt.Errorf("mailer: %w", err)
	}
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Logger:            slog.New(warnOnly{cfg.Logger.Handler()}),
		Queues:            map[string]river.QueueConfig{persistence.MailQueue: {MaxWorkers: Workers}},
		Workers:           workersReg,
		RetryPolicy:       cfg.RetryPolicy,
		FetchPollInterval: cfg.FetchPollInterval,
		// A mail whose process died while sending it is taken again
		// after this, rather than River's hour: a send takes a minute
		// at most (Timeout).
		RescueStuckJobsAfter: rescueAfter,
	})
	if err != nil {
		return nil, fmt.Errorf("mailer: %w", err)
	}
	if err := client.Start(context.WithoutCancel(ctx)); err != nil {
		return nil, fmt.Errorf("mailer: start: %w", err)
	}
	return &Mailer{client: client, metrics: w.deliveries}, nil
}

// Collector is the delivery's metric (salesplatform_mail_deliveries_total),
// for the server's registry.
func (m *Mailer) Collector() prometheus.Collector { return m.metrics }

// Stop stops fetching mails and waits for those being sent until ctx ends;
// then it cancels them (they are retried by the next worker: a mail the
// server took as its connection was cut may be sent twice). It returns
// once no mail is being sent.
func (m *Mailer) Stop(ctx context.Context) error {
	if err := persistence.StopRiver(ctx, m.client, sendTimeout); err != nil {
		return fmt.Errorf("mailer: %w", err)
	}
	return nil
}

// worker works the mail jobs.
type worker struct {
	river.WorkerDefaults[persistence.MailArgs]
	smtp       *SMTP
	from       *mail.Address
	log        *slog.Logger
	deliveries *prometheus.CounterVec
}

// Timeout bounds one delivery: the connection, and each command within
// sendTimeout.
func (w *worker) Timeout(*river.Job[persistence.MailArgs]) time.Duration { return 2 * sendTimeout }

// Work delivers one mail. The Message-ID and Date are the job's, so that a
// mail sent twice is seen as one message by the servers and clients that
// look.
func (w *worker) Work(ctx context.Context, job *river.Job[persistence.MailArgs]) error {
	m := job.Args.Mail()
	log := w.log.With("job_id", job.ID, "kind", m.Kind, "attempt", job.Attempt)
	if err := m.Validate(); err != nil {
		w.deliveries.WithLabelValues(m.Kind, "refused").Inc()
		log.Error("mail not sent: invalid", "error", err.Error())
		return river.JobCancel(err)
	}
	id := strconv.FormatInt(job.ID, 10) + "." + strconv.FormatInt(job.CreatedAt.UnixNano(), 36) + "@" + domainOf(w.from.Address)
	if w.smtp == nil {
		w.deliveries.WithLabelValues(m.Kind, "logged").Inc()
		attrs := []any{"message_id", id, "from", w.from.Address, "to", m.To, "subject", m.Subject, "language", m.Language, "text", m.Text}
		if m.HTML != "" {
			attrs = append(attrs, "html", m.HTML)
		}
		log.Info("mail logged, not sent: no SMTP_URL", attrs...)
		return nil
	}
	msg, err := w.message(job, id)
	if err != nil {
		w.deliveries.WithLabelValues(m.Kind, "refused").Inc()
		log.Error("mail not sent: invalid", "error", err.Error())
		return river.JobCancel(err)
	}
	err = w.smtp.send(ctx, msg)
	switch {
	case err == nil:
		w.deliveries.WithLabelValues(m.Kind, "sent").Inc()
		log.Info("mail sent", "message_id", id, "to", m.To)
		return nil
	case permanent(err):
		w.deliveries.WithLabelValues(m.Kind, "refused").Inc()
		log.Error("mail refused by the SMTP server; not retried", "message_id", id, "to", m.To, "error", err.Error())
		return river.JobCancel(err)
	case job.Attempt >= job.MaxAttempts:
		w.deliveries.WithLabelValues(m.Kind, "discarded").Inc()
		log.Error("mail not sent; attempts spent, discarded", "message_id", id, "to", m.To, "error", err.Error())
		return err
	default:
		w.deliveries.WithLabelValues(m.Kind, "retry").Inc()
		log.Warn("mail not sent; will retry", "message_id", id, "to", m.To, "max_attempts", job.MaxAttempts, "error", err.Error())
		return err
	}
}

// message is the mail of job as go-mail writes it: UTF-8, quoted-printable,
// the text alone or with its HTML alternative.
func (w *worker) message(job *river.Job[persistence.MailArgs], id string) (*gomail.Msg, error) {
	m := job.Args.Mail()
	msg := gomail.NewMsg()
	msg.FromMailAddress(w.from)
	if err := msg.To(m.To); err != nil {
		return nil, err
	}
	msg.Subject(m.Subject)
	msg.SetMessageIDWithValue(id)
	msg.SetDateWithValue(job.CreatedAt)
	msg.SetUserAgent("salesplatform")
	msg.SetGenHeader(gomail.HeaderContentLang, m.Language)
	// RFC 3834: no vacation auto-replies to a notification.
	msg.SetGenHeader(gomail.Header("Auto-Submitted"), "auto-generated")
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	return msg, nil
}

// warnOnly passes River's own records from Warn up: its info records
// (started, leader elected, stopped) say nothing an operator acts on.
type warnOnly struct{ slog.Handler }

func (h warnOnly) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && h.Handler.Enabled(ctx, l)
}
func (h warnOnly) WithAttrs(a []slog.Attr) slog.Handler { return warnOnly{h.Handler.WithAttrs(a)} }
func (h warnOnly) WithGroup(name string) slog.Handler   { return warnOnly{h.Handler.WithGroup(name)} }
