package account_test

import (
	"context"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alexedwards/argon2id"

	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/persistence/dbtest"
)

func TestCreateAccount(t *testing.T) {
	t.Parallel()
	db, raw := dbtest.NewDatabase(t)
	accounts := account.NewAccountService(db, nil, dbtest.CheapHashing)
	ctx := context.Background()

	t.Run("OK", func(t *testing.T) {
		a := dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "shop", Email: "shop@example.com",
			PartnerName: "Shop", PartnerDomain: "Shop.Example.com", Marketplace: true,
			Permissions: []string{"permissions.use_voucher", "permissions.expedition_management"}})
		if len(a.Token) != 40 {
			t.Fatalf("token %q is not 40 characters", a.Token)
		}
		c, err := accounts.Authenticate(ctx, a.Token)
		if err != nil {
			t.Fatal(err)
		}
		if c.User.Username != "shop" || c.User.Email != "shop@example.com" || c.User.IsStaff {
			t.Errorf("user = %+v", c.User)
		}
		if c.Partner == nil || c.Partner.Name != "Shop" || c.Partner.SiteDomain != "shop.example.com" || !c.Partner.IsMarketplace || c.Partner.Status != "a" {
			t.Errorf("partner = %+v", c.Partner)
		}
		want := []string{"permissions.expedition_management", "permissions.use_voucher"}
		if !reflect.DeepEqual(c.Permissions, want) {
			t.Errorf("permissions = %v, want %v", c.Permissions, want)
		}
		if !c.HasPermission("permissions.use_voucher") || c.HasPermission("permissions.manage_masteradmin") {
			t.Error("HasPermission does not follow the granted permissions")
		}
	})

	t.Run("OKStaffWithoutPartner", func(t *testing.T) {
		a := dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "staff", Staff: true})
		c, err := accounts.Authenticate(ctx, a.Token)
		if err != nil {
			t.Fatal(err)
		}
		if c.Partner != nil || !c.User.IsStaff || !c.HasPermission("permissions.manage_masteradmin") {
			t.Errorf("caller = %+v", c)
		}
	})

	t.Run("ErrInvalid", func(t *testing.T) {
		cases := map[string]struct {
			in    account.NewAccountInput
			field string
		}{
			"blank username":      {account.NewAccountInput{Password: "long enough"}, "username"},
			"bad username":        {account.NewAccountInput{Username: "a b", Password: "long enough"}, "username"},
			"short password":      {account.NewAccountInput{Username: "u1", Password: "short"}, "password"},
			"bad email":           {account.NewAccountInput{Username: "u2", Password: "long enough", Email: "nope"}, "email"},
			"email without a dot": {account.NewAccountInput{Username: "u2", Password: "long enough", Email: "a@b"}, "email"}, // the contact requests' rule too
			"bad domain":          {account.NewAccountInput{Username: "u3", Password: "long enough", PartnerName: "P", PartnerDomain: "http://x"}, "partner_domain"},
			"domain, no name":     {account.NewAccountInput{Username: "u4", Password: "long enough", PartnerDomain: "x.example"}, "partner_name"},
			"taken username":      {account.NewAccountInput{Username: "shop", Password: "long enough"}, "username"},
			"taken domain":        {account.NewAccountInput{Username: "u5", Password: "long enough", PartnerName: "P", PartnerDomain: "shop.example.com"}, "site_domain"},
			"unknown permission":  {account.NewAccountInput{Username: "u6", Password: "long enough", PartnerName: "P6", Permissions: []string{"permissions.nope"}}, "permissions"},
		}
		for name, tc := range cases {
			t.Run(name, func(t *testing.T) {
				_, err := accounts.CreateAccount(ctx, tc.in)
				e := dbtest.WantCode(t, err, domain.CodeInvalid)
				if got := domain.PathKey(e.Fields[0].Path); got != tc.field {
					t.Errorf("field = %s, want %s (%v)", got, tc.field, e.Fields)
				}
				// Nothing of the account was written.
				if tc.in.Username != "shop" && tc.in.Username != "" {
					if _, err := db.Stores().Users.FindUserByUsername(ctx, tc.in.Username); !domain.IsCode(err, domain.CodeNotFound) {
						t.Errorf("user %q exists after a failed creation: %v", tc.in.Username, err)
					}
				}
			})
		}
		partners, err := raw.NewSelect().Table("partners").Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if partners != 1 {
			t.Errorf("%d partners, want 1: a failed creation left its partner", partners)
		}
	})
}

