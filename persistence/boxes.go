package persistence

import (
	"github.com/uptrace/bun"

	"salesplatform/domain"
)

// BoxStore is the domain.BoxStore on PostgreSQL.
type BoxStore struct{ db bun.IDB }

var _ domain.BoxStore = (*BoxStore)(nil)

// NewBoxStore returns the store on db.
func NewBoxStore(db bun.IDB) *BoxStore { return &BoxStore{db: db} }
