package domain

// WidgetStore reads and writes what WidgetService serves.
type WidgetStore interface{}

// WidgetService serves part of the public catalogue (API v2).
type WidgetService struct {
	store    WidgetStore
	partners PartnerStore
}

// NewWidgetService returns the service.
func NewWidgetService(store WidgetStore, partners PartnerStore) *WidgetService {
	return &WidgetService{store: store, partners: partners}
}
