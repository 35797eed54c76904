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

// Token is an API key as stored: only a hash of the key is kept.
type Token struct {
	ID        int64
	KeyHash   []byte
	UserID    int64
	CreatedAt time.Time
}

// UserStore persists users and the permissions granted to them.
type UserStore interface {
	// CreateUser inserts u and sets its ID, UUID and CreatedAt. A taken
	// username is a CodeInvalid error on "username".
	CreateUser(ctx context.Context, u *User) error
	// FindUserByUsername returns ErrNotFound when no user has that name.
	FindUserByUsername(ctx context.Context, username string) (*User, error)
	// GrantPermissions gives the user the named permissions; an unknown name
	// is a CodeInvalid error on "permissions".
	GrantPermissions(ctx context.Context, userID int64, names []string) error
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

// TokenStore persists API tokens.
type TokenStore interface {
	// CreateToken inserts t and sets its ID and CreatedAt.
	CreateToken(ctx context.Context, t *Token) error
	// FindTokenOwner returns the token with that hash and its owner, in one
	// round trip: it runs on every authenticated request. ErrNotFound when
	// no token has that hash.
	FindTokenOwner(ctx context.Context, hash []byte) (*TokenOwner, error)
}

// TokenOwner is a token with the account it authenticates.
type TokenOwner struct {
	Token       *Token
	User        *User
	Partner     *Partner // nil when the user has none
	Permissions []string // sorted
}

// Stores bundles the database stores that one transaction may span.
type Stores struct {
	Users    UserStore
	Partners PartnerStore
	Tokens   TokenStore
}

// Database hands out stores, either directly or bound to one transaction.
type Database interface {
	// Stores returns stores that run each statement on its own.
	Stores() Stores
	// RunInTx runs fn with stores bound to one transaction, committed when fn
	// returns nil and rolled back otherwise. It returns fn's error or the
	// commit's.
	RunInTx(ctx context.Context, fn func(ctx context.Context, s Stores) error) error
}
