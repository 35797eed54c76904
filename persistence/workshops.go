package persistence

import (
	"github.com/uptrace/bun"

	"salesplatform/domain"
)

// WorkshopStore is the domain.WorkshopStore on PostgreSQL.
type WorkshopStore struct{ db bun.IDB }

var _ domain.WorkshopStore = (*WorkshopStore)(nil)

// NewWorkshopStore returns the store on db.
func NewWorkshopStore(db bun.IDB) *WorkshopStore { return &WorkshopStore{db: db} }
