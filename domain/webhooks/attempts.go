package webhooks

import (
	"context"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
)

// Messages of the endpoints' log and resends.
const (
	MsgResendOneOf   = "Give either event_id or failed_since."
	MsgSinceInFuture = "Ensure this date-time is not in the future."
	MsgInactive      = "This endpoint is inactive: activate it first."
)

// AttemptFilter narrows an endpoint's log.
type AttemptFilter struct {
	// Event, when set, keeps the attempts of that event only.
	Event *uuid.UUID
}

// ResendInput is what to send again to an endpoint, as REST's body gives
// it: exactly one of an event (its delivery, whatever its state) or a time
// (every delivery failed or dropped since).
type ResendInput struct {
	domain.Refusals
	EventID     domain.Optional[uuid.UUID]
	FailedSince domain.Optional[time.Time]
}

// AttemptStore reads an endpoint's log and queues its deliveries again.
type AttemptStore interface {
	// Attempts returns a page of the endpoint's attempts, newest first,
	// and their number.
	Attempts(ctx context.Context, endpoint int64, f AttemptFilter, page domain.PageRequest) ([]*Attempt, int, error)
	// Waiting is how many deliveries of the endpoint wait (pending).
	Waiting(ctx context.Context, endpoint int64) (int, error)
	// ResendEvent sets the endpoint's delivery of event pending with no
	// attempt and queues its job, unless it waits already or limit is 0;
	// it returns how many it queued (0 or 1), domain.ErrNotFound when the
	// endpoint never had the event.
	ResendEvent(ctx context.Context, endpoint int64, event uuid.UUID, limit int) (int, error)
	// ResendFailed does so for at most limit of the endpoint's deliveries
	// failed or dropped since since, oldest first, and returns how many.
	ResendFailed(ctx context.Context, endpoint int64, since time.Time, limit int) (int, error)
}

// TestPublisher keeps an event for one endpoint alone, in the
// transaction it is bound to (persistence.WebhookEvents).
type TestPublisher interface {
	PublishTest(ctx context.Context, endpoint int64, ev Event) (uuid.UUID, error)
}

// Attempts returns a page of the attempts made to one of the caller's
// endpoints (those of the last AttemptRetention), newest first.
// Errors: those of Endpoint; CodeNotFound "Invalid page." past the end.
func (s *Service) Attempts(ctx context.Context, endpointID int64, f AttemptFilter, page domain.PageRequest) (*domain.Page[*Attempt], error) {
	if _, err := s.Endpoint(ctx, endpointID); err != nil {
		return nil, err
	}
	items, count, err := s.uow.Stores().Attempts.Attempts(ctx, endpointID, f, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(items, count, page)
}

// Resend queues again, with no attempt made, the delivery of one event to
// one of the caller's endpoints (a delivery still waiting is queued
// already and counts 0), or every one failed or dropped since a time, and
// returns how many it queued: at most MaxBacklog less the endpoint's
// waiting deliveries, the oldest first.
// Errors: those of Endpoint; CodeInvalid for a refused field, neither or
// both fields, a time in the future, or an inactive endpoint; CodeNotFound
// for an event the endpoint never had.
func (s *Service) Resend(ctx context.Context, endpointID int64, in ResendInput) (int, error) {
	c, err := domain.Authorize(ctx, domain.OpWebhookManage)
	if err != nil {
		return 0, err
	}
	event, since, err := s.checkResend(in)
	if err != nil {
		return 0, err
	}
	n := 0
	err = s.writeAs(ctx, c, endpointID, func(ctx context.Context, tx Stores, e *Endpoint) error {
		if err := active(e); err != nil {
			return err
		}
		waiting, err := tx.Attempts.Waiting(ctx, e.ID)
		if err != nil {
			return err
		}
		room := max(MaxBacklog-waiting, 0)
		if event != nil {
			n, err = tx.Attempts.ResendEvent(ctx, e.ID, *event, room)
		} else if room > 0 {
			n, err = tx.Attempts.ResendFailed(ctx, e.ID, *since, room)
		}
		return err
	})
	return n, err
}

// checkResend reads in: exactly one of its fields, the time not in the
// future.
func (s *Service) checkResend(in ResendInput) (*uuid.UUID, *time.Time, error) {
	v := in.Validator()
	f := domain.Fields{V: v}
	event, hasEvent, _ := domain.Present(f, "event_id", in.EventID, false, false)
	since, hasSince, _ := domain.Present(f, "failed_since", in.FailedSince, false, false)
	if len(v.Fields) > 0 {
		return nil, nil, v.Err()
	}
	if hasEvent == hasSince {
		v.Add(domain.VInvalid, MsgResendOneOf, "non_field_errors")
		return nil, nil, v.Err()
	}
	if hasSince && since.After(s.now()) {
		v.Add(domain.VMaxValue, MsgSinceInFuture, "failed_since")
		return nil, nil, v.Err()
	}
	if hasEvent {
		return &event, nil, nil
	}
	return nil, &since, nil
}

// SendTest sends a webhook.test event, the endpoint's record as its data,
// to one of the caller's endpoints alone, and returns the event's id.
// Errors: those of Endpoint; CodeInvalid for an inactive endpoint.
func (s *Service) SendTest(ctx context.Context, endpointID int64) (uuid.UUID, error) {
	var id uuid.UUID
	err := s.write(ctx, endpointID, func(ctx context.Context, tx Stores, e *Endpoint) error {
		if err := active(e); err != nil {
			return err
		}
		var err error
		id, err = tx.Tests.PublishTest(ctx, e.ID, Event{Type: TestEventType, Resource: e})
		return err
	})
	return id, err
}

// active refuses an inactive endpoint: its deliveries would fail unsent.
func active(e *Endpoint) error {
	if e.IsActive {
		return nil
	}
	var v domain.Validator
	v.Add(domain.VInvalid, MsgInactive, "non_field_errors")
	return v.Err()
}
