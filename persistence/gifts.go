package persistence

import (
	"github.com/uptrace/bun"

	"salesplatform/domain"
)

// GiftStore is the domain.GiftStore on PostgreSQL.
type GiftStore struct{ db bun.IDB }

var _ domain.GiftStore = (*GiftStore)(nil)

// NewGiftStore returns the store on db.
func NewGiftStore(db bun.IDB) *GiftStore { return &GiftStore{db: db} }