func TestLogin(t *testing.T) {
	t.Parallel()
	db, _ := dbtest.NewDatabase(t)
	accounts := account.NewAccountService(db, domain.NewClientThrottle(3, time.Minute), dbtest.CheapHashing)
	shop := dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "shop", PartnerName: "Shop"})
	staff := dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "staff", Staff: true})
	from := func(addr string) context.Context { return domain.WithClientAddr(context.Background(), addr) }

	t.Run("OK", func(t *testing.T) {
		res, err := accounts.Login(from("10.0.0.1"), account.LoginInput{Username: domain.Some("shop"), Password: domain.Some("correct horse")})
		if err != nil {
			t.Fatal(err)
		}
		if res.Token == shop.Token || len(res.Token) != 40 {
			t.Errorf("token %q: want a new 40-character key", res.Token)
		}
		if res.UUID != shop.Partner.UUID {
			t.Errorf("uuid = %s, want the partner's %s", res.UUID, shop.Partner.UUID)
		}
		c, err := accounts.Authenticate(context.Background(), res.Token)
		if err != nil || c.User.ID != shop.User.ID {
			t.Fatalf("the new token does not authenticate the user: %v", err)
		}
	})

	t.Run("OKUserUUIDWithoutPartner", func(t *testing.T) {
		res, err := accounts.Login(from("10.0.0.1"), account.LoginInput{Username: domain.Some("staff"), Password: domain.Some("correct horse")})
		if err != nil {
			t.Fatal(err)
		}
		if res.UUID != staff.User.UUID {
			t.Errorf("uuid = %s, want the user's %s", res.UUID, staff.User.UUID)
		}
	})

	t.Run("ErrMissingFields", func(t *testing.T) {
		_, err := accounts.Login(from("10.0.0.2"), account.LoginInput{Password: domain.Some("")})
		e := dbtest.WantCode(t, err, domain.CodeInvalid)
		got := map[string]string{}
		for _, f := range e.Fields {
			got[domain.PathKey(f.Path)] = f.Message
		}
		want := map[string]string{"username": "This field is required.", "password": "This field may not be blank."}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("errors = %v, want %v", got, want)
		}
	})

	t.Run("ErrBadCredentials", func(t *testing.T) {
		for _, in := range []account.LoginInput{
			{Username: domain.Some("shop"), Password: domain.Some("wrong")},
			{Username: domain.Some("nobody"), Password: domain.Some("correct horse")},
			{Username: domain.Some("shop"), Password: domain.Some(" correct horse")}, // a password is taken as typed
		} {
			_, err := accounts.Login(from("10.0.0.3"), in)
			e := dbtest.WantCode(t, err, domain.CodeInvalid)
			if domain.PathKey(e.Fields[0].Path) != "non_field_errors" || e.Fields[0].Message != account.MsgBadCredentials {
				t.Errorf("%v: errors = %v", in, e.Fields)
			}
		}
	})

	t.Run("ErrThrottled", func(t *testing.T) {
		for i := 0; i < 3; i++ {
			_, err := accounts.Login(from("10.0.0.4"), account.LoginInput{Username: domain.Some("shop"), Password: domain.Some("wrong")})
			dbtest.WantCode(t, err, domain.CodeInvalid)
		}
		// Even the right password is refused until the bucket refills.
		_, err := accounts.Login(from("10.0.0.4"), account.LoginInput{Username: domain.Some("shop"), Password: domain.Some("correct horse")})
		e := dbtest.WantCode(t, err, domain.CodeThrottled)
		if e.RetryAfter <= 0 || e.RetryAfter > time.Minute {
			t.Errorf("RetryAfter = %v, want within a minute", e.RetryAfter)
		}
		// Another client is not affected.
		if _, err := accounts.Login(from("10.0.0.5"), account.LoginInput{Username: domain.Some("shop"), Password: domain.Some("correct horse")}); err != nil {
			t.Errorf("another client: %v", err)
		}
	})
}

// Each login takes its attempt before the password is compared: 40 wrong
// passwords sent at once from one address are DefaultLoginBurst
// comparisons and throttled refusals, not 40 comparisons against a limit
// of 10.
func TestLoginConcurrentFailures(t *testing.T) {
	t.Parallel()
	db, _ := dbtest.NewDatabase(t)
	accounts := account.NewAccountService(db, nil, dbtest.CheapHashing)
	dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "shop", PartnerName: "Shop"})
	var compared atomic.Int64
	accounts.SetPasswordCompare(func(password, hash string) (bool, error) {
		compared.Add(1)
		return argon2id.ComparePasswordAndHash(password, hash)
	})

	const n = 40
	ctx := domain.WithClientAddr(context.Background(), "10.1.0.1")
	got := dbtest.Concurrently(n, func(int) error {
		_, err := accounts.Login(ctx, account.LoginInput{Username: domain.Some("shop"), Password: domain.Some("wrong")})
		return err
	})
	want := map[domain.Code]int{domain.CodeInvalid: domain.DefaultLoginBurst, domain.CodeThrottled: n - domain.DefaultLoginBurst}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("results = %v, want %v", got, want)
	}
	if c := compared.Load(); c != domain.DefaultLoginBurst {
		t.Errorf("%d passwords compared, want %d", c, domain.DefaultLoginBurst)
	}
}

