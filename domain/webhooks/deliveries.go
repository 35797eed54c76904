package webhooks

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/notify"
)

// Rules of the deliveries (docs/DECISIONS.md, "Webhook deliveries").
const (
	// DisableAfter is how long an endpoint may fail every attempt, from
	// its first failure since its last success, before it is disabled and
	// its partner told.
	DisableAfter = 5 * 24 * time.Hour
	// MaxContacts bounds the mails telling a partner its endpoint was
	// disabled: one per administrator, at most this many.
	MaxContacts = 10
	// purgeBatch is how many rows one statement of Purge deletes, so that
	// no statement holds many locks for long.
	purgeBatch = 1000
)

// Why an endpoint was disabled (its disabled_reason).
const (
	ReasonGone    = "The endpoint answered 410 Gone."
	reasonFailing = "Every delivery failed from %s for more than 5 days."
)

// Outcomes of one run of a delivery, as counted by the delivery worker's
// metrics.
const (
	OutcomeSucceeded = "succeeded" // a 2xx answer
	OutcomeRetry     = "retry"     // failed; tried again per the schedule
	OutcomeFailed    = "failed"    // failed, its schedule spent; or its endpoint inactive
	OutcomeDisabled  = "disabled"  // this attempt disabled its endpoint
	OutcomeSkipped   = "skipped"   // settled already, or its endpoint deleted
)

// Delivery is one event on its way to one endpoint.
type Delivery struct {
	ID         int64
	EndpointID int64
	EventID    uuid.UUID
	EventType  string
	// Body is the exact JSON sent and signed.
	Body     string
	State    string
	Attempts int
	// Generation counts the resends of the delivery. Its job carries the
	// generation it was queued for: a job of an earlier one (a retry
	// still waiting when the delivery was failed and sent again) is
	// superseded and sends nothing, so one delivery never has two
	// schedules of attempts running.
	Generation int
}

// Health is what the deliveries' rules read and change of an endpoint.
type Health struct {
	EndpointID int64
	PartnerID  *int64
	URL        string
	IsActive   bool
	// FailingSince is the first failed attempt since the last success;
	// nil while the endpoint answers.
	FailingSince *time.Time
}

// DeliveryStores are the stores of the delivery service.
type DeliveryStores struct {
	Endpoints  EndpointStore
	Deliveries DeliveryStore
	// Outbox queues the mail of a disabled endpoint in its transaction.
	Outbox notify.Outbox
}

// DeliveryStore reads and settles deliveries.
type DeliveryStore interface {
	// Delivery returns a delivery with its event; domain.ErrNotFound when
	// unknown (purged, or its endpoint deleted).
	Delivery(ctx context.Context, id int64) (*Delivery, error)
	// LockDelivery is Delivery holding its row until the transaction ends.
	LockDelivery(ctx context.Context, id int64) (*Delivery, error)
	// UpdateDelivery writes d's state and attempts, and lastAttempt when
	// not nil.
	UpdateDelivery(ctx context.Context, d *Delivery, lastAttempt *time.Time) error
	// RecordAttempt keeps an attempt of delivery and sets a's ID.
	RecordAttempt(ctx context.Context, delivery int64, a *Attempt) error
	// LockHealth returns an endpoint's health, holding its row until the
	// transaction ends; domain.ErrNotFound when it was deleted.
	LockHealth(ctx context.Context, endpoint int64) (*Health, error)
	// SetFailingSince writes an endpoint's failing_since (nil clears it).
	SetFailingSince(ctx context.Context, endpoint int64, since *time.Time) error
	// Disable deactivates an endpoint for reason and fails its waiting
	// deliveries; it returns how many it failed.
	Disable(ctx context.Context, endpoint int64, reason string) (int, error)
	// Contacts are the addresses a partner is told of its endpoints at:
	// its active administrators', else its agency address; at most
	// limit.
	Contacts(ctx context.Context, partner int64, limit int) ([]string, error)
	// Purge deletes at most limit of the attempts, and of the events
	// (with their deliveries) that are older than before and have no
	// delivery waiting or tried since; it returns how many rows it
	// deleted.
	Purge(ctx context.Context, before time.Time, limit int) (int, error)
}

