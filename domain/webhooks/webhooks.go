package webhooks

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"slices"
	"time"

	"salesplatform/domain"
)

// EventTypes are the names of Catalog's types, an endpoint's choices.
var EventTypes = typeNames(Catalog)

// Limits of the endpoints.
const (
	MaxEndpoints         = 20                  // per partner, and platform-wide
	MaxURLLength         = domain.MaxURLLength // the url field's rule
	MaxDescriptionLength = 255
	// SecretOverlap is how long a rotated secret keeps signing beside the
	// new one, so a consumer can switch without missing a delivery.
	SecretOverlap = 24 * time.Hour
	secretPrefix  = "whsec_"
	secretBytes   = 32
)

// Messages of the endpoints' rules.
const (
	msgEventType     = "\"%s\" is not a valid event type."
	msgEventTwice    = "\"%s\" is given more than once."
	msgTooManyPerOwn = "Ensure there are no more than %d webhook endpoints."
)

// Endpoint is where the events of a partner (PartnerID nil: staff's,
// platform-wide) are sent.
type Endpoint struct {
	ID          int64
	PartnerID   *int64
	URL         string
	Events      []string // empty: every event type
	Description string
	IsActive    bool
	// Secret signs deliveries; PreviousSecret, until PreviousExpiresAt,
	// too (after a rotation). Shown only when created or rotated.
	Secret            string
	PreviousSecret    string
	PreviousExpiresAt *time.Time
	CreatedOn         time.Time
}

// EndpointInput is an endpoint's fields as REST's body gives them: url is
// required at creation, events defaults to every type, is_active to true.
type EndpointInput struct {
	domain.Refusals
	URL         domain.Optional[string]
	Events      domain.Optional[[]string]
	Description domain.Optional[string]
	IsActive    domain.Optional[bool]
}

// Stores are the stores of the endpoints' service.
type Stores struct {
	Endpoints EndpointStore
	// Attempts is the endpoints' log and resends (attempts.go).
	Attempts AttemptStore
	// Tests publishes an endpoint's test event in the transaction.
	Tests TestPublisher
}

// EndpointStore reads and writes endpoints. owner nil is the platform's
// endpoints; tenant nil (in lists) is everyone's.
type EndpointStore interface {
	// Endpoints returns a page of the tenant's endpoints, newest first,
	// and their number.
	Endpoints(ctx context.Context, tenant *int64, page domain.PageRequest) ([]*Endpoint, int, error)
	// Endpoint returns one endpoint; domain.ErrNotFound when unknown.
	Endpoint(ctx context.Context, id int64) (*Endpoint, error)
	// LockEndpoint is Endpoint holding its row until the transaction ends.
	LockEndpoint(ctx context.Context, id int64) (*Endpoint, error)
	// CountOwned locks the owner's endpoints against a concurrent create
	// until the transaction ends and returns their number.
	CountOwned(ctx context.Context, owner *int64) (int, error)
	// CreateEndpoint inserts e and sets its ID and CreatedOn.
	CreateEndpoint(ctx context.Context, e *Endpoint) error
	// UpdateEndpoint writes e's fields and secrets.
	UpdateEndpoint(ctx context.Context, e *Endpoint) error
	// DeleteEndpoint removes an endpoint.
	DeleteEndpoint(ctx context.Context, id int64) error
}

// Service manages webhook endpoints; REST and graph call the same methods.
type Service struct {
	uow  domain.UnitOfWork[Stores]
	urls URLRule
	now  func() time.Time
}

// NewService returns the service; urls decides which URLs are accepted.
func NewService(uow domain.UnitOfWork[Stores], urls URLRule) *Service {
	return &Service{uow: uow, urls: urls, now: time.Now}
}

// sees reports whether the caller may see e: a partner's members their
// partner's, staff every one (the platform's included).
func sees(c *domain.Caller, e *Endpoint) bool {
	t := c.Tenant()
	return t == nil || (e.PartnerID != nil && *e.PartnerID == *t)
}

