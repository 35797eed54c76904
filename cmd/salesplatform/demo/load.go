package demo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/alexedwards/argon2id"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/persistence"
)

// Load loads the demo dataset into db and says what it did; hashing is
// argon2id's cost for the demo users' passwords (nil: its defaults), now the
// instant the relative dates (slots, sessions, gifts) count from, baseURL
// the service's public address shown in URLs.
//
// Everything is one transaction, so that a failure leaves nothing; the
// services it calls run theirs as savepoints in it. The accounts come
// first, each created by AccountService.CreateAccount so that its user
// gets an API token; an account whose user exists is kept. The catalogue
// follows, unless the first partner's marketing widgets show it is loaded.
// The administration part follows with its own marker (the first
// coupon), the network part with its own (the first network partner), the
// payment hub with its own (the first payment-hub partner) and the shops
// last with theirs (the first shop's products), so that a database seeded
// before a part existed gets it.
//
// Media bytes go to blobs, outside the transaction: when it fails, the
// blobs this run wrote are deleted.
func Load(ctx context.Context, db *bun.DB, blobs domain.BlobStore, hashing *argon2id.Params, now time.Time, baseURL string, out io.Writer) error {
	data, err := Data()
	if err != nil {
		return err
	}
	var accounts []seededAccount
	var catalogue *tally
	var admin *adminLoader
	var networkPart *networkLoader
	var paymentsPart *paymentsLoader
	var shops *ecommerceLoader
	var log bytes.Buffer // printed once the transaction has committed
	written := &recordingBlobs{BlobStore: blobs}
	err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if accounts, err = loadAccounts(ctx, tx, data, hashing, &log); err != nil {
			return err
		}
		staff, err := loadStaff(ctx, tx, data.Staff, hashing, &log)
		if err != nil {
			return err
		}
		partners := make(map[string]*domain.Partner, len(accounts))
		for _, a := range accounts {
			partners[a.Key] = a.Partner
		}
		accounts = append(accounts, staff)
		staffUser, err := persistence.NewDatabase(tx).Stores().Users.FindUserByUsername(ctx, data.Staff.Username)
		if err != nil {
			return err
		}
		l := newCatalogueLoader(ctx, tx, data, partners, staffUser, now)
		done, err := l.loadedAlready(ctx)
		if err != nil {
			return err
		}
		if !done {
			if err := l.load(ctx); err != nil {
				return err
			}
			catalogue = &l.tally
		}
		a, err := newAdminLoader(ctx, tx, data, written, partners, now, baseURL)
		if err != nil {
			return err
		}
		if done, err = a.loadedAlready(ctx); err != nil {
			return err
		}
		if !done {
			if err := a.load(ctx); err != nil {
				return err
			}
			admin = a
		}
		n := newNetworkLoader(ctx, db, tx, data, partners, staffUser, now)
		if done, err = n.loadedAlready(ctx); err != nil {
			return err
		}
		if !done {
			if err := n.load(ctx); err != nil {
				return err
			}
			networkPart = n
		}
		pl := newPaymentsLoader(db, tx, data, partners, written, now, baseURL)
		if done, err = pl.loadedAlready(ctx); err != nil {
			return err
		}
		if !done {
			if err := pl.load(ctx); err != nil {
				return err
			}
			paymentsPart = pl
		}
		el := newEcommerceLoader(tx, data, partners, now)
		if done, err = el.loadedAlready(ctx); err != nil || done {
			return err
		}
		if err := el.load(ctx); err != nil {
			return err
		}
		shops = el
		return nil
	})
	if err != nil {
		err = fmt.Errorf("load the demo data (none of it was saved): %w", err)
		if derr := written.deleteAll(context.WithoutCancel(ctx)); derr != nil {
			err = errors.Join(err, fmt.Errorf("and the media files it wrote could not all be deleted: %w", derr))
		}
		return err
	}
	if _, err := log.WriteTo(out); err != nil {
		return err
	}
	report(out, data, baseURL, accounts, catalogue, admin, networkPart, paymentsPart, shops)
	return nil
}

