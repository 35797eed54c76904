// Package webhookdelivery sends the webhook deliveries the events'
// publisher queues (persistence.WebhookEvents): a River client working the
// webhook queue, whose worker makes one attempt per job through the domain's
// delivery service (webhooks.DeliveryService) and retries on the delivery
// schedule; a periodic job purges what is older than
// webhooks.AttemptRetention (docs/OPERATIONS.md, "Webhook deliveries").
// Any number of processes may run it on one database: River gives each job
// to one of them at a time.
package webhookdelivery

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/uptrace/bun"

	"salesplatform/domain/webhooks"
	"salesplatform/persistence"
	"salesplatform/persistence/webhookclient"
)

// Workers is how many deliveries a process sends at once: most of an
// attempt is waiting for the receiver.
const Workers = 20

// PoolConns is the size of the pgx pool Start needs: River's fetches,
// completions, leader election and maintenance, and its LISTEN
// connection. The deliveries' own reads and writes go through Config.DB.
const PoolConns = 4

// PurgeInterval is how often the purge of old attempts and events runs.
const PurgeInterval = time.Hour

// Config is the delivery's configuration.
type Config struct {
	// DB is the database the deliveries are read from and settled in.
	DB *bun.DB
	// Client makes the attempts (its timeout: WEBHOOK_TIMEOUT).
	Client *webhookclient.Client
	// Timeout is Client's, which bounds a job with some room; 0 is
	// webhookclient.DefaultTimeout.
	Timeout time.Duration
	// Schedule is the delay before each attempt, the first's being none
	// (WEBHOOK_RETRY_SCHEDULE); nil is webhookclient.RetrySchedule.
	Schedule []time.Duration
	Logger   *slog.Logger

	// Not settings, for tests: River's job fetch poll interval, its
	// default when zero, and the service's clock.
	FetchPollInterval time.Duration
	Now               func() time.Time
}

// Delivery is the running delivery.
type Delivery struct {
	client  *river.Client[pgx.Tx]
	metrics []prometheus.Collector
}

// Start starts sending the queued deliveries, on pool (OpenPgxPool;
// PoolConns connections are enough), until Stop. ctx is only for
// starting.
func Start(ctx context.Context, pool *pgxpool.Pool, cfg Config) (*Delivery, error) {
	if cfg.DB == nil || cfg.Client == nil {
		return nil, errors.New("webhookdelivery: Config.DB and Config.Client are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = webhookclient.DefaultTimeout
	}
	if cfg.Schedule == nil {
		cfg.Schedule = webhookclient.RetrySchedule
	}
	schedule := func(attempt int) (time.Duration, bool) { return webhookclient.NextIn(cfg.Schedule, attempt) }
	service := webhooks.NewDeliveryService(persistence.NewUnitOfWork(cfg.DB, persistence.WebhookDeliveryStores),
		sender{cfg.Client}, schedule)
	if cfg.Now != nil {
		service.WithClock(cfg.Now)
	}
	m := newMetrics()
	w := &worker{service: service, schedule: schedule, timeout: cfg.Timeout + jobMargin, log: cfg.Logger, metrics: m}
	workers := river.NewWorkers()
	if err := river.AddWorkerSafely(workers, w); err != nil {
		return nil, fmt.Errorf("webhookdelivery: %w", err)
	}
	if err := river.AddWorkerSafely(workers, &purger{service: service, log: cfg.Logger, purged: m.purged}); err != nil {
		return nil, fmt.Errorf("webhookdelivery: %w", err)
	}
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Logger:            slog.New(warnOnly{cfg.Logger.Handler()}),
		Queues:            map[string]river.QueueConfig{persistence.WebhookQueue: {MaxWorkers: Workers}},
		Workers:           workers,
		FetchPollInterval: cfg.FetchPollInterval,
		// A delivery whose process died while sending it is taken again
		// after this, rather than River's hour.
		RescueStuckJobsAfter: 2*w.timeout + time.Minute,
		PeriodicJobs: []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(PurgeInterval),
			func() (river.JobArgs, *river.InsertOpts) { return PurgeArgs{}, nil }, &river.PeriodicJobOpts{RunOnStart: true})},
	})
	if err != nil {
		return nil, fmt.Errorf("webhookdelivery: %w", err)
	}
	if err := client.Start(context.WithoutCancel(ctx)); err != nil {
		return nil, fmt.Errorf("webhookdelivery: start: %w", err)
	}
	return &Delivery{client: client, metrics: m.collectors()}, nil
}

// jobMargin is a job's time beyond its attempt's: reading the delivery and
// recording the attempt.
const jobMargin = 5 * time.Second

// Collector is the delivery's metrics (salesplatform_webhook_*), for the
// server's registry.
func (d *Delivery) Collector() prometheus.Collector { return collectors(d.metrics) }

// Stop stops fetching deliveries and waits for those being sent until ctx
// ends; then it cancels them. A cancelled attempt is still recorded, and
// its job retried by the next worker.
func (d *Delivery) Stop(ctx context.Context) error {
	if err := persistence.StopRiver(ctx, d.client, jobMargin); err != nil {
		return fmt.Errorf("webhookdelivery: %w", err)
	}
	return nil
}

// sender is the domain's Sender over webhookclient.
type sender struct{ c *webhookclient.Client }

func (s sender) Send(ctx context.Context, m webhooks.Message) webhooks.SendResult {
	r := s.c.Send(ctx, webhookclient.Delivery{URL: m.URL, ID: m.ID, Timestamp: m.Timestamp, Body: m.Body, Secrets: m.Secrets})
	v := webhooks.VerdictRetry
	switch r.Outcome {
	case webhookclient.Succeeded:
		v = webhooks.VerdictSucceeded
	case webhookclient.Disable:
		v = webhooks.VerdictGone
	}
	return webhooks.SendResult{StatusCode: r.StatusCode, Duration: r.Duration, Response: r.Excerpt, Err: r.Err, Verdict: v}
}

// warnOnly passes River's own records from Warn up.
type warnOnly struct{ slog.Handler }

func (h warnOnly) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && h.Handler.Enabled(ctx, l)
}
func (h warnOnly) WithAttrs(a []slog.Attr) slog.Handler { return warnOnly{h.Handler.WithAttrs(a)} }
func (h warnOnly) WithGroup(name string) slog.Handler   { return warnOnly{h.Handler.WithGroup(name)} }