// Message is one attempt of a delivery, as signed and sent.
type Message struct {
	URL string
	// ID is the event's id: the same on every attempt (webhook-id).
	ID string
	// Timestamp is the attempt's time (webhook-timestamp).
	Timestamp time.Time
	Body      []byte
	// Secrets are the endpoint's live secrets: two during a rotation.
	Secrets []string
}

// Verdict is what an attempt's answer means.
type Verdict int

const (
	// VerdictRetry: no 2xx answer; tried again per the schedule.
	VerdictRetry Verdict = iota
	// VerdictSucceeded: a 2xx answer.
	VerdictSucceeded
	// VerdictGone: 410 Gone, the receiver wants no more deliveries.
	VerdictGone
)

// SendResult is what one attempt did.
type SendResult struct {
	// StatusCode is 0 when no answer came (Err says why).
	StatusCode int
	Duration   time.Duration
	// Response is the first 4 KB of the answer's body.
	Response string
	Err      error
	Verdict  Verdict
}

// Sender makes one attempt of a message (persistence/webhookclient).
type Sender interface {
	Send(ctx context.Context, m Message) SendResult
}

// Schedule is the delay after the failed attempt number attempt (1 for
// the first) before the next, or false once the schedule is spent
// (webhookclient.NextAttempt).
type Schedule func(attempt int) (time.Duration, bool)

// DeliveryOutcome is what one run of a delivery did.
type DeliveryOutcome struct {
	EventType string
	// Outcome is one of the Outcome constants.
	Outcome string
	// State is the delivery's after the run.
	State string
	// Attempt is the attempt made, nil when none was (skipped, or failed
	// unsent because its endpoint is inactive).
	Attempt *Attempt
	// RetryIn is the delay before the next attempt, when Outcome is
	// OutcomeRetry.
	RetryIn time.Duration
	// Disabled is the reason its endpoint was disabled by this attempt.
	Disabled string
	// Mails is how many mails told the endpoint's partner it was disabled.
	Mails int
}

// DeliveryService sends the deliveries, one attempt at a time, and applies
// the endpoints' rules to their answers.
type DeliveryService struct {
	uow  domain.UnitOfWork[DeliveryStores]
	send Sender
	next Schedule
	now  func() time.Time
}

// NewDeliveryService returns the service: send makes the attempts, next
// says when a failed one is tried again.
func NewDeliveryService(uow domain.UnitOfWork[DeliveryStores], send Sender, next Schedule) *DeliveryService {
	return &DeliveryService{uow: uow, send: send, next: next, now: time.Now}
}

// WithClock is s reading the time from now (tests of the 5 days).
func (s *DeliveryService) WithClock(now func() time.Time) *DeliveryService {
	s.now = now
	return s
}

