package ecommerce

import (
	"context"

	"salesplatform/domain"
)

// Stores are the stores of the catalogue's service, bound to one pool or
// transaction by a domain.UnitOfWork.
type Stores struct {
	Products ProductStore
}

// ProductFilter selects a partner's products in a list.
type ProductFilter struct {
	PartnerID int64
	Active    *bool // nil: active or not
}

// ProductStore is the catalogue's Store with the partner's writes of its
// products and settings.
type ProductStore interface {
	Store
	// Products returns one page of the filter's products, newest first,
	// with their variants and attributes, and their number.
	Products(ctx context.Context, f ProductFilter, page domain.PageRequest) ([]*Product, int, error)
	// LockProduct locks the partner's product until the transaction
	// ends. Errors: domain.ErrNotFound for an unknown or foreign one.
	LockProduct(ctx context.Context, partnerID, id int64) error
	// CreateProduct inserts p with its variants and attributes and sets
	// their ids, created_at and updated_at.
	CreateProduct(ctx context.Context, p *Product) error
	// UpdateProduct writes p's columns and makes its variants and
	// attributes p's lists: a listed one with an id is updated, one
	// without is inserted, one left out is removed (a variant that order
	// lines name is hidden rather than deleted). It sets the new ids and
	// updated_at.
	UpdateProduct(ctx context.Context, p *Product) error
	// SaveDeliverySettings writes the partner's settings.
	SaveDeliverySettings(ctx context.Context, d *DeliverySettings) error
	// MissingMedia returns the uuids among ids that name no media of the
	// partner.
	MissingMedia(ctx context.Context, partnerID int64, ids []string) ([]string, error)
	// PartnerCurrency is the partner's currency (ISO 4217).
	PartnerCurrency(ctx context.Context, partnerID int64) (string, error)
}