// Endpoints returns a page of the caller's endpoints (staff: everyone's),
// newest first.
// Errors: CodeUnauthenticated, CodeForbidden (OpWebhookManage);
// CodeNotFound "Invalid page." past the end.
func (s *Service) Endpoints(ctx context.Context, page domain.PageRequest) (*domain.Page[*Endpoint], error) {
	c, err := domain.Authorize(ctx, domain.OpWebhookManage)
	if err != nil {
		return nil, err
	}
	items, count, err := s.uow.Stores().Endpoints.Endpoints(ctx, c.Tenant(), page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(items, count, page)
}

// Endpoint returns one of the caller's endpoints.
// Errors: those of Endpoints; CodeNotFound for an unknown or another
// tenant's endpoint.
func (s *Service) Endpoint(ctx context.Context, id int64) (*Endpoint, error) {
	c, err := domain.Authorize(ctx, domain.OpWebhookManage)
	if err != nil {
		return nil, err
	}
	e, err := s.uow.Stores().Endpoints.Endpoint(ctx, id)
	if err != nil {
		return nil, err
	}
	if !sees(c, e) {
		return nil, domain.ErrNotFound
	}
	return e, nil
}

// CreateEndpoint adds an endpoint for the caller's partner (staff: a
// platform-wide one), with a new secret (shown in the answer only).
// Errors: those of Endpoints; CodeInvalid with every field error, or a
// non-field error past MaxEndpoints.
func (s *Service) CreateEndpoint(ctx context.Context, in EndpointInput) (*Endpoint, error) {
	c, err := domain.Authorize(ctx, domain.OpWebhookManage)
	if err != nil {
		return nil, err
	}
	ch, err := s.check(ctx, in, false)
	if err != nil {
		return nil, err
	}
	e := &Endpoint{PartnerID: c.Tenant(), Events: []string{}, IsActive: true, Secret: newSecret()}
	ch.apply(e)
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		n, err := tx.Endpoints.CountOwned(ctx, e.PartnerID)
		if err != nil {
			return err
		}
		if n >= MaxEndpoints {
			var v domain.Validator
			v.Add(domain.VMaxElements, fmt.Sprintf(msgTooManyPerOwn, MaxEndpoints), "non_field_errors")
			return v.Err()
		}
		return tx.Endpoints.CreateEndpoint(ctx, e)
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// UpdateEndpoint changes the fields given (PATCH) of one of the caller's
// endpoints; its secrets stay.
// Errors: those of Endpoint and CreateEndpoint.
func (s *Service) UpdateEndpoint(ctx context.Context, id int64, in EndpointInput) (*Endpoint, error) {
	c, err := domain.Authorize(ctx, domain.OpWebhookManage)
	if err != nil {
		return nil, err
	}
	ch, err := s.check(ctx, in, true)
	if err != nil {
		return nil, err
	}
	var out *Endpoint
	err = s.writeAs(ctx, c, id, func(ctx context.Context, tx Stores, e *Endpoint) error {
		ch.apply(e)
		out = e
		return tx.Endpoints.UpdateEndpoint(ctx, e)
	})
	return out, err
}

// RotateSecret gives one of the caller's endpoints a new secret (shown in
// the answer only); the current one keeps signing beside it for
// SecretOverlap. A secret rotated out earlier stops at once.
// Errors: those of Endpoint.
func (s *Service) RotateSecret(ctx context.Context, id int64) (*Endpoint, error) {
	var out *Endpoint
	err := s.write(ctx, id, func(ctx context.Context, tx Stores, e *Endpoint) error {
		until := s.now().Add(SecretOverlap)
		e.PreviousSecret, e.PreviousExpiresAt, e.Secret = e.Secret, &until, newSecret()
		out = e
		return tx.Endpoints.UpdateEndpoint(ctx, e)
	})
	return out, err
}

// DeleteEndpoint removes one of the caller's endpoints.
// Errors: those of Endpoint.
func (s *Service) DeleteEndpoint(ctx context.Context, id int64) error {
	return s.write(ctx, id, func(ctx context.Context, tx Stores, e *Endpoint) error {
		return tx.Endpoints.DeleteEndpoint(ctx, e.ID)
	})
}

// write runs fn on the caller's endpoint id, locked, in a transaction.
func (s *Service) write(ctx context.Context, id int64, fn func(context.Context, Stores, *Endpoint) error) error {
	c, err := domain.Authorize(ctx, domain.OpWebhookManage)
	if err != nil {
		return err
	}
	return s.writeAs(ctx, c, id, fn)
}

// writeAs is write for a caller authorized already.
func (s *Service) writeAs(ctx context.Context, c *domain.Caller, id int64, fn func(context.Context, Stores, *Endpoint) error) error {
	return s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		e, err := tx.Endpoints.LockEndpoint(ctx, id)
		if err != nil {
			return err
		}
		if !sees(c, e) {
			return domain.ErrNotFound
		}
		return fn(ctx, tx, e)
	})
}

// changes are an input's fields, checked.
type changes struct {
	url, description *string
	events           []string // nil: unchanged
	isActive         *bool
}

// check reads in against the rules; partial (PATCH) requires no field.
// The URL's host is resolved here, outside any transaction.
func (s *Service) check(ctx context.Context, in EndpointInput, partial bool) (changes, error) {
	var ch changes
	v := in.Validator()
	f := domain.Fields{V: v, Partial: partial}
	if u := f.URL("url", in.URL, true); u != nil {
		if msg := s.urls.Check(ctx, *u); msg != "" {
			v.Add(domain.VInvalid, msg, "url")
		} else {
			ch.url = u
		}
	}
	ch.description = f.String("description", in.Description, false, true, MaxDescriptionLength)
	ch.isActive = f.Bool("is_active", in.IsActive)
	if events, ok, _ := domain.Present(f, "events", in.Events, false, false); ok {
		ch.events = eventTypes(v, events)
	}
	return ch, v.Err()
}

func (ch changes) apply(e *Endpoint) {
	if ch.url != nil {
		e.URL = *ch.url
	}
	if ch.description != nil {
		e.Description = *ch.description
	}
	if ch.events != nil {
		e.Events = ch.events
	}
	if ch.isActive != nil {
		e.IsActive = *ch.isActive
	}
}

// eventTypes checks a list of event type names; nil when refused.
func eventTypes(v *domain.Validator, in []string) []string {
	if len(in) > len(EventTypes) {
		v.Add(domain.VMaxElements, fmt.Sprintf(domain.MsgTooManyElements, len(EventTypes)), "events")
		return nil
	}
	out := make([]string, 0, len(in))
	for _, name := range in {
		switch {
		case !slices.Contains(EventTypes, name):
			v.Add(domain.VInvalid, fmt.Sprintf(msgEventType, name), "events")
			return nil
		case slices.Contains(out, name):
			v.Add(domain.VUnique, fmt.Sprintf(msgEventTwice, name), "events")
			return nil
		}
		out = append(out, name)
	}
	return out
}

// newSecret is "whsec_" and the base64 of secretBytes random bytes, the
// form Standard Webhooks' libraries read.
func newSecret() string {
	b := make([]byte, secretBytes)
	if _, err := rand.Read(b); err != nil {
		panic(err) // only fails when the system's random source does
	}
	return secretPrefix + base64.StdEncoding.EncodeToString(b)
}