// Deliver makes attempt number attempt (1 for the first of its schedule)
// of generation of the delivery id. It reads with no transaction open,
// sends outside any transaction, then records the attempt and applies its
// rules in one: a
// 2xx succeeds and clears the endpoint's failure; 410 disables the
// endpoint and fails its waiting deliveries; another failure is retried
// until the schedule is spent, and disables an endpoint failing for
// DisableAfter, whose partner is mailed. A delivery settled already, sent
// again since (another generation), or whose endpoint was deleted, is
// skipped; one whose endpoint is inactive is failed unsent.
func (s *DeliveryService) Deliver(ctx context.Context, id int64, generation, attempt int) (DeliveryOutcome, error) {
	st := s.uow.Stores()
	d, err := st.Deliveries.Delivery(ctx, id)
	if errors.Is(err, domain.ErrNotFound) {
		return DeliveryOutcome{Outcome: OutcomeSkipped}, nil
	}
	if err != nil {
		return DeliveryOutcome{}, err
	}
	out := DeliveryOutcome{EventType: d.EventType, Outcome: OutcomeSkipped, State: d.State}
	if d.State != StatePending || d.Generation != generation {
		return out, nil
	}
	e, err := st.Endpoints.Endpoint(ctx, d.EndpointID)
	if errors.Is(err, domain.ErrNotFound) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	if !e.IsActive {
		return s.failUnsent(ctx, d)
	}
	at := s.now().UTC()
	res := s.send.Send(ctx, Message{URL: e.URL, ID: d.EventID.String(), Timestamp: at, Body: []byte(d.Body),
		Secrets: liveSecrets(e, at)})
	// The attempt happened: it is recorded even if ctx ended meanwhile
	// (a job cancelled at shutdown), else it would be sent again unseen.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), settleTimeout)
	defer cancel()
	return s.settle(sctx, d, attempt, at, res)
}

// settleTimeout bounds the transaction recording an attempt.
const settleTimeout = 30 * time.Second

// liveSecrets are e's secrets that sign at at: its secret, and its
// previous one until it expires.
func liveSecrets(e *Endpoint, at time.Time) []string {
	secrets := []string{e.Secret}
	if e.PreviousSecret != "" && e.PreviousExpiresAt != nil && e.PreviousExpiresAt.After(at) {
		secrets = append(secrets, e.PreviousSecret)
	}
	return secrets
}

// failUnsent fails a delivery whose endpoint is inactive, if it still
// waits.
func (s *DeliveryService) failUnsent(ctx context.Context, d *Delivery) (DeliveryOutcome, error) {
	out := DeliveryOutcome{EventType: d.EventType, Outcome: OutcomeSkipped}
	err := s.uow.RunInTx(ctx, func(ctx context.Context, tx DeliveryStores) error {
		locked, err := tx.Deliveries.LockDelivery(ctx, d.ID)
		if err != nil {
			return err
		}
		out.State = locked.State
		if locked.State != StatePending || locked.Generation != d.Generation {
			return nil
		}
		locked.State, out.State, out.Outcome = StateFailed, StateFailed, OutcomeFailed
		return tx.Deliveries.UpdateDelivery(ctx, locked, nil)
	})
	if errors.Is(err, domain.ErrNotFound) {
		return out, nil
	}
	return out, err
}

// settle records the attempt made at at and applies its rules, in one
// transaction: the endpoint's row first, then the delivery's, the order
// in which Disable locks them too. A delivery sent again while this
// attempt was made (another generation) only gets the attempt in its log:
// its state and count are the new generation's.
func (s *DeliveryService) settle(ctx context.Context, d *Delivery, attempt int, at time.Time, res SendResult) (DeliveryOutcome, error) {
	var out DeliveryOutcome
	err := s.uow.RunInTx(ctx, func(ctx context.Context, tx DeliveryStores) error {
		out = DeliveryOutcome{EventType: d.EventType}
		h, err := tx.Deliveries.LockHealth(ctx, d.EndpointID)
		if err != nil {
			return err
		}
		locked, err := tx.Deliveries.LockDelivery(ctx, d.ID)
		if err != nil {
			return err
		}
		if locked.Generation != d.Generation {
			out.Outcome = OutcomeSkipped
		} else {
			if err := s.applyRules(ctx, tx, h, locked, attempt, at, res, &out); err != nil {
				return err
			}
			locked.Attempts++
			if err := tx.Deliveries.UpdateDelivery(ctx, locked, &at); err != nil {
				return err
			}
		}
		a := &Attempt{EndpointID: d.EndpointID, EventID: d.EventID, EventType: d.EventType, At: at,
			StatusCode: res.StatusCode, Duration: res.Duration, Response: truncate(res.Response, MaxResponseBytes), State: locked.State}
		if res.Err != nil {
			a.Error = truncate(res.Err.Error(), maxErrorLength)
		}
		out.Attempt, out.State = a, locked.State
		return tx.Deliveries.RecordAttempt(ctx, d.ID, a)
	})
	if errors.Is(err, domain.ErrNotFound) { // the endpoint was deleted meanwhile
		return DeliveryOutcome{EventType: d.EventType, Outcome: OutcomeSkipped}, nil
	}
	return out, err
}