// A successful login gives its attempt back, even when it runs alongside
// failures: a user who mistypes is not locked out by logging in.
func TestLoginSuccessDoesNotSpend(t *testing.T) {
	t.Parallel()
	db, _ := dbtest.NewDatabase(t)
	accounts := account.NewAccountService(db, domain.NewClientThrottle(3, time.Hour), dbtest.CheapHashing)
	dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "shop", PartnerName: "Shop"})
	ctx := domain.WithClientAddr(context.Background(), "10.1.0.2")
	login := func(password string) error {
		_, err := accounts.Login(ctx, account.LoginInput{Username: domain.Some("shop"), Password: domain.Some(password)})
		return err
	}

	// A mistake, then right logins, one of them alongside a mistake.
	dbtest.WantCode(t, login("wrong"), domain.CodeInvalid)
	for range 5 {
		if err := login("correct horse"); err != nil {
			t.Fatalf("right password after a mistake: %v", err)
		}
	}
	got := dbtest.Concurrently(2, func(i int) error { return login([]string{"correct horse", "wrong"}[i]) })
	if want := map[domain.Code]int{"": 1, domain.CodeInvalid: 1}; !reflect.DeepEqual(got, want) {
		t.Fatalf("a right and a wrong login at once: %v, want %v", got, want)
	}
	// Only the two mistakes were spent: the third is still compared, the
	// fourth refused.
	dbtest.WantCode(t, login("wrong"), domain.CodeInvalid)
	dbtest.WantCode(t, login("wrong"), domain.CodeThrottled)
}

// At most PasswordHashSlots argon2id comparisons run at once (each takes
// 64 MiB with the default parameters); a login finding every slot taken
// waits MaxPasswordHashWait, then gets CodeUnavailable, and gives its
// attempt back.
func TestLoginHashSlots(t *testing.T) {
	t.Parallel()
	db, _ := dbtest.NewDatabase(t)
	accounts := account.NewAccountService(db, domain.NewClientThrottle(100, time.Hour), dbtest.CheapHashing)
	dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "shop", PartnerName: "Shop"})
	slots := accounts.PasswordHashSlots()
	if slots < 1 {
		t.Fatalf("%d hashing slots", slots)
	}
	// The first `slots` comparisons hold their slot until released.
	var calls atomic.Int64
	inside, release := make(chan struct{}, slots), make(chan struct{})
	accounts.SetPasswordCompare(func(password, hash string) (bool, error) {
		if calls.Add(1) <= int64(slots) {
			inside <- struct{}{}
			<-release
		}
		return argon2id.ComparePasswordAndHash(password, hash)
	})
	ctx := domain.WithClientAddr(context.Background(), "10.1.0.3")
	right := account.LoginInput{Username: domain.Some("shop"), Password: domain.Some("correct horse")}
	held := make(chan error, slots)
	for range slots {
		go func() {
			_, err := accounts.Login(ctx, right)
			held <- err
		}()
	}
	for range slots {
		select {
		case <-inside:
		case <-time.After(10 * time.Second):
			close(release)
			t.Fatal("the logins holding the slots did not reach the comparison")
		}
	}

	start := time.Now()
	_, err := accounts.Login(ctx, right)
	waited := time.Since(start)
	close(release)
	e := dbtest.WantCode(t, err, domain.CodeUnavailable)
	if e.RetryAfter != account.PasswordHashRetryAfter {
		t.Errorf("RetryAfter = %v, want %v", e.RetryAfter, account.PasswordHashRetryAfter)
	}
	if waited < account.MaxPasswordHashWait {
		t.Errorf("refused after %v, want a wait of %v", waited, account.MaxPasswordHashWait)
	}
	if c := calls.Load(); c != int64(slots) {
		t.Errorf("%d comparisons, want %d: the refused login compared", c, slots)
	}
	for range slots {
		if err := <-held; err != nil {
			t.Errorf("a login holding a slot: %v", err)
		}
	}
	// With the slots free, a login goes through.
	if _, err := accounts.Login(ctx, right); err != nil {
		t.Errorf("after the slots are released: %v", err)
	}
}

