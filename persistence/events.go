package persistence

import (
	"github.com/uptrace/bun"

	"salesplatform/domain"
)

// EventStore is the domain.EventStore on PostgreSQL.
type EventStore struct{ db bun.IDB }

var _ domain.EventStore = (*EventStore)(nil)

// NewEventStore returns the store on db.
func NewEventStore(db bun.IDB) *EventStore { return &EventStore{db: db} }
