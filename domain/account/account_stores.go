package account

import (
	"context"
	"time"

	"salesplatform/domain"
)

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
	CreateUser(ctx context.Context, u *domain.User) error
	// FindUserByUsername returns ErrNotFound when no user has that name.
	FindUserByUsername(ctx context.Context, username string) (*domain.User, error)
	// FindUserByID returns ErrNotFound when no user has that id.
	FindUserByID(ctx context.Context, id int64) (*domain.User, error)
	// GrantPermissions gives the user the named permissions; an unknown name
	// is a CodeInvalid error on "permissions".
	GrantPermissions(ctx context.Context, userID int64, names []string) error
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
	User        *domain.User
	Partner     *domain.Partner // nil when the user has none
	Permissions []string        // sorted
}

// Stores bundles the database stores that one transaction may span.
type Stores struct {
	Users    UserStore
	Partners domain.PartnerStore
	Tokens   TokenStore
}