func TestAuthenticate(t *testing.T) {
	t.Parallel()
	db, raw := dbtest.NewDatabase(t)
	accounts := account.NewAccountService(db, nil, dbtest.CheapHashing)
	a := dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "shop", PartnerName: "Shop"})
	ctx := context.Background()

	for name, key := range map[string]string{
		"ErrMalformed":   "not-a-key",
		"ErrUnknown":     "0123456789abcdef0123456789abcdef01234567",
		"ErrNearlyRight": a.Token[:39] + "x",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := accounts.Authenticate(ctx, key)
			if e := dbtest.WantCode(t, err, domain.CodeUnauthenticated); e.Message != domain.MsgInvalidToken {
				t.Errorf("message = %q", e.Message)
			}
		})
	}

	// The caller names the token it came with: two tokens of one user are
	// two callers (idempotency keys are scoped by token).
	t.Run("OKTokenID", func(t *testing.T) {
		res, err := accounts.Login(ctx, account.LoginInput{Username: domain.Some("shop"), Password: domain.Some("correct horse")})
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{a.Token, res.Token} {
			c, err := accounts.Authenticate(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			var id int64
			if err := raw.NewRaw(`SELECT id FROM api_tokens WHERE key_hash = sha256(?::bytea)`, key).Scan(ctx, &id); err != nil {
				t.Fatal(err)
			}
			if c.TokenID != id || id == 0 {
				t.Errorf("TokenID = %d, want the token's id %d", c.TokenID, id)
			}
		}
	})

	t.Run("ErrInactiveUser", func(t *testing.T) {
		if _, err := raw.NewUpdate().Table("users").Set("is_active = false").Where("id = ?", a.User.ID).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		_, err := accounts.Authenticate(ctx, a.Token)
		dbtest.WantCode(t, err, domain.CodeUnauthenticated)
	})

	t.Run("ErrNoCaller", func(t *testing.T) {
		_, err := domain.CallerFrom(ctx)
		if e := dbtest.WantCode(t, err, domain.CodeUnauthenticated); e.Message != domain.MsgNotAuthenticated {
			t.Errorf("message = %q", e.Message)
		}
		bad := domain.WithAuthError(ctx, &domain.Error{Code: domain.CodeUnauthenticated, Message: domain.MsgInvalidToken})
		_, err = domain.PartnerFrom(bad)
		if e := dbtest.WantCode(t, err, domain.CodeUnauthenticated); e.Message != domain.MsgInvalidToken {
			t.Errorf("message = %q", e.Message)
		}
	})
}

// With a caller cache, a token is read from the database once per cache
// lifetime: a change to the account reaches it when the entry lapses.
func TestAuthenticateCachesCallers(t *testing.T) {
	t.Parallel()
	db, raw := dbtest.NewDatabase(t)
	const ttl = 200 * time.Millisecond
	accounts := account.NewAccountService(db, nil, dbtest.CheapHashing).CacheCallers(domain.NewMemoryCallerCache(ttl))
	a := dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "shop", PartnerName: "Shop"})
	ctx := context.Background()
	c, err := accounts.Authenticate(ctx, a.Token)
	if err != nil || c.User.ID != a.User.ID || c.Partner == nil || c.Partner.ID != a.Partner.ID {
		t.Fatalf("Authenticate = %+v, %v", c, err)
	}
	if _, err := raw.NewUpdate().Table("users").Set("is_active = false").Where("id = ?", a.User.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	// Cached: the deactivation is not seen yet.
	if again, err := accounts.Authenticate(ctx, a.Token); err != nil || again != c {
		t.Errorf("within the cache's lifetime: %+v, %v; want the cached caller", again, err)
	}
	// A wrong key is never answered from the cache.
	if _, err := accounts.Authenticate(ctx, a.Token[:39]+"x"); err == nil {
		t.Error("a near key is authenticated")
	}
	time.Sleep(ttl + 100*time.Millisecond)
	_, err = accounts.Authenticate(ctx, a.Token)
	dbtest.WantCode(t, err, domain.CodeUnauthenticated)
}

// A user account is read by its owner, and by staff; anyone else finds
// nothing.
func TestUser(t *testing.T) {
	t.Parallel()
	db, _ := dbtest.NewDatabase(t)
	accounts := account.NewAccountService(db, nil, dbtest.CheapHashing)
	shop := dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "shop", PartnerName: "Shop"})
	other := dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "other", PartnerName: "Other"})
	staff := dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "staff", Staff: true})
	as := func(a *account.NewAccount) context.Context {
		return domain.WithCaller(context.Background(), &domain.Caller{User: a.User, Partner: a.Partner})
	}
	if u, err := accounts.User(as(shop), shop.User.ID); err != nil || u.Username != "shop" {
		t.Errorf("own account: %+v, %v", u, err)
	}
	if u, err := accounts.User(as(staff), other.User.ID); err != nil || u.Username != "other" {
		t.Errorf("staff reading another: %+v, %v", u, err)
	}
	_, err := accounts.User(as(shop), other.User.ID)
	dbtest.WantCode(t, err, domain.CodeNotFound)
	_, err = accounts.User(as(staff), 999999)
	dbtest.WantCode(t, err, domain.CodeNotFound)
	_, err = accounts.User(context.Background(), shop.User.ID)
	dbtest.WantCode(t, err, domain.CodeUnauthenticated)
}
