package webhooks

import (
	"context"
	"time"

	"github.com/google/uuid"
)

// TestEventType is the type of the event SendTest sends to one endpoint,
// whatever it subscribes to; no change publishes it.
const TestEventType = "webhook.test"

// MaxBacklog is how many deliveries one endpoint may have waiting (not yet
// delivered nor given up). An event past it is kept as a dropped delivery,
// visible in the endpoint's log and resendable, so an endpoint that is
// down cannot make the queue grow without bound (docs/OPERATIONS.md).
const MaxBacklog = 10_000

// Event is a change a partner's backend is told of. A service publishes it
// on the Publisher of its transaction (a store of its unit of work), so
// the event exists if and only if the change commits.
type Event struct {
	// Type is one of EventTypes.
	Type string
	// Partners are the tenants whose endpoints receive the event (those
	// subscribed to Type); staff's platform-wide endpoints receive every
	// event.
	Partners []int64
	// Resource is the record the event is about, as the domain holds it
	// (*checkout.Order, *network.Usage...); the publisher renders it as
	// the REST API returns that resource, the event's data.
	Resource any
}

// Publisher keeps events for delivery, in the transaction it is bound to.
type Publisher interface {
	// Publish keeps every event for each endpoint subscribed to it, all
	// or none. An unknown type, or a resource the publisher cannot
	// render, is an error of the service that wrote it.
	Publish(ctx context.Context, events ...Event) error
	// Prepare looks up, before a change locks the row it guards, the
	// endpoints an event of eventType to partners will go to, so that the
	// Publish of that event in the same transaction holds the lock for no
	// look-up of its own: concurrent uses of one card queue on its row.
	// A Publish not prepared looks its endpoints up itself. It reports
	// whether any endpoint will receive the event, so that a change whose
	// event no one awaits need not read its resource.
	Prepare(ctx context.Context, eventType string, partners []int64) (bool, error)
}

// Delivery states.
const (
	StatePending   = "pending"   // waiting for its next attempt
	StateSucceeded = "succeeded" // a 2xx answer came
	StateFailed    = "failed"    // its attempts are spent, or its endpoint was disabled
	StateDropped   = "dropped"   // never queued: the endpoint's backlog was full
)

// Attempt is one try of a delivery, as kept for its endpoint's owner to see
// (for AttemptRetention).
type Attempt struct {
	ID         int64
	EndpointID int64
	EventID    uuid.UUID
	EventType  string
	At         time.Time
	// StatusCode is 0 when no answer came (Error says why).
	StatusCode int
	Duration   time.Duration
	// Response is the first 4 KB of the answer's body.
	Response string
	Error    string
	// State is the delivery's state after this attempt.
	State string
}

// AttemptRetention is how long attempts (and the events and deliveries
// they are of) are kept.
const AttemptRetention = 30 * 24 * time.Hour
