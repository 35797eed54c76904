package domain

// GiftStore reads and writes what GiftService serves.
type GiftStore interface{}

// GiftService serves part of the public catalogue (API v2).
type GiftService struct {
	store    GiftStore
	partners PartnerStore
}

// NewGiftService returns the service.
func NewGiftService(store GiftStore, partners PartnerStore) *GiftService {
	return &GiftService{store: store, partners: partners}
}