// applyRules sets d's state and out's outcome from res, and the endpoint's
// health. A delivery settled while it was being sent (its endpoint
// disabled meanwhile) keeps its state.
func (s *DeliveryService) applyRules(ctx context.Context, tx DeliveryStores, h *Health, d *Delivery, attempt int,
	at time.Time, res SendResult, out *DeliveryOutcome) error {
	if d.State != StatePending {
		out.Outcome = OutcomeSkipped
		return nil
	}
	switch res.Verdict {
	case VerdictSucceeded:
		d.State, out.Outcome = StateSucceeded, OutcomeSucceeded
		if h.FailingSince != nil {
			return tx.Deliveries.SetFailingSince(ctx, h.EndpointID, nil)
		}
		return nil
	case VerdictGone:
		d.State, out.Outcome, out.Disabled = StateFailed, OutcomeDisabled, ReasonGone
		return s.disable(ctx, tx, h, ReasonGone, out)
	}
	if h.FailingSince == nil {
		if err := tx.Deliveries.SetFailingSince(ctx, h.EndpointID, &at); err != nil {
			return err
		}
	} else if at.Sub(*h.FailingSince) > DisableAfter && h.IsActive {
		reason := fmt.Sprintf(reasonFailing, h.FailingSince.UTC().Format(time.RFC3339))
		d.State, out.Outcome, out.Disabled = StateFailed, OutcomeDisabled, reason
		return s.disable(ctx, tx, h, reason, out)
	}
	if delay, more := s.next(attempt); more {
		d.State, out.Outcome, out.RetryIn = StatePending, OutcomeRetry, delay
	} else {
		d.State, out.Outcome = StateFailed, OutcomeFailed
	}
	return nil
}

// disable deactivates h's endpoint, fails its waiting deliveries and
// mails its partner's administrators. The platform's endpoints (no
// partner) are disabled without a mail: staff see them disabled, and the
// service logs it (docs/DECISIONS.md).
func (s *DeliveryService) disable(ctx context.Context, tx DeliveryStores, h *Health, reason string, out *DeliveryOutcome) error {
	if _, err := tx.Deliveries.Disable(ctx, h.EndpointID, reason); err != nil {
		return err
	}
	if h.PartnerID == nil {
		return nil
	}
	to, err := tx.Deliveries.Contacts(ctx, *h.PartnerID, MaxContacts)
	if err != nil {
		return err
	}
	mails := make([]notify.Mail, 0, len(to))
	for _, addr := range to {
		mails = append(mails, disabledMail(addr, h, reason))
	}
	out.Mails = len(mails)
	return tx.Outbox.Enqueue(ctx, mails...)
}

// Bounds of what an attempt keeps (its columns'): the answer's first
// 4 KB, and its error's first KB.
const (
	MaxResponseBytes = 4 << 10
	maxErrorLength   = 1024
)

// truncate cuts s to at most n bytes, on a character's boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// Purge deletes the attempts, and the events and their deliveries, older
// than AttemptRetention, in batches; it returns how many rows it deleted.
func (s *DeliveryService) Purge(ctx context.Context) (int, error) {
	before := s.now().Add(-AttemptRetention)
	total := 0
	for {
		n, err := s.uow.Stores().Deliveries.Purge(ctx, before, purgeBatch)
		total += n
		if err != nil || n < purgeBatch {
			return total, err
		}
	}
}
