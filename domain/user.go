package domain

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// Partner statuses of the legacy service. Their meaning is not documented;
// "a" is what a partner created here starts with.
const (
	PartnerStatusActive   = "a"
	PartnerStatusInactive = "i"
	PartnerStatusTest     = "t"
	PartnerStatusNetwork  = "n"
)

// Partner is a merchant or a marketplace: the tenant.
type Partner struct {
	ID            int64
	UUID          uuid.UUID
	Name          string
	SiteDomain    string // host of the partner's purchase site; "" when it has none
	IsMarketplace bool
	Status        string
	Currency      string // ISO 4217 code its prices are in
	TimeZone      string // IANA zone its dates are shown in
	CreatedAt     time.Time
}

// PriceCurrency is the currency of the partner's prices.
func (p *Partner) PriceCurrency() string {
	if p.Currency == "" {
		return DefaultCurrency
	}
	return p.Currency
}

// Location is the time zone the partner's catalogue shows dates in.
func (p *Partner) Location() (*time.Location, error) {
	loc, err := time.LoadLocation(p.TimeZone)
	if err != nil {
		return nil, fmt.Errorf("time zone %q of partner %d: %w", p.TimeZone, p.ID, err)
	}
	return loc, nil
}

// User is an account that signs in with a password and calls the API with a
// token.
type User struct {
	ID           int64
	UUID         uuid.UUID
	Username     string
	Email        string
	FirstName    string
	LastName     string
	PasswordHash string
	IsStaff      bool
	IsActive     bool
	PartnerID    *int64
	CreatedAt    time.Time
}

// PartnerStore persists partners.
type PartnerStore interface {
	// CreatePartner inserts p and sets its ID, UUID and CreatedAt. A site
	// domain already in use is a CodeInvalid error on "site_domain".
	CreatePartner(ctx context.Context, p *Partner) error
	// FindPartnerByID returns ErrNotFound when no partner has that id.
	FindPartnerByID(ctx context.Context, id int64) (*Partner, error)
	// PartnersByID returns the partners in ids order, nil for an id that
	// names none.
	PartnersByID(ctx context.Context, ids []int64) ([]*Partner, error)
	// FindPartnerByUUID returns ErrNotFound when no partner has that uuid.
	FindPartnerByUUID(ctx context.Context, id uuid.UUID) (*Partner, error)
	// FindPartnerBySiteDomain returns ErrNotFound when no partner has that
	// site domain (compared case-insensitively).
	FindPartnerBySiteDomain(ctx context.Context, domain string) (*Partner, error)
}
