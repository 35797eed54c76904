package webhookdelivery

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"salesplatform/domain/webhooks"
	"salesplatform/persistence"
)

// worker works the delivery jobs: one attempt per run.
type worker struct {
	river.WorkerDefaults[persistence.WebhookArgs]
	service  *webhooks.DeliveryService
	schedule webhooks.Schedule
	timeout  time.Duration
	log      *slog.Logger
	metrics  *metrics
}

// errRetry is a job's error when its attempt failed and another is due:
// River then asks NextRetry when.
var errRetry = errors.New("webhook delivery failed; retried per the schedule")

// Timeout bounds one run: the attempt's timeout and some room.
func (w *worker) Timeout(*river.Job[persistence.WebhookArgs]) time.Duration { return w.timeout }

// NextRetry follows the delivery schedule rather than River's backoff:
// job.Attempt attempts are done.
func (w *worker) NextRetry(job *river.Job[persistence.WebhookArgs]) time.Time {
	delay, _ := w.schedule(job.Attempt)
	return time.Now().Add(max(delay, time.Millisecond))
}

// Work makes one attempt of the job's delivery. A delivery settled
// already (or gone) ends its job; a failed attempt with one to come
// returns errRetry.
func (w *worker) Work(ctx context.Context, job *river.Job[persistence.WebhookArgs]) error {
	out, err := w.service.Deliver(ctx, job.Args.DeliveryID, job.Args.Generation, job.Attempt)
	log := w.log.With("delivery_id", job.Args.DeliveryID, "job_id", job.ID, "attempt", job.Attempt)
	if err != nil {
		log.Error("webhook delivery not settled", "error", err.Error())
		return err
	}
	w.metrics.observe(out)
	if a := out.Attempt; a != nil {
		log = log.With("event_type", out.EventType, "endpoint_id", a.EndpointID, "status", a.StatusCode,
			"duration_ms", a.Duration.Milliseconds())
		if a.Error != "" {
			log = log.With("error", a.Error)
		}
	}
	switch out.Outcome {
	case webhooks.OutcomeRetry:
		log.Info("webhook delivery failed; will retry", "retry_in", out.RetryIn.String())
		return errRetry
	case webhooks.OutcomeDisabled:
		log.Warn("webhook endpoint disabled", "reason", out.Disabled, "mails", out.Mails)
	case webhooks.OutcomeFailed:
		log.Warn("webhook delivery failed for good")
	case webhooks.OutcomeSucceeded:
		log.Debug("webhook delivered")
	}
	return nil
}

// PurgeArgs is the periodic purge's job (no arguments).
type PurgeArgs struct{}

// Kind implements river.JobArgs.
func (PurgeArgs) Kind() string { return "webhook_purge" }

// InsertOpts implements river.JobArgsWithInsertOpts: on the webhook queue,
// one at a time while one waits.
func (PurgeArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: persistence.WebhookQueue, MaxAttempts: 3,
		UniqueOpts: river.UniqueOpts{ByState: []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStatePending,
			rivertype.JobStateRunning, rivertype.JobStateRetryable, rivertype.JobStateScheduled}}}
}

// purger works the purge job.
type purger struct {
	river.WorkerDefaults[PurgeArgs]
	service *webhooks.DeliveryService
	log     *slog.Logger
	purged  prometheus.Counter
}

// Timeout bounds a purge: many batches, each a short statement.
func (p *purger) Timeout(*river.Job[PurgeArgs]) time.Duration { return 10 * time.Minute }

func (p *purger) Work(ctx context.Context, _ *river.Job[PurgeArgs]) error {
	n, err := p.service.Purge(ctx)
	p.purged.Add(float64(n))
	if err != nil {
		return fmt.Errorf("webhook purge: %w", err)
	}
	if n > 0 {
		p.log.Info("webhook attempts and events purged", "rows", n, "older_than", webhooks.AttemptRetention.String())
	}
	return nil
}

// metrics are the delivery's.
type metrics struct {
	deliveries *prometheus.CounterVec
	durations  *prometheus.HistogramVec
	purged     prometheus.Counter
}

func newMetrics() *metrics {
	return &metrics{
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "salesplatform",
			Name:      "webhook_deliveries_total",
			Help:      "Runs of a webhook delivery, by event type and outcome: succeeded, retry, failed (schedule spent, or endpoint inactive), disabled (the attempt disabled its endpoint), skipped (settled already, or endpoint deleted).",
		}, []string{"event_type", "outcome"}),
		durations: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "salesplatform",
			Name:      "webhook_attempt_duration_seconds",
			Help:      "Duration of webhook attempts, from the look-up of the endpoint's host to its answer, by status class (2xx, 4xx, 5xx, ... or none).",
			Buckets:   []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30},
		}, []string{"status"}),
		purged: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "salesplatform",
			Name:      "webhook_purged_rows_total",
			Help:      "Webhook attempts and events (with their deliveries) deleted past their retention.",
		}),
	}
}

func (m *metrics) observe(out webhooks.DeliveryOutcome) {
	m.deliveries.WithLabelValues(out.EventType, out.Outcome).Inc()
	if a := out.Attempt; a != nil {
		status := "none"
		if a.StatusCode > 0 {
			status = strconv.Itoa(a.StatusCode/100) + "xx"
		}
		m.durations.WithLabelValues(status).Observe(a.Duration.Seconds())
	}
}

func (m *metrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{m.deliveries, m.durations, m.purged}
}

// collectors is several collectors as one.
type collectors []prometheus.Collector

func (c collectors) Describe(ch chan<- *prometheus.Desc) {
	for _, x := range c {
		x.Describe(ch)
	}
}

func (c collectors) Collect(ch chan<- prometheus.Metric) {
	for _, x := range c {
		x.Collect(ch)
	}
}