// report prints the summary: what was loaded, the widget URLs, gift codes
// and network records, then how to get the demo users' tokens, the new
// ones last.
func report(out io.Writer, data *Dataset, baseURL string, accounts []seededAccount, catalogue *tally, admin *adminLoader,
	networkPart *networkLoader, paymentsPart *paymentsLoader, shops *ecommerceLoader) {
	if catalogue == nil {
		fmt.Fprintln(out, "The demo catalogue is already loaded: nothing changed.")
	} else {
		fmt.Fprintln(out, "Loaded the demo catalogue:")
		for _, line := range catalogue.lines() {
			fmt.Fprintln(out, "  "+line)
		}
	}
	if admin == nil {
		fmt.Fprintln(out, "The demo administration data is already loaded: nothing changed.")
	} else {
		admin.report(out, baseURL)
	}
	if networkPart == nil {
		fmt.Fprintln(out, "The demo network data is already loaded: nothing changed.")
	} else {
		networkPart.report(out, baseURL)
	}
	if paymentsPart == nil {
		fmt.Fprintln(out, "The demo payment hub is already loaded: nothing changed.")
	} else {
		paymentsPart.report(out, baseURL)
	}
	if shops == nil {
		fmt.Fprintln(out, "The demo shops are already loaded: nothing changed.")
	} else {
		shops.report(out, baseURL)
	}
	fmt.Fprintln(out, "Marketing widgets:")
	for _, p := range data.Partners {
		fmt.Fprintf(out, "  %-18s %s/api/setup_marketing_widgets/%s/\n", p.Domain, baseURL, p.Widgets.Key)
	}
	fmt.Fprintln(out, "Gift codes (GET /api/v2/gift/{code}/ with X-Partner-Domain: the seller):")
	for _, g := range data.Gifts {
		fmt.Fprintf(out, "  %-24s %-16s sold by %s\n", g.Code, g.Kind, data.Seller(g).Domain)
	}
	reportNetwork(out, data, baseURL)

	var created, existing []seededAccount
	for _, a := range accounts {
		if a.Token != "" {
			created = append(created, a)
		} else {
			existing = append(existing, a)
		}
	}
	if len(existing) > 0 {
		fmt.Fprintln(out, "These demo users existed already; their tokens are only shown when created. Get a new one with:")
		for _, a := range existing {
			fmt.Fprintf(out, `  curl -s -X POST %s/api-token-auth/ -H 'Content-Type: application/json' -d '{"username": %q, "password": %q}'`+"\n",
				baseURL, a.User.Username, a.User.Password)
		}
	}
	if len(created) > 0 {
		fmt.Fprintln(out, "API tokens of the demo users (username token):")
		for _, a := range created {
			fmt.Fprintf(out, "%s %s\n", a.User.Username, a.Token)
		}
	}
}

// seededAccount is a demo account as the run found or created it.
type seededAccount struct {
	User    User
	Key     string // the partner's; "" for the staff user
	Partner *domain.Partner
	Token   string // "" when the user existed: a token is only known when created
}

// loadAccounts creates the demo partners' accounts whose users do not
// exist yet, and finds the others' partners.
// Errors: an existing user that is not the demo partner's.
func loadAccounts(ctx context.Context, tx bun.IDB, data *Dataset, hashing *argon2id.Params, out io.Writer) ([]seededAccount, error) {
	database := persistence.NewDatabase(tx)
	stores := database.Stores()
	accounts := account.NewAccountService(database, nil, hashing)
	res := make([]seededAccount, 0, len(data.Partners))
	for _, d := range data.Partners {
		a := seededAccount{User: d.User, Key: d.Key}
		verb := "Created"
		u, err := stores.Users.FindUserByUsername(ctx, d.Username)
		switch {
		case domain.IsCode(err, domain.CodeNotFound):
			acct, err := accounts.CreateAccount(ctx, account.NewAccountInput{Username: d.Username, Password: d.Password,
				Email: d.Email, PartnerName: d.Name, PartnerDomain: d.Domain, Marketplace: d.Marketplace})
			if err != nil {
				return nil, fmt.Errorf("create the demo user %s: %w", d.Username, domain.Describe(err))
			}
			a.Partner, a.Token = acct.Partner, acct.Token
		case err != nil:
			return nil, err
		default:
			verb = "Found"
			var p *domain.Partner
			if u.PartnerID != nil {
				if p, err = stores.Partners.FindPartnerByID(ctx, *u.PartnerID); err != nil {
					return nil, err
				}
			}
			if p == nil || p.SiteDomain != d.Domain || p.IsMarketplace != d.Marketplace {
				return nil, fmt.Errorf("the user %s exists but is not the demo user of %s: seed another database", d.Username, d.Domain)
			}
			a.Partner = p
		}
		kind := "partner"
		if d.Marketplace {
			kind = "marketplace"
		}
		fmt.Fprintf(out, "%s user %s (password %s) of the %s %q at %s\n", verb, d.Username, d.Password, kind, d.Name, d.Domain)
		res = append(res, a)
	}
	return res, nil
}

