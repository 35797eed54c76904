package domain

// EventStore reads and writes what EventService serves.
type EventStore interface{}

// EventService serves part of the public catalogue (API v2).
type EventService struct {
	store    EventStore
	partners PartnerStore
}

// NewEventService returns the service.
func NewEventService(store EventStore, partners PartnerStore) *EventService {
	return &EventService{store: store, partners: partners}
}
