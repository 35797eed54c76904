package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/account"
)

type partnerRow struct {
	bun.BaseModel `bun:"table:partners"`

	ID            int64     `bun:"id,pk,autoincrement"`
	UUID          uuid.UUID `bun:"uuid,type:uuid,nullzero,default:gen_random_uuid()"`
	Name          string    `bun:"name,notnull"`
	SiteDomain    string    `bun:"site_domain,nullzero"`
	IsMarketplace bool      `bun:"is_marketplace,notnull"`
	Status        string    `bun:"status,notnull"`
	Currency      string    `bun:"currency,nullzero,notnull,default:'EUR'"`
	TimeZone      string    `bun:"time_zone,nullzero,notnull,default:'Europe/Paris'"`
	CreatedAt     time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
}

func toRowPartner(p *domain.Partner) *partnerRow {
	return &partnerRow{ID: p.ID, UUID: p.UUID, Name: p.Name, SiteDomain: p.SiteDomain,
		IsMarketplace: p.IsMarketplace, Status: p.Status, Currency: p.Currency, TimeZone: p.TimeZone,
		CreatedAt: p.CreatedAt}
}

func (r *partnerRow) toDomain() *domain.Partner {
	return &domain.Partner{ID: r.ID, UUID: r.UUID, Name: r.Name, SiteDomain: r.SiteDomain,
		IsMarketplace: r.IsMarketplace, Status: r.Status, Currency: r.Currency, TimeZone: r.TimeZone,
		CreatedAt: r.CreatedAt}
}

