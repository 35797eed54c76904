package account

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/alexedwards/argon2id"
	"github.com/google/uuid"
	"golang.org/x/crypto/argon2"
	"golang.org/x/sync/semaphore"

	"salesplatform/domain"
)

// AccountService signs users in, authenticates API tokens and creates
// accounts.
type AccountService struct {
	db       domain.UnitOfWork[Stores]
	throttle *domain.ClientThrottle
	params   *argon2id.Params
	now      func() time.Time
	// dummyHash is compared against when the username is unknown, so that a
	// login costs the same whether or not the user exists.
	dummyHash string
	// compare is argon2id.ComparePasswordAndHash (tests count or hold it).
	compare func(password, hash string) (bool, error)
	// hashSlots bounds the argon2id computations running at once to
	// hashSlotCount; see MaxPasswordHashWait.
	hashSlots     *semaphore.Weighted
	hashSlotCount int
	// callers caches the callers of authenticated tokens; nil reads every
	// token from the database.
	callers domain.CallerCache
}

// CacheCallers makes Authenticate keep the callers of the tokens it
// authenticates in c (see domain.CallerCache), and returns s.
func (s *AccountService) CacheCallers(c domain.CallerCache) *AccountService {
	s.callers = c
	return s
}

// Password hashing capacity. An argon2id computation holds its memory (64
// MiB with the default parameters) while it runs, so an AccountService runs
// at most one per core (GOMAXPROCS when the service is created) at once:
// the binary creates one service, so this bounds the process. Logins and
// account creation share the slots. One that finds them all taken waits up
// to MaxPasswordHashWait for one, then gets CodeUnavailable with RetryAfter
// PasswordHashRetryAfter (REST 503 with Retry-After, graph
// SERVICE_UNAVAILABLE); a login so refused gives its throttle attempt back.
const (
	MaxPasswordHashWait    = 2 * time.Second
	PasswordHashRetryAfter = time.Second
)

// NewAccountService returns the service. throttle may be nil for the default
// login throttle, params nil for argon2id's recommended defaults.
func NewAccountService(db domain.UnitOfWork[Stores], throttle *domain.ClientThrottle, params *argon2id.Params) *AccountService {
	if throttle == nil {
		throttle = domain.NewClientThrottle(domain.DefaultLoginBurst, domain.DefaultLoginRefill)
	}
	if params == nil {
		params = argon2id.DefaultParams
	}
	slots := runtime.GOMAXPROCS(0)
	return &AccountService{db: db, throttle: throttle, params: params, now: time.Now, dummyHash: dummyHash(params),
		compare: argon2id.ComparePasswordAndHash, hashSlots: semaphore.NewWeighted(int64(slots)), hashSlotCount: slots}
}

// dummyHash is an argon2id hash with params' cost that no password
// matches: a random salt and key, written as CreateHash writes them.
// Comparing a password with it costs what comparing with a real hash
// costs, and making it costs nothing: computing one would hold params'
// memory (64 MiB by default) in the heap from start-up.
func dummyHash(params *argon2id.Params) string {
	salt, key := make([]byte, params.SaltLength), make([]byte, params.KeyLength)
	_, _ = rand.Read(salt) // crypto/rand.Read never fails
	_, _ = rand.Read(key)
	b64 := base64.RawStdEncoding.EncodeToString
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version,
		params.Memory, params.Iterations, params.Parallelism, b64(salt), b64(key))
}

// hashing runs f, an argon2id computation, in one of the service's hashing
// slots.
// Errors: CodeUnavailable when no slot is free within MaxPasswordHashWait
// (or before ctx ends).
func (s *AccountService) hashing(ctx context.Context, f func()) error {
	wait, cancel := context.WithTimeout(ctx, MaxPasswordHashWait)
	defer cancel()
	if err := s.hashSlots.Acquire(wait, 1); err != nil {
		return &domain.Error{Code: domain.CodeUnavailable, Message: domain.MsgUnavailable, RetryAfter: PasswordHashRetryAfter}
	}
	defer s.hashSlots.Release(1)
	f()
	return nil
}

// LoginInput is the body of POST /api-token-auth/, with the refusals of
// its decoding (a value that is no text).
type LoginInput struct {
	domain.Refusals
	Username domain.Optional[string]
	Password domain.Optional[string]
}

// LoginResult is what a successful login returns.
type LoginResult struct {
	Token string
	// UUID is the partner's UUID for partner accounts (the value the
	// administration API asks for as partner_uuid), the user's otherwise.
	UUID uuid.UUID
	User *domain.User
}

// MsgBadCredentials is DRF's message for a failed login.
const MsgBadCredentials = "Unable to log in with provided credentials."

