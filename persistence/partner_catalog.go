package persistence

import (
	"github.com/uptrace/bun"

	"salesplatform/domain"
)

// PartnerCatalogStore is the domain.PartnerCatalogStore on PostgreSQL.
type PartnerCatalogStore struct{ db bun.IDB }

var _ domain.PartnerCatalogStore = (*PartnerCatalogStore)(nil)

// NewPartnerCatalogStore returns the store on db.
func NewPartnerCatalogStore(db bun.IDB) *PartnerCatalogStore { return &PartnerCatalogStore{db: db} }
