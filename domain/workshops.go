package domain

// WorkshopStore reads and writes what WorkshopService serves.
type WorkshopStore interface{}

// WorkshopService serves part of the public catalogue (API v2).
type WorkshopService struct {
	store    WorkshopStore
	partners PartnerStore
}

// NewWorkshopService returns the service.
func NewWorkshopService(store WorkshopStore, partners PartnerStore) *WorkshopService {
	return &WorkshopService{store: store, partners: partners}
}
