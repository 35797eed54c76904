package ecommerce

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
)

// Product is one e-commerce product of a partner. Its price is in the
// partner's currency, VAT included; VATRate is a percentage: 20.00 is 20 %.
type Product struct {
	ID          int64
	PartnerID   int64
	Name        domain.Localized
	Description domain.Localized
	Images      []string // media uuids of the partner's media, in order
	Price       decimal.Decimal
	Currency    string // the partner's, ISO 4217
	VATRate     decimal.Decimal
	Active      bool
	// Stock is the units left when the product has no variants; nil is
	// unlimited. A product with variants counts stock per variant.
	Stock      *int64
	Variants   []*Variant
	Attributes []*Attribute
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// Variant is one version of a product (a size, a colour): its own name,
// price and stock (nil: unlimited).
type Variant struct {
	ID        int64
	ProductID int64
	Name      domain.Localized
	Price     decimal.Decimal
	Stock     *int64
	Active    bool
}

// Attribute is a choice a cart line makes among fixed values (an
// engraving font, a gift wrap): a cart's attribute_values maps its id to
// one of Values.
type Attribute struct {
	ID     int64
	Name   domain.Localized
	Values []string
}

// Delivery modes of an e-commerce order, as the catalogue's
// DeliveryOptions name them.
const (
	DeliveryEmail  = "email"
	DeliveryPostal = "postal"
	DeliveryPickup = "pickup"
)

// DeliverySettings are how a partner delivers its e-commerce orders: by
// e-mail (free), by postal mail (a cost and a duration in days), or picked
// up on site (a cost, at an address).
type DeliverySettings struct {
	PartnerID     int64
	Email         bool
	Postal        bool
	PostalCost    decimal.Decimal
	PostalDays    int
	Pickup        bool
	PickupCost    decimal.Decimal
	PickupAddress string
}

// Modes are the delivery modes the settings offer, in a fixed order.
func (d *DeliverySettings) Modes() []string {
	var out []string
	if d.Email {
		out = append(out, DeliveryEmail)
	}
	if d.Postal {
		out = append(out, DeliveryPostal)
	}
	if d.Pickup {
		out = append(out, DeliveryPickup)
	}
	return out
}

// Cost is what the mode costs; ok is false for a mode the settings do not
// offer.
func (d *DeliverySettings) Cost(mode string) (cost decimal.Decimal, ok bool) {
	switch {
	case mode == DeliveryEmail && d.Email:
		return decimal.Zero, true
	case mode == DeliveryPostal && d.Postal:
		return d.PostalCost, true
	case mode == DeliveryPickup && d.Pickup:
		return d.PickupCost, true
	}
	return decimal.Zero, false
}

// StockLine names the stock one order line takes: a product's, or its
// variant's when VariantID is set.
type StockLine struct {
	ProductID int64
	VariantID *int64
	Quantity  int64
}

// Store is what the catalogue needs of the database. Product reads load
// variants and attributes.
type Store interface {
	// ProductsOf returns the partner's products with those ids (unknown or
	// foreign ids are left out), active or not.
	ProductsOf(ctx context.Context, partnerID int64, ids []int64) ([]*Product, error)
	// DeliverySettingsOf returns the partner's settings; a partner that
	// never set them gets the zero settings (no mode offered).
	DeliverySettingsOf(ctx context.Context, partnerID int64) (*DeliverySettings, error)
	// TakeStock lowers the stock of every line by its quantity, in one
	// guarded statement per line (stock IS NULL OR stock >= quantity, and
	// the product and the line's variant active), in the caller's
	// transaction: short names the first line whose stock was too low or
	// whose product or variant is not sold (and then the caller rolls
	// back), nil when all were taken.
	TakeStock(ctx context.Context, lines []StockLine) (short *StockLine, err error)
	// GiveStock puts the quantities back (a released reservation, a
	// refunded order); unlimited stock stays unlimited.
	GiveStock(ctx context.Context, lines []StockLine) error
}