// loadStaff creates the demo staff user unless it exists.
// Errors: a user of that name that is not staff or has a partner.
func loadStaff(ctx context.Context, tx bun.IDB, staff User, hashing *argon2id.Params, out io.Writer) (seededAccount, error) {
	database := persistence.NewDatabase(tx)
	a := seededAccount{User: staff}
	u, err := database.Stores().Users.FindUserByUsername(ctx, staff.Username)
	switch {
	case domain.IsCode(err, domain.CodeNotFound):
		acct, err := account.NewAccountService(database, nil, hashing).CreateAccount(ctx, account.NewAccountInput{
			Username: staff.Username, Password: staff.Password, Email: staff.Email, Staff: true})
		if err != nil {
			return a, fmt.Errorf("create the demo user %s: %w", staff.Username, domain.Describe(err))
		}
		a.Token = acct.Token
		fmt.Fprintf(out, "Created staff user %s (password %s)\n", staff.Username, staff.Password)
	case err != nil:
		return a, err
	case !u.IsStaff || u.PartnerID != nil:
		return a, fmt.Errorf("the user %s exists but is not the demo staff user: seed another database", staff.Username)
	default:
		fmt.Fprintf(out, "Found staff user %s (password %s)\n", staff.Username, staff.Password)
	}
	return a, nil
}

// tally counts what a load created, in the order it first counted it.
type tally struct {
	order  []string
	counts map[string]int
}

func (t *tally) add(what string, n int) {
	if t.counts == nil {
		t.counts = map[string]int{}
	}
	if _, ok := t.counts[what]; !ok {
		t.order = append(t.order, what)
	}
	t.counts[what] += n
}

func (t *tally) lines() []string {
	out := make([]string, len(t.order))
	for i, what := range t.order {
		out[i] = fmt.Sprintf("%4d %s", t.counts[what], what)
	}
	return out
}

// ids maps the dataset's keys to the ids of their records. Dataset.check
// has verified every reference, so a missing key is a loader bug.
type ids map[string]int64

func (m ids) id(key string) int64 {
	id, ok := m[key]
	if !ok {
		panic(fmt.Sprintf("demo dataset: no record has the key %q (or it is loaded after its use)", key))
	}
	return id
}

func (m ids) of(keys []string) []int64 {
	out := make([]int64, len(keys))
	for i, k := range keys {
		out[i] = m.id(k)
	}
	return out
}

// seedErr names the record a service refused, with a domain error's field
// messages spelled out.
func seedErr(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", what, domain.Describe(err))
}

// texts is a Localized as a service input, in a fixed order.
func texts(l domain.Localized) []domain.TextInput {
	if l == nil {
		return nil
	}
	in := make([]domain.TextInput, 0, len(l))
	for _, lang := range sortedKeys(l) {
		in = append(in, domain.TextInput{Lang: lang, Text: l[lang]})
	}
	return in
}

// recordingBlobs is a BlobStore that remembers the keys it wrote, so that
// a failed load can delete them: the blobs are outside the transaction.
type recordingBlobs struct {
	domain.BlobStore
	mu   sync.Mutex
	keys []string
}

func (b *recordingBlobs) Put(ctx context.Context, key, contentType string, r io.Reader, size int64) error {
	if err := b.BlobStore.Put(ctx, key, contentType, r, size); err != nil {
		return err
	}
	b.mu.Lock()
	b.keys = append(b.keys, key)
	b.mu.Unlock()
	return nil
}

// deleteAll deletes every blob written; it returns the errors joined.
func (b *recordingBlobs) deleteAll(ctx context.Context) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	var errs []error
	for _, k := range b.keys {
		if err := b.BlobStore.Delete(ctx, k); err != nil {
			errs = append(errs, fmt.Errorf("delete the blob %s: %w", k, err))
		}
	}
	b.keys = nil
	return errors.Join(errs...)
}
