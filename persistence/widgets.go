package persistence

import (
	"github.com/uptrace/bun"

	"salesplatform/domain"
)

// WidgetStore is the domain.WidgetStore on PostgreSQL.
type WidgetStore struct{ db bun.IDB }

var _ domain.WidgetStore = (*WidgetStore)(nil)

// NewWidgetStore returns the store on db.
func NewWidgetStore(db bun.IDB) *WidgetStore { return &WidgetStore{db: db} }