type userRow struct {
	bun.BaseModel `bun:"table:users"`

	ID           int64     `bun:"id,pk,autoincrement"`
	UUID         uuid.UUID `bun:"uuid,type:uuid,nullzero,default:gen_random_uuid()"`
	Username     string    `bun:"username,notnull"`
	Email        string    `bun:"email,notnull"`
	FirstName    string    `bun:"first_name,notnull"`
	LastName     string    `bun:"last_name,notnull"`
	PasswordHash string    `bun:"password_hash,notnull"`
	IsStaff      bool      `bun:"is_staff,notnull"`
	IsActive     bool      `bun:"is_active,notnull"`
	PartnerID    *int64    `bun:"partner_id"`
	CreatedAt    time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`

	Partner *partnerRow `bun:"rel:belongs-to,join:partner_id=id"`
}

func toRowUser(u *domain.User) *userRow {
	return &userRow{ID: u.ID, UUID: u.UUID, Username: u.Username, Email: u.Email, FirstName: u.FirstName,
		LastName: u.LastName, PasswordHash: u.PasswordHash, IsStaff: u.IsStaff, IsActive: u.IsActive,
		PartnerID: u.PartnerID, CreatedAt: u.CreatedAt}
}

func (r *userRow) toDomain() *domain.User {
	return &domain.User{ID: r.ID, UUID: r.UUID, Username: r.Username, Email: r.Email, FirstName: r.FirstName,
		LastName: r.LastName, PasswordHash: r.PasswordHash, IsStaff: r.IsStaff, IsActive: r.IsActive,
		PartnerID: r.PartnerID, CreatedAt: r.CreatedAt}
}

type tokenRow struct {
	bun.BaseModel `bun:"table:api_tokens,alias:t"`

	ID        int64     `bun:"id,pk,autoincrement"`
	KeyHash   []byte    `bun:"key_hash,notnull"`
	UserID    int64     `bun:"user_id,notnull"`
	CreatedAt time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
}

// tokenOwnerRow reads a token, its user, the user's partner and permission
// names in one query.
type tokenOwnerRow struct {
	tokenRow `bun:",extend"`

	User        *userRow `bun:"rel:belongs-to,join:user_id=id"`
	Permissions []string `bun:"permissions,array,scanonly"`
}

// notFound turns sql.ErrNoRows into domain.ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return domain.ErrNotFound
	}
	return err
}

// PartnerStore is the domain.PartnerStore on PostgreSQL.
type PartnerStore struct{ db bun.IDB }

var _ domain.PartnerStore = (*PartnerStore)(nil)

// CreatePartner inserts p and sets its ID, UUID and CreatedAt.
func (s *PartnerStore) CreatePartner(ctx context.Context, p *domain.Partner) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := toRowPartner(p)
	_, err := s.db.NewInsert().Model(row).Returning("*").Exec(ctx)
	if c, ok := uniqueViolation(err); ok && c == "partners_site_domain_key" {
		return invalidField("site_domain", domain.VInvalid, "A partner with this site domain already exists.")
	}
	if err != nil {
		return fmt.Errorf("insert partner: %w", err)
	}
	*p = *row.toDomain()
	return nil
}

func (s *PartnerStore) findOne(ctx context.Context, where string, arg any) (*domain.Partner, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := new(partnerRow)
	if err := s.db.NewSelect().Model(row).Where(where, arg).Scan(ctx); err != nil {
		return nil, notFound(err)
	}
	return row.toDomain(), nil
}

// FindPartnerByID returns domain.ErrNotFound when no partner has that id.
func (s *PartnerStore) FindPartnerByID(ctx context.Context, id int64) (*domain.Partner, error) {
	return s.findOne(ctx, "id = ?", id)
}

// PartnersByID returns the partners in ids order, nil where none has the id.
func (s *PartnerStore) PartnersByID(ctx context.Context, ids []int64) ([]*domain.Partner, error) {
	if len(ids) == 0 {
		return []*domain.Partner{}, nil
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []partnerRow
	if err := s.db.NewSelect().Model(&rows).Where("id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("select partners: %w", err)
	}
	byID := make(map[int64]*domain.Partner, len(rows))
	for i := range rows {
		byID[rows[i].ID] = rows[i].toDomain()
	}
	return inIDOrder(ids, byID), nil
}

// FindPartnerByUUID returns domain.ErrNotFound when no partner has that uuid.
func (s *PartnerStore) FindPartnerByUUID(ctx context.Context, id uuid.UUID) (*domain.Partner, error) {
	return s.findOne(ctx, "uuid = ?", id)
}

// FindPartnerBySiteDomain returns domain.ErrNotFound when no partner has that
// site domain; domains are stored in lower case.
func (s *PartnerStore) FindPartnerBySiteDomain(ctx context.Context, domainName string) (*domain.Partner, error) {
	if domainName == "" {
		return nil, domain.ErrNotFound
	}
	return s.findOne(ctx, "site_domain = lower(?)", domainName)
}

// UserStore is the domain.UserStore on PostgreSQL.
type UserStore struct{ db bun.IDB }

var _ account.UserStore = (*UserStore)(nil)

// CreateUser inserts u and sets its ID, UUID and CreatedAt.
func (s *UserStore) CreateUser(ctx context.Context, u *domain.User) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := toRowUser(u)
	_, err := s.db.NewInsert().Model(row).Returning("*").Exec(ctx)
	if c, ok := uniqueViolation(err); ok && c == "users_username_key" {
		return invalidField("username", "unique", "A user with that username already exists.")
	}
	if err != nil {
		return fmt.Errorf("insert user: %w", err)
	}
	*u = *row.toDomain()
	return nil
}

// FindUserByUsername returns domain.ErrNotFound when no user has that name.
func (s *UserStore) FindUserByUsername(ctx context.Context, username string) (*domain.User, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := new(userRow)
	if err := s.db.NewSelect().Model(row).Where("username = ?", username).Scan(ctx); err != nil {
		return nil, notFound(err)
	}
	return row.toDomain(), nil
}

// FindUserByID returns the user with that id.
func (s *UserStore) FindUserByID(ctx context.Context, id int64) (*domain.User, error) {
	row, err := rowByID[userRow](ctx, s.db, "?TableAlias", id)
	if err != nil {
		return nil, err
	}
	return row.toDomain(), nil
}

// GrantPermissions gives the user the named permissions; granting one twice
// is harmless. An unknown name is a CodeInvalid error on "permissions".
func (s *UserStore) GrantPermissions(ctx context.Context, userID int64, names []string) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var known []string
	err := s.db.NewSelect().Table("permissions").Column("name").
		Where("name IN (?)", bun.In(names)).Scan(ctx, &known)
	if err != nil {
		return fmt.Errorf("look up permissions: %w", err)
	}
	for _, n := range names {
		if !slices.Contains(known, n) {
			return invalidField("permissions", domain.VInvalid, fmt.Sprintf("Unknown permission %q.", n))
		}
	}
	_, err = s.db.NewRaw(`INSERT INTO user_permissions (user_id, permission_id)
		SELECT ?, id FROM permissions WHERE name IN (?) ON CONFLICT DO NOTHING`, userID, bun.In(names)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("grant permissions: %w", err)
	}
	return nil
}

// TokenStore is the domain.TokenStore on PostgreSQL.
type TokenStore struct{ db bun.IDB }

var _ account.TokenStore = (*TokenStore)(nil)

// CreateToken inserts t and sets its ID and CreatedAt.
func (s *TokenStore) CreateToken(ctx context.Context, t *account.Token) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := &tokenRow{KeyHash: t.KeyHash, UserID: t.UserID}
	if _, err := s.db.NewInsert().Model(row).Returning("*").Exec(ctx); err != nil {
		return fmt.Errorf("insert token: %w", err)
	}
	t.ID, t.CreatedAt = row.ID, row.CreatedAt
	return nil
}

// FindTokenOwner returns the token with that hash, its user, the user's
// partner and permissions, joined in one query; domain.ErrNotFound when no
// token has that hash.
func (s *TokenStore) FindTokenOwner(ctx context.Context, hash []byte) (*account.TokenOwner, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := new(tokenOwnerRow)
	err := s.db.NewSelect().Model(row).
		Relation("User").Relation("User.Partner").
		ColumnExpr("t.*").
		ColumnExpr(`ARRAY(SELECT p.name FROM permissions p
			JOIN user_permissions up ON up.permission_id = p.id
			WHERE up.user_id = t.user_id ORDER BY p.name) AS permissions`).
		Where("t.key_hash = ?", hash).
		Scan(ctx)
	if err != nil {
		return nil, notFound(err)
	}
	owner := &account.TokenOwner{
		Token:       &account.Token{ID: row.ID, KeyHash: row.KeyHash, UserID: row.UserID, CreatedAt: row.CreatedAt},
		User:        row.User.toDomain(),
		Permissions: row.Permissions,
	}
	if owner.Permissions == nil {
		owner.Permissions = []string{}
	}
	if row.User.PartnerID != nil && row.User.Partner != nil {
		owner.Partner = row.User.Partner.toDomain()
	}
	return owner, nil
}
