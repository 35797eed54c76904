package domain

// PrototypeStore reads and writes what PrototypeService serves.
type PrototypeStore interface{}

// PrototypeService serves part of the public catalogue (API v2).
type PrototypeService struct {
	store    PrototypeStore
	partners PartnerStore
}

// NewPrototypeService returns the service.
func NewPrototypeService(store PrototypeStore, partners PartnerStore) *PrototypeService {
	return &PrototypeService{store: store, partners: partners}
}
