package domain

// BoxStore reads and writes what BoxService serves.
type BoxStore interface{}

// BoxService serves part of the public catalogue (API v2).
type BoxService struct {
	store    BoxStore
	partners PartnerStore
}

// NewBoxService returns the service.
func NewBoxService(store BoxStore, partners PartnerStore) *BoxService {
	return &BoxService{store: store, partners: partners}
}