// Login checks a username and password and issues a new API token.
// Each login takes an attempt from the client address's throttle (see
// WithClientAddr) before the password is compared, and gives it back
// unless the credentials are refused.
// Errors: CodeInvalid (missing fields, or bad credentials as non_field_errors),
// CodeThrottled after too many failures from the same client address or
// with too many of its logins in progress, CodeUnavailable when the
// password cannot be compared within MaxPasswordHashWait.
func (s *AccountService) Login(ctx context.Context, in LoginInput) (*LoginResult, error) {
	v := in.Validator()
	f := domain.Fields{V: v}
	// As DRF's login serializer: the username is trimmed, the password
	// taken as typed; neither may be null or blank.
	username, ok, _ := domain.Present(f, "username", in.Username, true, false)
	if username = strings.TrimSpace(username); ok && username == "" {
		v.Add(domain.VRequired, domain.MsgBlank, "username")
	}
	password, ok, _ := domain.Present(f, "password", in.Password, true, false)
	if ok && password == "" {
		v.Add(domain.VRequired, domain.MsgBlank, "password")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	attempt, err := s.throttle.Reserve(ctx, domain.ClientAddr(ctx), s.now())
	if err != nil {
		return nil, err
	}
	refused := false
	defer func() {
		if !refused {
			attempt.GiveBack(s.now())
		}
	}()

	stores := s.db.Stores()
	u, err := stores.Users.FindUserByUsername(ctx, username)
	if err != nil && !domain.IsCode(err, domain.CodeNotFound) {
		return nil, err
	}
	hash := s.dummyHash
	if u != nil {
		hash = u.PasswordHash
	}
	var match bool
	var cmpErr error
	if err := s.hashing(ctx, func() { match, cmpErr = s.compare(password, hash) }); err != nil {
		return nil, err
	}
	if cmpErr != nil {
		return nil, fmt.Errorf("compare password of user %q: %w", username, cmpErr)
	}
	if u == nil || !match || !u.IsActive {
		refused = true
		v.Add(domain.VInvalid, MsgBadCredentials, "non_field_errors")
		return nil, v.Err()
	}

	key, keyHash := newTokenKey()
	if err := stores.Tokens.CreateToken(ctx, &Token{KeyHash: keyHash, UserID: u.ID}); err != nil {
		return nil, err
	}
	res := &LoginResult{Token: key, UUID: u.UUID, User: u}
	if u.PartnerID != nil {
		p, err := stores.Partners.FindPartnerByID(ctx, *u.PartnerID)
		if err != nil {
			return nil, err
		}
		res.UUID = p.UUID
	}
	return res, nil
}

// Authenticate resolves an API key to its caller.
// Errors: CodeUnauthenticated with MsgInvalidToken when the key is unknown,
// malformed or its user is inactive.
func (s *AccountService) Authenticate(ctx context.Context, key string) (*domain.Caller, error) {
	invalid := &domain.Error{Code: domain.CodeUnauthenticated, Message: domain.MsgInvalidToken}
	if !wellFormedKey(key) {
		return nil, invalid
	}
	hash := hashTokenKey(key)
	if s.callers != nil {
		if c, ok := s.callers.Get(ctx, string(hash)); ok {
			return c, nil
		}
	}
	owner, err := s.db.Stores().Tokens.FindTokenOwner(ctx, hash)
	if domain.IsCode(err, domain.CodeNotFound) {
		return nil, invalid
	}
	if err != nil {
		return nil, err
	}
	if !sameHash(owner.Token.KeyHash, hash) || !owner.User.IsActive {
		return nil, invalid
	}
	c := &domain.Caller{User: owner.User, Partner: owner.Partner, Permissions: owner.Permissions, TokenID: owner.Token.ID}
	if s.callers != nil {
		s.callers.Put(ctx, string(hash), c)
	}
	return c, nil
}

// NewAccountInput describes an account to create from the command line.
type NewAccountInput struct {
	Username      string
	Password      string
	Email         string
	PartnerName   string // creates a partner for the user when set
	PartnerDomain string // the partner's site domain
	Marketplace   bool
	Staff         bool
	Permissions   []string
}

// NewAccount is a created account with its first API token.
type NewAccount struct {
	User    *domain.User
	Partner *domain.Partner
	Token   string
}

var (
	usernamePattern = regexp.MustCompile(`^[\w.@+-]+$`)
	// A host name of the partner's site, with an optional port for local sites.
	domainPattern = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:[0-9]{1,5})?$`)
)

// Account limits.
const (
	MaxUsernameLength = 150
	MinPasswordLength = 8
	MaxPasswordLength = 1024
)

// CreateAccount creates a user, its partner when one is named, its
// permissions and a first API token, in one transaction.
// Errors: CodeInvalid for bad or taken values; CodeUnavailable when the
// password cannot be hashed within MaxPasswordHashWait.
func (s *AccountService) CreateAccount(ctx context.Context, in NewAccountInput) (*NewAccount, error) {
	var v domain.Validator
	switch {
	case in.Username == "":
		v.Add(domain.VRequired, "This field may not be blank.", "username")
	case utf8.RuneCountInString(in.Username) > MaxUsernameLength:
		v.Add(domain.VMaxLength, fmt.Sprintf("Ensure this field has no more than %d characters.", MaxUsernameLength), "username")
	case !usernamePattern.MatchString(in.Username):
		v.Add(domain.VInvalid, "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.", "username")
	}
	switch n := utf8.RuneCountInString(in.Password); {
	case n < MinPasswordLength:
		v.Add(domain.VInvalid, fmt.Sprintf("This password is too short. It must contain at least %d characters.", MinPasswordLength), "password")
	case n > MaxPasswordLength:
		v.Add(domain.VMaxLength, fmt.Sprintf("Ensure this field has no more than %d characters.", MaxPasswordLength), "password")
	}
	if in.Email != "" {
		if !domain.ValidEmail(in.Email) {
			v.Add(domain.VInvalid, domain.MsgEmail, "email")
		}
	}
	site := strings.ToLower(strings.TrimSpace(in.PartnerDomain))
	if site != "" && !domainPattern.MatchString(site) {
		v.Add(domain.VInvalid, "Enter a valid domain name.", "partner_domain")
	}
	if in.PartnerName == "" && (site != "" || in.Marketplace) {
		v.Add(domain.VRequired, "A partner name is required for a partner domain or a marketplace.", "partner_name")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	var hash string
	var hashErr error
	if err := s.hashing(ctx, func() { hash, hashErr = argon2id.CreateHash(in.Password, s.params) }); err != nil {
		return nil, err
	}
	if hashErr != nil {
		return nil, fmt.Errorf("hash password: %w", hashErr)
	}

	out := &NewAccount{}
	err := s.db.RunInTx(ctx, func(ctx context.Context, st Stores) error {
		u := &domain.User{Username: in.Username, Email: in.Email, PasswordHash: hash, IsStaff: in.Staff, IsActive: true}
		if in.PartnerName != "" {
			p := &domain.Partner{Name: in.PartnerName, SiteDomain: site, IsMarketplace: in.Marketplace, Status: domain.PartnerStatusActive}
			if err := st.Partners.CreatePartner(ctx, p); err != nil {
				return err
			}
			u.PartnerID, out.Partner = &p.ID, p
		}
		if err := st.Users.CreateUser(ctx, u); err != nil {
			return err
		}
		if len(in.Permissions) > 0 {
			if err := st.Users.GrantPermissions(ctx, u.ID, in.Permissions); err != nil {
				return err
			}
		}
		key, keyHash := newTokenKey()
		if err := st.Tokens.CreateToken(ctx, &Token{KeyHash: keyHash, UserID: u.ID}); err != nil {
			return err
		}
		out.User, out.Token = u, key
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Permissions returns the permission names of the caller (GET
// /api/permissions/, the graph's viewer.permissions): every name of
// PermissionVocabulary for staff, the granted ones otherwise, sorted.
// Errors: those of Authorize(OpPermissionsRead).
func (s *AccountService) Permissions(ctx context.Context) ([]string, error) {
	c, err := domain.Authorize(ctx, domain.OpPermissionsRead)
	if err != nil {
		return nil, err
	}
	if c.User.IsStaff {
		return slices.Clone(domain.PermissionVocabulary), nil
	}
	out := append([]string{}, c.Permissions...)
	slices.Sort(out)
	return slices.Compact(out), nil
}

// AdminPartner returns the partner with that uuid as the administration
// sees it (the graph's adminPartner): staff any, a member its own.
// Errors: those of Authorize(OpPartnerRead); CodeNotFound for an unknown
// partner or another one.
func (s *AccountService) AdminPartner(ctx context.Context, id uuid.UUID) (*domain.Partner, error) {
	c, err := domain.Authorize(ctx, domain.OpPartnerRead)
	if err != nil {
		return nil, err
	}
	p, err := s.db.Stores().Partners.FindPartnerByUUID(ctx, id)
	if err != nil {
		return nil, err
	}
	if !c.Sees(p.ID) {
		return nil, domain.ErrNotFound
	}
	return p, nil
}

// User returns a user account as the graph's User node reads it: the
// caller's own; staff any.
// Errors: those of Authorize(OpUserRead); CodeNotFound for another user,
// or none.
func (s *AccountService) User(ctx context.Context, id int64) (*domain.User, error) {
	c, err := domain.Authorize(ctx, domain.OpUserRead)
	if err != nil {
		return nil, err
	}
	switch {
	case c.User.ID == id:
		return c.User, nil
	case !c.User.IsStaff:
		return nil, domain.ErrNotFound
	}
	return s.db.Stores().Users.FindUserByID(ctx, id)
}

// AdminPartnersByID returns the partners the caller sees (its own; every
// one for staff) in ids order, nil for the others (a graph batch: the
// partner of an administration record).
// Errors: those of Authorize(OpPartnerRead).
func (s *AccountService) AdminPartnersByID(ctx context.Context, ids []int64) ([]*domain.Partner, error) {
	return domain.VisibleBatch(ctx, domain.OpPartnerRead, ids, s.db.Stores().Partners.PartnersByID, func(p *domain.Partner) int64 { return p.ID })
}
