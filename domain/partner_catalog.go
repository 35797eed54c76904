package domain

// PartnerCatalogStore reads and writes what PartnerCatalogService serves.
type PartnerCatalogStore interface{}

// PartnerCatalogService serves part of the public catalogue (API v2).
type PartnerCatalogService struct {
	store    PartnerCatalogStore
	partners PartnerStore
}

// NewPartnerCatalogService returns the service.
func NewPartnerCatalogService(store PartnerCatalogStore, partners PartnerStore) *PartnerCatalogService {
	return &PartnerCatalogService{store: store, partners: partners}
}
