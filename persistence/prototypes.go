package persistence

import (
	"github.com/uptrace/bun"

	"salesplatform/domain"
)

// PrototypeStore is the domain.PrototypeStore on PostgreSQL.
type PrototypeStore struct{ db bun.IDB }

var _ domain.PrototypeStore = (*PrototypeStore)(nil)

// NewPrototypeStore returns the store on db.
func NewPrototypeStore(db bun.IDB) *PrototypeStore { return &PrototypeStore{db: db} }
