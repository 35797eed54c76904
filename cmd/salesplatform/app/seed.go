package app

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"salesplatform/domain/catalogue"

	"salesplatform/domain/account"

	"salesplatform/domain/widgets"

	"salesplatform/domain/gifts"

	"salesplatform/domain/media"

	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/persistence"
)

// seedCmd is `salesplatform seed demo`: it loads the demo dataset (the
// demo* tables below) and prints the demo users' API tokens last.
func seedCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "demo" {
		fmt.Fprintln(stderr, "usage: salesplatform seed demo [flags]")
		return errUsage
	}
	var cfg Config
	fs := flag.NewFlagSet("seed demo", flag.ContinueOnError)
	bindConfig(fs, &cfg)
	if err := parseFlags(fs, &cfg, args[1:], stderr); err != nil {
		return err
	}
	log := NewLogger(stderr, cfg.LogLevel)
	db, closeDB, err := openDatabase(ctx, &cfg, log, true)
	if err != nil {
		return err
	}
	defer closeDB()
	if err := persistence.Migrate(ctx, db); err != nil {
		return err
	}
	blobs, err := openBlobStore(ctx, &cfg)
	if err != nil {
		return err
	}
	baseURL := cfg.PublicBaseURL
	if baseURL == "" {
		baseURL = "http://" + cfg.Addr
	}
	return seedDemo(ctx, db, blobs, time.Now(), baseURL, stdout)
}

// seedDemo loads the demo dataset and says what it did; now is the instant
// the relative dates (slots, sessions, gifts) count from.
//
// Everything is one transaction, so that a failure leaves nothing: the
// accounts come first, each created by AccountService.CreateAccount (its
// own transaction becomes a savepoint) so that its user gets an API token;
// an account whose user exists is kept. The catalogue follows; the first
// partner's marketing widgets, loaded with it, mark it as loaded. The
// administration part (seed_admin.go) comes last with its own marker, so
// that a database seeded before it existed gets it on the next run.
//
// Media bytes go to blobs, outside the transaction: when it fails, the
// blobs this run wrote are deleted.
func seedDemo(ctx context.Context, db *bun.DB, blobs media.BlobStore, now time.Time, baseURL string, out io.Writer) error {
	var accounts []seededAccount
	var loaded *seedTally
	var admin *demoAdminLoader
	var log bytes.Buffer // printed once the transaction has committed
	written := &recordingBlobs{BlobStore: blobs}
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if accounts, err = seedDemoAccounts(ctx, tx, &log); err != nil {
			return err
		}
		staff, err := seedDemoStaff(ctx, tx, &log)
		if err != nil {
			return err
		}
		partners := make(map[string]*domain.Partner, len(accounts))
		for _, a := range accounts {
			partners[a.Demo.Key] = a.Partner
		}
		accounts = append(accounts, staff)
		l := newDemoLoader(tx, partners, now)
		done, err := l.loadedAlready(ctx)
		if err != nil {
			return err
		}
		if !done {
			if err := l.load(ctx); err != nil {
				return err
			}
			loaded = &l.tally
		}
		a, err := newDemoAdminLoader(ctx, tx, written, partners, now, baseURL)
		if err != nil {
			return err
		}
		if done, err := a.loadedAlready(ctx); err != nil || done {
			return err
		}
		if err := a.load(ctx); err != nil {
			return err
		}
		admin = a
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

	if loaded == nil {
		fmt.Fprintln(out, "The demo catalogue is already loaded: nothing changed.")
	} else {
		fmt.Fprintln(out, "Loaded the demo catalogue:")
		for _, line := range loaded.lines() {
			fmt.Fprintln(out, "  "+line)
		}
	}
	if admin == nil {
		fmt.Fprintln(out, "The demo administration data is already loaded: nothing changed.")
	} else {
		admin.report(out, baseURL)
	}
	fmt.Fprintln(out, "Marketing widgets:")
	for _, p := range demoPartners {
		fmt.Fprintf(out, "  %-18s %s/api/setup_marketing_widgets/%s/\n", p.Domain, baseURL, p.Widgets.Key)
	}
	fmt.Fprintln(out, "Gift codes (GET /api/v2/gift/{code}/ with X-Partner-Domain: the seller):")
	for _, g := range demoGifts {
		fmt.Fprintf(out, "  %-24s %-16s sold by %s\n", g.Code, g.Kind, demoSeller(g).Domain)
	}

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
	return nil
}

// seededAccount is a demo account as the run found or created it.
type seededAccount struct {
	User    demoUser
	Demo    *demoPartner // nil for the staff user
	Partner *domain.Partner
	Token   string // "" when the user existed: a token is only known when created
}

// seedDemoAccounts creates the demo partners' accounts whose users do not
// exist yet, and finds the others' partners.
// Errors: an existing user that is not the demo partner's.
func seedDemoAccounts(ctx context.Context, db bun.IDB, out io.Writer) ([]seededAccount, error) {
	database := persistence.NewDatabase(db)
	stores := database.Stores()
	accounts := account.NewAccountService(database, nil, nil)
	res := make([]seededAccount, 0, len(demoPartners))
	for i := range demoPartners {
		d := &demoPartners[i]
		a := seededAccount{User: demoUser{Username: d.Username, Password: d.Password, Email: d.Email}, Demo: d}
		verb := "Created"
		u, err := stores.Users.FindUserByUsername(ctx, d.Username)
		switch {
		case domain.IsCode(err, domain.CodeNotFound):
			acct, err := accounts.CreateAccount(ctx, account.NewAccountInput{Username: d.Username, Password: d.Password,
				Email: d.Email, PartnerName: d.Name, PartnerDomain: d.Domain, Marketplace: d.Marketplace})
			if err != nil {
				return nil, fmt.Errorf("create the demo user %s: %w", d.Username, describe(err))
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

// seedTally counts what a load created, in the order it first counted it.
type seedTally struct {
	order  []string
	counts map[string]int
}

func (t *seedTally) add(what string, n int) {
	if t.counts == nil {
		t.counts = map[string]int{}
	}
	if _, ok := t.counts[what]; !ok {
		t.order = append(t.order, what)
	}
	t.counts[what] += n
}

func (t *seedTally) lines() []string {
	out := make([]string, len(t.order))
	for i, what := range t.order {
		out[i] = fmt.Sprintf("%4d %s", t.counts[what], what)
	}
	return out
}

// demoLoader loads the demo catalogue through stores bound to one
// transaction. The tables name their records by key; ids maps each key to
// the id of the record created for it (keys are unique across tables).
type demoLoader struct {
	now      time.Time
	partners map[string]*domain.Partner // by demoPartner.Key
	ids      map[string]int64
	tally    seedTally

	catalog   *persistence.PartnerCatalogStore
	events    *persistence.EventStore
	workshops *persistence.WorkshopStore
	protos    *persistence.PrototypeStore
	boxes     *persistence.BoxStore
	gifts     *persistence.GiftStore
	widgets   *persistence.WidgetStore
	// widgetService validates the widgets before the store saves them. It
	// has no partner store: only WidgetService.Widgets reads one.
	widgetService *widgets.WidgetService
}

func newDemoLoader(tx bun.Tx, partners map[string]*domain.Partner, now time.Time) *demoLoader {
	widgetStore := persistence.NewWidgetStore(tx)
	return &demoLoader{now: now, partners: partners, ids: map[string]int64{},
		catalog: persistence.NewPartnerCatalogStore(tx), events: persistence.NewEventStore(tx),
		workshops: persistence.NewWorkshopStore(tx), protos: persistence.NewPrototypeStore(tx),
		boxes: persistence.NewBoxStore(tx), gifts: persistence.NewGiftStore(tx),
		widgets: widgetStore, widgetService: widgets.NewWidgetService(persistence.NewUnitOfWork[widgets.Stores](tx, persistence.WidgetStores))}
}

// loadedAlready reports whether the catalogue was loaded: the first demo
// partner has its widgets.
// Errors: the widget key belongs to another partner.
func (l *demoLoader) loadedAlready(ctx context.Context) (bool, error) {
	first := demoPartners[0]
	w, err := l.widgets.FindWidgetsByKey(ctx, first.Widgets.Key)
	switch {
	case domain.IsCode(err, domain.CodeNotFound):
		return false, nil
	case err != nil:
		return false, err
	case w.PartnerID != l.partners[first.Key].ID:
		return false, fmt.Errorf("the widget key %s belongs to partner %d, not to %s: seed another database",
			first.Widgets.Key, w.PartnerID, first.Domain)
	}
	return true, nil
}

// load creates every record of the demo tables, referenced records first.
func (l *demoLoader) load(ctx context.Context) error {
	for _, step := range []func(context.Context) error{
		l.loadPartners, l.loadUniverses, l.loadThemes, l.loadVoucherPrototypes, l.loadGiftcardPrototypes,
		l.loadEvents, l.loadWorkshopTags, l.loadWorkshopCategories, l.loadWorkshops, l.loadBoxes, l.loadGifts,
	} {
		if err := step(ctx); err != nil {
			return err
		}
	}
	return nil
}

// id is the id of the record created for a key of the demo tables.
func (l *demoLoader) id(key string) int64 {
	id, ok := l.ids[key]
	if !ok {
		panic(fmt.Sprintf("demo dataset: no record has the key %q (or it is loaded after its use)", key))
	}
	return id
}

func (l *demoLoader) idsOf(keys []string) []int64 {
	ids := make([]int64, len(keys))
	for i, k := range keys {
		ids[i] = l.id(k)
	}
	return ids
}

func (l *demoLoader) setID(key string, id int64) {
	if _, taken := l.ids[key]; taken {
		panic(fmt.Sprintf("demo dataset: the key %q names two records", key))
	}
	l.ids[key] = id
}

// seedErr names the record a store refused, with a domain error's field
// messages spelled out.
func seedErr(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", what, describe(err))
}

// loadPartners saves what each demo partner shows of itself: network,
// profile, labels, legal information, refund terms, product information and
// marketing widgets.
func (l *demoLoader) loadPartners(ctx context.Context) error {
	for _, d := range demoPartners {
		p := l.partners[d.Key]
		what := func(s string) string { return s + " of " + d.Domain }
		if d.NetworkOf != "" {
			marketplace := l.partners[d.NetworkOf].ID
			if err := l.catalog.AddNetworkPartner(ctx, marketplace, p.ID); err != nil {
				return seedErr(what("network membership"), err)
			}
			if err := l.gifts.AddNetworkGiftcardAllowedPartner(ctx, marketplace, p.ID); err != nil {
				return seedErr(what("network giftcard acceptance"), err)
			}
			l.tally.add("network partners (they take the network giftcards)", 1)
		}
		profile := d.Profile
		if err := l.catalog.SavePartnerProfile(ctx, p.ID, &profile); err != nil {
			return seedErr(what("profile"), err)
		}
		l.tally.add("partner profiles", 1)
		for _, label := range d.Labels {
			label.PartnerID = p.ID
			if err := l.catalog.AddPartnerLabel(ctx, &label); err != nil {
				return seedErr(what("label "+label.Name), err)
			}
			l.tally.add("partner labels", 1)
		}
		legal := d.Legal
		if err := l.catalog.SaveLegalInformation(ctx, p.ID, &legal); err != nil {
			return seedErr(what("legal information"), err)
		}
		if err := l.catalog.SaveRefundWithdrawalTerms(ctx, p.ID, d.RefundTerms); err != nil {
			return seedErr(what("refund and withdrawal terms"), err)
		}
		l.tally.add("legal information and refund terms", 1)
		if err := l.loadProductInformation(ctx, p, d.Products); err != nil {
			return err
		}
		w := d.Widgets
		w.PartnerID = p.ID
		if err := l.widgetService.CreateWidgets(ctx, &w); err != nil {
			return seedErr(what("marketing widgets"), err)
		}
		l.tally.add("marketing widgets (navbar and floating bar)", 1)
	}
	return nil
}

// loadProductInformation saves the settings of the product lines the
// partner sells; the events line's display_events_per_slots is saved as the
// partner's event settings too.
func (l *demoLoader) loadProductInformation(ctx context.Context, p *domain.Partner, pi demoProductInformation) error {
	saved := 0
	check := func(line string, err error) error {
		saved++
		return seedErr(line+" product information of "+p.SiteDomain, err)
	}
	if v := pi.Events; v != nil {
		if err := l.events.SaveEventSettings(ctx, p.ID, catalogue.EventSettings{DisplayEventsPerSlots: v.DisplayEventsPerSlots}); err != nil {
			return seedErr("event settings of "+p.SiteDomain, err)
		}
		l.tally.add("event settings", 1)
		if err := check("events", l.catalog.SaveEventsProductInformation(ctx, p.ID, v)); err != nil {
			return err
		}
	}
	if v := pi.Giftcards; v != nil {
		if err := check("giftcards", l.catalog.SaveGiftcardsProductInformation(ctx, p.ID, v)); err != nil {
			return err
		}
	}
	if v := pi.NetworkGiftcards; v != nil {
		if err := check("network giftcards", l.catalog.SaveNetworkGiftcardsProductInformation(ctx, p.ID, v)); err != nil {
			return err
		}
	}
	if v := pi.NetworkVouchers; v != nil {
		if err := check("network vouchers", l.catalog.SaveNetworkVouchersProductInformation(ctx, p.ID, v)); err != nil {
			return err
		}
	}
	if v := pi.Vouchers; v != nil {
		if err := check("vouchers", l.catalog.SaveVouchersProductInformation(ctx, p.ID, v)); err != nil {
			return err
		}
	}
	if v := pi.Workshops; v != nil {
		if err := check("workshops", l.catalog.SaveWorkshopsProductInformation(ctx, p.ID, v)); err != nil {
			return err
		}
	}
	l.tally.add("product information lines", saved)
	return nil
}

func (l *demoLoader) loadUniverses(ctx context.Context) error {
	for _, d := range demoUniverses {
		u := &catalogue.Universe{Name: d.Name, Order: &d.Order}
		if d.Parent != "" {
			parent := l.id(d.Parent)
			u.ParentID = &parent
		}
		if err := l.protos.CreateUniverse(ctx, u); err != nil {
			return seedErr("universe "+d.Key, err)
		}
		l.setID(d.Key, u.ID)
		l.tally.add("universes", 1)
	}
	return nil
}

func (l *demoLoader) loadThemes(ctx context.Context) error {
	for _, d := range demoThemes {
		t := &catalogue.Theme{Name: d.Name}
		if err := l.protos.CreateTheme(ctx, t); err != nil {
			return seedErr("theme "+d.Key, err)
		}
		l.setID(d.Key, t.ID)
		l.tally.add("themes", 1)
	}
	return nil
}

func (l *demoLoader) loadVoucherPrototypes(ctx context.Context) error {
	for _, d := range demoVoucherPrototypes {
		universe := l.id(d.Universe)
		p := &catalogue.VoucherPrototype{PartnerID: l.partners[d.Partner].ID, Name: d.Name, UniverseID: &universe,
			ThemeIDs: l.idsOf(d.Themes)}
		if err := l.protos.CreateVoucherPrototype(ctx, p); err != nil {
			return seedErr("voucher prototype "+d.Key, err)
		}
		l.setID(d.Key, p.ID)
		l.tally.add("voucher prototypes", 1)
	}
	return nil
}

func (l *demoLoader) loadGiftcardPrototypes(ctx context.Context) error {
	for _, d := range demoGiftcardPrototypes {
		p := d.Prototype
		p.PartnerID = l.partners[d.Partner].ID
		if err := l.protos.CreateGiftcardPrototype(ctx, &p); err != nil {
			return seedErr("giftcard prototype "+d.Key, err)
		}
		l.setID(d.Key, p.ID)
		l.tally.add("giftcard prototypes", 1)
	}
	return nil
}

func (l *demoLoader) loadEvents(ctx context.Context) error {
	for _, d := range demoEvents {
		partner := l.partners[d.Partner]
		e := d.Event
		e.PartnerID = partner.ID
		if err := l.events.CreateEvent(ctx, &e); err != nil {
			return seedErr("event "+d.Event.Name["en"], err)
		}
		l.tally.add("events", 1)
		for _, f := range d.Formulas {
			f.EventID = e.ID
			if err := l.events.AddEventFormula(ctx, &f); err != nil {
				return seedErr("formula of the event "+d.Event.Name["en"], err)
			}
			l.tally.add("event formulas", 1)
		}
		for _, date := range d.Slots {
			start, end, err := date.times(l.now, partner)
			if err != nil {
				return err
			}
			s := &catalogue.EventSlot{EventID: e.ID, StartingAt: start, EndingAt: end, AvailablePlaces: date.Places}
			if err := l.events.AddEventSlot(ctx, s); err != nil {
				return seedErr("slot of the event "+d.Event.Name["en"], err)
			}
			l.tally.add("upcoming event slots", 1)
		}
	}
	return nil
}

func (l *demoLoader) loadWorkshopTags(ctx context.Context) error {
	for _, d := range demoWorkshopTags {
		t := &catalogue.WorkshopTag{Name: d.Name}
		if err := l.workshops.CreateWorkshopTag(ctx, d.Kind, t); err != nil {
			return seedErr(fmt.Sprintf("workshop %s %s", d.Kind, d.Key), err)
		}
		l.setID(d.Key, t.ID)
		l.tally.add("workshop levels, themes, targets, skills and recipes", 1)
	}
	return nil
}

func (l *demoLoader) loadWorkshopCategories(ctx context.Context) error {
	for _, d := range demoWorkshopCategories {
		c := d.Category
		c.PartnerID = l.partners[d.Partner].ID
		if err := l.workshops.CreateWorkshopCategory(ctx, &c); err != nil {
			return seedErr("workshop category "+d.Key, err)
		}
		l.setID(d.Key, c.ID)
		l.tally.add("workshop categories", 1)
	}
	return nil
}

func (l *demoLoader) loadWorkshops(ctx context.Context) error {
	for _, d := range demoWorkshops {
		partner := l.partners[d.Partner]
		w := d.Workshop
		w.PartnerID, w.CategoryID = partner.ID, l.id(d.Category)
		if d.Level != "" {
			level := l.id(d.Level)
			w.LevelID = &level
		}
		w.ThemeIDs, w.TargetIDs, w.SkillIDs, w.RecipeIDs = l.idsOf(d.Themes), l.idsOf(d.Targets), l.idsOf(d.Skills), l.idsOf(d.Recipes)
		if err := l.workshops.CreateWorkshop(ctx, &w); err != nil {
			return seedErr("workshop "+d.Workshop.Name["en"], err)
		}
		l.tally.add("workshops", 1)
		for _, date := range d.Sessions {
			start, end, err := date.times(l.now, partner)
			if err != nil {
				return err
			}
			s := &catalogue.WorkshopSession{WorkshopID: w.ID, StartingAt: start, EndingAt: end,
				MinCapacity: date.MinCapacity, MaxCapacity: date.MaxCapacity, AvailablePlaces: date.Places}
			if err := l.workshops.AddWorkshopSession(ctx, s); err != nil {
				return seedErr("session of the workshop "+d.Workshop.Name["en"], err)
			}
			l.tally.add("upcoming workshop sessions", 1)
		}
	}
	return nil
}

func (l *demoLoader) loadBoxes(ctx context.Context) error {
	for _, d := range demoBoxes {
		b := d.Box
		b.MarketplaceID, b.UniverseIDs = l.partners[d.Marketplace].ID, l.idsOf(d.Universes)
		if err := l.boxes.CreateBox(ctx, &b); err != nil {
			return seedErr("network voucher box "+d.Key, err)
		}
		l.setID(d.Key, b.ID)
		l.tally.add("network voucher boxes", 1)
		for _, o := range d.Offers {
			offer := &catalogue.BoxOffer{BoxID: b.ID, PartnerID: l.partners[o.Partner].ID, Status: o.Status}
			if err := l.boxes.CreateBoxOffer(ctx, offer); err != nil {
				return seedErr("offer of "+o.Partner+" in the box "+d.Key, err)
			}
			l.tally.add("box offers", 1)
		}
	}
	return nil
}

func (l *demoLoader) loadGifts(ctx context.Context) error {
	for _, d := range demoGifts {
		bought := l.now.AddDate(0, 0, -d.BoughtDaysAgo)
		expires := bought.AddDate(0, d.ValidMonths, 0)
		var err error
		switch d.Kind {
		case gifts.GiftKindVoucher:
			err = l.gifts.CreateVoucher(ctx, &gifts.Voucher{Code: d.Code, VoucherPrototypeID: l.id(d.Of),
				State: d.State, TotalPrice: d.Value, CreationDate: bought, ExpirationDate: &expires,
				GifterFirstName: d.Gifter[0], GifterLastName: d.Gifter[1],
				GifteeFirstName: d.Giftee[0], GifteeLastName: d.Giftee[1]})
		case gifts.GiftKindGiftcard:
			err = l.gifts.CreateGiftcard(ctx, &gifts.Giftcard{Code: d.Code, GiftcardPrototypeID: l.id(d.Of),
				Status: d.State, Value: d.Value, RemainingValue: d.Remaining, CreatedOn: bought, ExpiresOn: &expires})
		case gifts.GiftKindNetworkGiftcard:
			err = l.gifts.CreateNetworkGiftcard(ctx, &gifts.NetworkGiftcard{Code: d.Code,
				MarketplaceID: l.partners[d.Of].ID, Status: d.State, Value: d.Value, RemainingValue: d.Remaining,
				CreationDate: bought, ActivationDate: &bought, ExpirationDate: &expires})
		case gifts.GiftKindNetworkVoucher:
			err = l.gifts.CreateNetworkVoucher(ctx, &gifts.NetworkVoucher{Code: d.Code, BoxID: l.id(d.Of),
				Status: d.State, MaxUsages: d.MaxUsages, UsageCount: d.UsageCount, CreationDate: bought,
				ExpirationDate: &expires})
		default:
			err = fmt.Errorf("unknown kind %q", d.Kind)
		}
		if err != nil {
			return seedErr("gift "+d.Code, err)
		}
		l.tally.add("gift codes", 1)
	}
	return nil
}

// The demo dataset. Every text is given in the eight languages of the
// service; records refer to each other by key.

// demoPartner is a demo account and what its partner shows of itself.
type demoPartner struct {
	Key                       string // how the other tables name the partner
	Username, Password, Email string
	Name, Domain              string
	Marketplace               bool
	// NetworkOf is the key of the marketplace whose network the partner is
	// in (and whose network giftcards it takes); "" for none.
	NetworkOf   string
	Profile     catalogue.PartnerProfile
	Labels      []catalogue.PartnerLabel
	Legal       catalogue.LegalInformation
	RefundTerms domain.Localized
	Products    demoProductInformation
	Widgets     widgets.MarketingWidgets // with a fixed key, so that its URL can be shown
}

// demoProductInformation are a partner's settings of the product lines it
// sells; nil for the others.
type demoProductInformation struct {
	Events           *catalogue.EventsProductInformation
	Giftcards        *catalogue.GiftcardsProductInformation
	NetworkGiftcards *catalogue.NetworkGiftcardsProductInformation
	NetworkVouchers  *catalogue.NetworkVouchersProductInformation
	Vouchers         *catalogue.VouchersProductInformation
	Workshops        *catalogue.WorkshopsProductInformation
}

type demoUniverse struct {
	Key, Parent string // Parent "" for a root
	Order       int
	Name        domain.Localized
}

type demoTheme struct {
	Key  string
	Name domain.Localized
}

type demoVoucherPrototype struct {
	Key, Partner, Universe string
	Themes                 []string
	Name                   domain.Localized
}

type demoGiftcardPrototype struct {
	Key, Partner string
	Prototype    catalogue.GiftcardPrototype
}

type demoEvent struct {
	Partner  string
	Event    catalogue.Event
	Formulas []catalogue.EventFormula
	Slots    []demoDate
}

type demoWorkshopTag struct {
	Key  string
	Kind catalogue.WorkshopTagKind
	Name domain.Localized
}

type demoWorkshopCategory struct {
	Key, Partner string
	Category     catalogue.WorkshopCategory
}

type demoWorkshop struct {
	Partner, Category, Level         string
	Themes, Targets, Skills, Recipes []string
	Workshop                         catalogue.Workshop
	Sessions                         []demoDate
}

type demoBox struct {
	Key, Marketplace string
	Universes        []string
	Offers           []demoOffer
	Box              catalogue.Box
}

type demoOffer struct {
	Partner, Status string
}

// demoDate is an event slot or a workshop session: InDays days after the
// day of the run, at At o'clock in the partner's time zone.
type demoDate struct {
	InDays                   int
	At                       string // "15:04"
	Length                   time.Duration
	Places                   int // left to sell
	MinCapacity, MaxCapacity int // sessions only
}

func (d demoDate) times(now time.Time, p *domain.Partner) (start, end time.Time, err error) {
	loc, err := time.LoadLocation(p.TimeZone)
	if err != nil {
		return start, end, fmt.Errorf("time zone of %s: %w", p.SiteDomain, err)
	}
	clock, err := time.Parse("15:04", d.At)
	if err != nil {
		return start, end, fmt.Errorf("demo dataset: time %q: %w", d.At, err)
	}
	today := now.In(loc)
	start = time.Date(today.Year(), today.Month(), today.Day()+d.InDays, clock.Hour(), clock.Minute(), 0, 0, loc)
	return start, start.Add(d.Length), nil
}

// demoGift is a sold gift of any kind with a fixed code.
type demoGift struct {
	Code string
	Kind gifts.GiftKind
	// Of is the key of the voucher prototype, giftcard prototype or box the
	// gift is of; of the marketplace that sells a network giftcard.
	Of    string
	State string // the voucher's state or the other kinds' status
	// Value is a voucher's total price or a giftcard's value; Remaining what
	// is left of a giftcard.
	Value, Remaining      decimal.Decimal
	MaxUsages, UsageCount int // network vouchers
	BoughtDaysAgo         int
	ValidMonths           int       // from the purchase
	Gifter, Giftee        [2]string // vouchers: first and last names
}

// demoSeller is the partner that sells the gift: its prototype's partner,
// or the marketplace for network gifts.
func demoSeller(g demoGift) *demoPartner {
	seller := g.Of
	switch g.Kind {
	case gifts.GiftKindVoucher:
		for _, p := range demoVoucherPrototypes {
			if p.Key == g.Of {
				seller = p.Partner
			}
		}
	case gifts.GiftKindGiftcard:
		for _, p := range demoGiftcardPrototypes {
			if p.Key == g.Of {
				seller = p.Partner
			}
		}
	case gifts.GiftKindNetworkVoucher:
		for _, b := range demoBoxes {
			if b.Key == g.Of {
				seller = b.Marketplace
			}
		}
	}
	for i := range demoPartners {
		if demoPartners[i].Key == seller {
			return &demoPartners[i]
		}
	}
	panic(fmt.Sprintf("demo dataset: gift %s: no seller", g.Code))
}

func demoDec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func demoDecPtr(s string) *decimal.Decimal {
	d := demoDec(s)
	return &d
}

// demoTermsURLs are a site's terms of sale, one page per language.
func demoTermsURLs(site string) map[string]string {
	urls := make(map[string]string, len(domain.Languages))
	for _, lang := range domain.Languages {
		urls[lang] = site + "/" + lang + "/conditions/"
	}
	return urls
}

// Texts that several records share.
var (
	demoGiftcardTerms = domain.Localized{
		"fr": "Valable 12 mois à compter de l'achat, utilisable en plusieurs fois.",
		"en": "Valid for 12 months from purchase, can be spent in several goes.",
		"es": "Válida 12 meses desde la compra, utilizable en varias veces.",
		"it": "Valida 12 mesi dall'acquisto, utilizzabile in più volte.",
		"de": "12 Monate ab Kauf gültig, in mehreren Teilbeträgen einlösbar.",
		"nl": "12 maanden geldig vanaf aankoop, in meerdere keren te besteden.",
		"ca": "Vàlida 12 mesos des de la compra, utilitzable en diverses vegades.",
		"pt": "Válido 12 meses a partir da compra, utilizável em várias vezes.",
	}
	demoVoucherDelivery = domain.Localized{
		"fr": "Le bon est envoyé par e-mail et reste valable 12 mois.",
		"en": "The voucher is sent by email and is valid for 12 months.",
		"es": "El bono se envía por correo electrónico y es válido 12 meses.",
		"it": "Il buono viene inviato via e-mail ed è valido 12 mesi.",
		"de": "Der Gutschein wird per E-Mail verschickt und ist 12 Monate gültig.",
		"nl": "De bon wordt per e-mail verstuurd en is 12 maanden geldig.",
		"ca": "El val s'envia per correu electrònic i és vàlid 12 mesos.",
		"pt": "O vale é enviado por e-mail e é válido durante 12 meses.",
	}
	demoChateauBooking = domain.Localized{
		"fr": "Présentez votre billet à l'accueil 15 minutes avant le début. Billets échangeables jusqu'à 48 h avant.",
		"en": "Show your ticket at reception 15 minutes before the start. Tickets can be exchanged up to 48 hours before.",
		"es": "Presenta tu entrada en la recepción 15 minutos antes del inicio. Las entradas pueden cambiarse hasta 48 horas antes.",
		"it": "Presenta il biglietto all'accoglienza 15 minuti prima dell'inizio. I biglietti possono essere cambiati fino a 48 ore prima.",
		"de": "Zeigen Sie Ihr Ticket 15 Minuten vor Beginn am Empfang vor. Tickets können bis 48 Stunden vorher umgetauscht werden.",
		"nl": "Toon je ticket 15 minuten voor aanvang aan de balie. Tickets kunnen tot 48 uur vooraf worden omgeruild.",
		"ca": "Presenta l'entrada a la recepció 15 minuts abans de l'inici. Les entrades es poden canviar fins a 48 hores abans.",
		"pt": "Apresente o seu bilhete na receção 15 minutos antes do início. Os bilhetes podem ser trocados até 48 horas antes.",
	}
	demoAtelierBooking = domain.Localized{
		"fr": "Report gratuit jusqu'à 72 h avant la séance. Prévoyez des vêtements qui ne craignent pas la terre.",
		"en": "Free rescheduling up to 72 hours before the session. Wear clothes you don't mind getting clay on.",
		"es": "Cambio de fecha gratuito hasta 72 horas antes de la sesión. Lleva ropa que pueda mancharse de barro.",
		"it": "Spostamento gratuito fino a 72 ore prima della sessione. Indossa abiti che possano sporcarsi di argilla.",
		"de": "Kostenlose Umbuchung bis 72 Stunden vor dem Termin. Tragen Sie Kleidung, die schmutzig werden darf.",
		"nl": "Gratis omboeken tot 72 uur voor de sessie. Draag kleding die vuil mag worden.",
		"ca": "Canvi de data gratuït fins a 72 hores abans de la sessió. Porta roba que es pugui embrutar de fang.",
		"pt": "Reagendamento gratuito até 72 horas antes da sessão. Use roupa que se possa sujar de barro.",
	}
	demoChateauGiftcardTitle = domain.Localized{
		"fr": "Carte cadeau du Château",
		"en": "Château gift card",
		"es": "Tarjeta regalo del castillo",
		"it": "Carta regalo del castello",
		"de": "Geschenkkarte des Schlosses",
		"nl": "Cadeaukaart van het kasteel",
		"ca": "Targeta regal del castell",
		"pt": "Cartão-oferta do castelo",
	}
	demoChateauGiftcardDescription = domain.Localized{
		"fr": "À dépenser en visites, dégustations, concerts et à la boutique du château.",
		"en": "To spend on tours, tastings, concerts and in the château shop.",
		"es": "Para gastar en visitas, catas, conciertos y en la tienda del castillo.",
		"it": "Da spendere in visite, degustazioni, concerti e nel negozio del castello.",
		"de": "Einzulösen für Führungen, Weinproben, Konzerte und im Schlossladen.",
		"nl": "Te besteden aan rondleidingen, proeverijen, concerten en in de kasteelwinkel.",
		"ca": "Per gastar en visites, tasts, concerts i a la botiga del castell.",
		"pt": "Para gastar em visitas, provas, concertos e na loja do castelo.",
	}
	demoAtelierGiftcardTitle = domain.Localized{
		"fr": "Carte cadeau de l'Atelier",
		"en": "Studio gift card",
		"es": "Tarjeta regalo del taller",
		"it": "Carta regalo del laboratorio",
		"de": "Geschenkkarte der Werkstatt",
		"nl": "Cadeaukaart van het atelier",
		"ca": "Targeta regal del taller",
		"pt": "Cartão-oferta da oficina",
	}
	demoAtelierGiftcardDescription = domain.Localized{
		"fr": "Pour un atelier, un stage ou une pièce choisie à la boutique.",
		"en": "For a workshop, a course or a piece chosen in the shop.",
		"es": "Para un taller, un curso o una pieza elegida en la tienda.",
		"it": "Per un laboratorio, un corso o un pezzo scelto in negozio.",
		"de": "Für einen Kurs, einen Workshop oder ein Stück aus dem Laden.",
		"nl": "Voor een workshop, een cursus of een stuk uit de winkel.",
		"ca": "Per a un taller, un curs o una peça triada a la botiga.",
		"pt": "Para uma oficina, um curso ou uma peça escolhida na loja.",
	}
)

// demoValidityMonths is the validity_period_unit of 12-month validities.
// The contract does not document the unit codes; this assumes the order of
// the giftcard prototypes' units (day, week, month, year).
const demoValidityMonths = 2

// demoPartners are the demo accounts; the marketplace comes first (its
// widgets mark the catalogue as loaded).
var demoPartners = []demoPartner{
	{
		Key: "market", Username: "demo-market", Password: "market-demo-password", Email: "bonjour@market.localhost",
		Name: "Marché des Loisirs", Domain: "market.localhost", Marketplace: true,
		Profile: catalogue.PartnerProfile{
			Description: domain.Localized{
				"fr": "Marché des Loisirs réunit des lieux de patrimoine et des artisans d'art pour offrir des expériences uniques partout en France.",
				"en": "Marché des Loisirs brings together heritage sites and craft studios to offer unique experiences all over France.",
				"es": "Marché des Loisirs reúne lugares de patrimonio y talleres artesanos para regalar experiencias únicas en toda Francia.",
				"it": "Marché des Loisirs riunisce luoghi storici e botteghe artigiane per regalare esperienze uniche in tutta la Francia.",
				"de": "Marché des Loisirs vereint Kulturerbestätten und Kunsthandwerker, um in ganz Frankreich einzigartige Erlebnisse zu verschenken.",
				"nl": "Marché des Loisirs brengt erfgoedlocaties en ambachtelijke ateliers samen om overal in Frankrijk unieke belevenissen cadeau te doen.",
				"ca": "Marché des Loisirs reuneix llocs de patrimoni i tallers artesans per regalar experiències úniques arreu de França.",
				"pt": "O Marché des Loisirs reúne locais de património e oficinas artesanais para oferecer experiências únicas em toda a França.",
			},
			Managers: domain.Localized{
				"fr": "Claire Dubois et Karim Benali",
				"en": "Claire Dubois and Karim Benali",
				"es": "Claire Dubois y Karim Benali",
				"it": "Claire Dubois e Karim Benali",
				"de": "Claire Dubois und Karim Benali",
				"nl": "Claire Dubois en Karim Benali",
				"ca": "Claire Dubois i Karim Benali",
				"pt": "Claire Dubois e Karim Benali",
			},
			Nearby: domain.Localized{
				"fr": "À deux pas du canal Saint-Martin.",
				"en": "A stone's throw from the Canal Saint-Martin.",
				"es": "A dos pasos del canal Saint-Martin.",
				"it": "A due passi dal canale Saint-Martin.",
				"de": "Nur wenige Schritte vom Canal Saint-Martin entfernt.",
				"nl": "Op een steenworp van het Canal Saint-Martin.",
				"ca": "A tocar del canal Saint-Martin.",
				"pt": "A dois passos do canal Saint-Martin.",
			},
			PracticalInformation: domain.Localized{
				"fr": "Service client du lundi au vendredi, de 9 h à 18 h.",
				"en": "Customer service Monday to Friday, 9 am to 6 pm.",
				"es": "Atención al cliente de lunes a viernes, de 9 a 18 h.",
				"it": "Servizio clienti dal lunedì al venerdì, dalle 9 alle 18.",
				"de": "Kundenservice Montag bis Freitag, 9 bis 18 Uhr.",
				"nl": "Klantenservice van maandag tot en met vrijdag, van 9 tot 18 uur.",
				"ca": "Atenció al client de dilluns a divendres, de 9 a 18 h.",
				"pt": "Apoio ao cliente de segunda a sexta-feira, das 9h às 18h.",
			},
			Access: domain.Localized{
				"fr": "Métro République (lignes 3, 5, 8, 9 et 11).",
				"en": "République metro station (lines 3, 5, 8, 9 and 11).",
				"es": "Metro République (líneas 3, 5, 8, 9 y 11).",
				"it": "Metro République (linee 3, 5, 8, 9 e 11).",
				"de": "Metro République (Linien 3, 5, 8, 9 und 11).",
				"nl": "Metrostation République (lijnen 3, 5, 8, 9 en 11).",
				"ca": "Metro République (línies 3, 5, 8, 9 i 11).",
				"pt": "Metro République (linhas 3, 5, 8, 9 e 11).",
			},
			CommercialDescription: domain.Localized{
				"fr": "Des cartes et coffrets cadeaux à utiliser chez tous nos partenaires.",
				"en": "Gift cards and gift boxes to use at all our partners.",
				"es": "Tarjetas y cofres regalo para usar en todos nuestros socios.",
				"it": "Carte e cofanetti regalo da utilizzare presso tutti i nostri partner.",
				"de": "Geschenkkarten und Erlebnisboxen, einlösbar bei all unseren Partnern.",
				"nl": "Cadeaukaarten en belevenisboxen, te gebruiken bij al onze partners.",
				"ca": "Targetes i caixes regal per fer servir a tots els nostres socis.",
				"pt": "Cartões-oferta e caixas de experiências para usar em todos os nossos parceiros.",
			},
			Region: "Île-de-France", Department: "Paris", City: "Paris",
			Latitude: demoDecPtr("48.867300"), Longitude: demoDecPtr("2.363600"),
			Facilities:  catalogue.PartnerFacilities{DisabledAccess: true, Wifi: true},
			SocialLinks: map[string]string{"instagram": "https://instagram.example/marchedesloisirs", "facebook": "https://facebook.example/marchedesloisirs"},
		},
		Labels: []catalogue.PartnerLabel{{Name: "Qualité Tourisme", LogoURL: "https://cdn.example.com/demo/labels/qualite-tourisme.png"}},
		Legal: catalogue.LegalInformation{
			AgencyName: "Marché des Loisirs", AddressLine1: "48 rue de Lancry", PostalCode: "75010", City: "Paris", Country: "France",
			CompanyType: "SAS", HQPhoneNumber: "+33 1 99 00 12 34", AgencyPhone: "+33 1 99 00 12 35",
			AgencyWebsite: "https://market.localhost/", LegalNoticeEmail: "legal@market.localhost",
			LegalForm: "Société par actions simplifiée", CapitalStock: demoDec("50000.00"),
			LegalFirstName: "Claire", LegalLastName: "Dubois",
			SIRETNumber: "90000000100011", VATID: "FR00900000001", RCS: "RCS Paris B 900 000 001",
		},
		RefundTerms: domain.Localized{
			"fr": "Vous disposez de 14 jours après l'achat pour vous rétracter et être remboursé, tant que la carte ou le coffret n'a pas été utilisé.",
			"en": "You have 14 days after purchase to withdraw and be refunded, as long as the card or box has not been used.",
			"es": "Dispones de 14 días tras la compra para desistir y obtener el reembolso, siempre que la tarjeta o el cofre no se haya utilizado.",
			"it": "Hai 14 giorni dall'acquisto per recedere ed essere rimborsato, purché la carta o il cofanetto non sia stato utilizzato.",
			"de": "Sie können innerhalb von 14 Tagen nach dem Kauf widerrufen und erhalten den Betrag erstattet, sofern die Karte oder Box nicht verwendet wurde.",
			"nl": "Je hebt 14 dagen na aankoop om je aankoop te herroepen en terugbetaald te worden, zolang de kaart of box niet is gebruikt.",
			"ca": "Disposes de 14 dies després de la compra per desistir i obtenir el reemborsament, sempre que la targeta o la caixa no s'hagi utilitzat.",
			"pt": "Dispõe de 14 dias após a compra para exercer o direito de livre resolução e ser reembolsado, desde que o cartão ou a caixa não tenham sido utilizados.",
		},
		Products: demoProductInformation{
			Giftcards: &catalogue.GiftcardsProductInformation{
				Title: domain.Localized{
					"fr": "Cartes cadeaux de nos partenaires",
					"en": "Our partners' gift cards",
					"es": "Tarjetas regalo de nuestros socios",
					"it": "Carte regalo dei nostri partner",
					"de": "Geschenkkarten unserer Partner",
					"nl": "Cadeaukaarten van onze partners",
					"ca": "Targetes regal dels nostres socis",
					"pt": "Cartões-oferta dos nossos parceiros",
				},
				Description: domain.Localized{
					"fr": "Choisissez un lieu et offrez le montant de votre choix.",
					"en": "Choose a place and give the amount of your choice.",
					"es": "Elige un lugar y regala el importe que quieras.",
					"it": "Scegli un luogo e regala l'importo che preferisci.",
					"de": "Wählen Sie einen Ort und verschenken Sie einen Betrag Ihrer Wahl.",
					"nl": "Kies een plek en geef het bedrag van je keuze cadeau.",
					"ca": "Tria un lloc i regala l'import que vulguis.",
					"pt": "Escolha um local e ofereça o valor que preferir.",
				},
			},
			NetworkGiftcards: &catalogue.NetworkGiftcardsProductInformation{
				Title: domain.Localized{
					"fr": "La carte cadeau Marché des Loisirs",
					"en": "The Marché des Loisirs gift card",
					"es": "La tarjeta regalo Marché des Loisirs",
					"it": "La carta regalo Marché des Loisirs",
					"de": "Die Geschenkkarte von Marché des Loisirs",
					"nl": "De cadeaukaart van Marché des Loisirs",
					"ca": "La targeta regal Marché des Loisirs",
					"pt": "O cartão-oferta Marché des Loisirs",
				},
				Description: domain.Localized{
					"fr": "Une seule carte, acceptée par tous les partenaires du réseau.",
					"en": "One card, accepted by every partner in the network.",
					"es": "Una sola tarjeta, aceptada por todos los socios de la red.",
					"it": "Una sola carta, accettata da tutti i partner della rete.",
					"de": "Eine Karte, die alle Partner des Netzwerks annehmen.",
					"nl": "Eén kaart, aanvaard door alle partners van het netwerk.",
					"ca": "Una sola targeta, acceptada per tots els socis de la xarxa.",
					"pt": "Um único cartão, aceite por todos os parceiros da rede.",
				},
				Giftcard: catalogue.NetworkGiftcardSettings{
					Title: domain.Localized{
						"fr": "Carte cadeau multi-partenaires",
						"en": "Multi-partner gift card",
						"es": "Tarjeta regalo multisocio",
						"it": "Carta regalo multipartner",
						"de": "Partnerübergreifende Geschenkkarte",
						"nl": "Cadeaukaart voor alle partners",
						"ca": "Targeta regal multisoci",
						"pt": "Cartão-oferta multiparceiros",
					},
					Description: domain.Localized{
						"fr": "Le bénéficiaire la dépense en une ou plusieurs fois, au château comme à l'atelier.",
						"en": "The recipient spends it in one or several goes, at the château as well as at the studio.",
						"es": "El beneficiario la gasta en una o varias veces, tanto en el castillo como en el taller.",
						"it": "Il beneficiario la spende in una o più volte, al castello come al laboratorio.",
						"de": "Die beschenkte Person löst sie auf einmal oder in Teilbeträgen ein, im Schloss wie in der Werkstatt.",
						"nl": "De ontvanger besteedt hem in één of meer keren, zowel in het kasteel als in het atelier.",
						"ca": "El beneficiari la gasta en una o diverses vegades, tant al castell com al taller.",
						"pt": "O beneficiário utiliza-o de uma ou várias vezes, tanto no castelo como na oficina.",
					},
					TermsOfUse:       demoGiftcardTerms,
					CustomizedAmount: true, MinimumAmount: demoDec("20.00"),
					PredefinedAmounts: []decimal.Decimal{demoDec("50.00"), demoDec("100.00"), demoDec("150.00")},
					ValidityPeriod:    12, ValidityUnit: catalogue.ValidityMonth,
				},
				MoneyPot: catalogue.NetworkGiftcardMoneyPot{
					Activated: true, Logo: "https://cdn.example.com/demo/market/money-pot.png",
					Title: domain.Localized{
						"fr": "Cagnotte cadeau",
						"en": "Group gift",
						"es": "Regalo en grupo",
						"it": "Regalo di gruppo",
						"de": "Gemeinschaftsgeschenk",
						"nl": "Groepscadeau",
						"ca": "Regal en grup",
						"pt": "Presente de grupo",
					},
					Description: domain.Localized{
						"fr": "Invitez vos proches à participer : la somme réunie devient une carte cadeau.",
						"en": "Invite friends and family to chip in: the amount collected becomes a gift card.",
						"es": "Invita a tus allegados a participar: la suma reunida se convierte en una tarjeta regalo.",
						"it": "Invita amici e parenti a partecipare: la somma raccolta diventa una carta regalo.",
						"de": "Laden Sie Familie und Freunde ein, sich zu beteiligen: Der gesammelte Betrag wird zur Geschenkkarte.",
						"nl": "Nodig familie en vrienden uit om bij te dragen: het ingezamelde bedrag wordt een cadeaukaart.",
						"ca": "Convida els teus a participar: la suma reunida es converteix en una targeta regal.",
						"pt": "Convide amigos e familiares a participar: o valor reunido torna-se um cartão-oferta.",
					},
				},
			},
			NetworkVouchers: &catalogue.NetworkVouchersProductInformation{
				Title: domain.Localized{
					"fr": "Coffrets cadeaux",
					"en": "Gift boxes",
					"es": "Cofres regalo",
					"it": "Cofanetti regalo",
					"de": "Erlebnisboxen",
					"nl": "Belevenisboxen",
					"ca": "Caixes regal",
					"pt": "Caixas de experiências",
				},
				Description: domain.Localized{
					"fr": "Des expériences à offrir, à vivre chez nos partenaires.",
					"en": "Experiences to give, to enjoy at our partners.",
					"es": "Experiencias para regalar y disfrutar en nuestros socios.",
					"it": "Esperienze da regalare, da vivere presso i nostri partner.",
					"de": "Erlebnisse zum Verschenken, einzulösen bei unseren Partnern.",
					"nl": "Belevenissen om cadeau te doen, te beleven bij onze partners.",
					"ca": "Experiències per regalar i viure als nostres socis.",
					"pt": "Experiências para oferecer e viver nos nossos parceiros.",
				},
				TermsOfUse: domain.Localized{
					"fr": "Un coffret donne droit à une expérience chez l'un des partenaires qui le proposent, dans les 12 mois suivant l'achat.",
					"en": "A box entitles the recipient to one experience at one of the partners offering it, within 12 months of purchase.",
					"es": "Un cofre da derecho a una experiencia en uno de los socios que lo ofrecen, en los 12 meses siguientes a la compra.",
					"it": "Un cofanetto dà diritto a un'esperienza presso uno dei partner che lo propongono, entro 12 mesi dall'acquisto.",
					"de": "Eine Box berechtigt zu einem Erlebnis bei einem der teilnehmenden Partner, innerhalb von 12 Monaten nach dem Kauf.",
					"nl": "Een box geeft recht op één belevenis bij een van de deelnemende partners, binnen 12 maanden na aankoop.",
					"ca": "Una caixa dona dret a una experiència en un dels socis que l'ofereixen, durant els 12 mesos següents a la compra.",
					"pt": "Uma caixa dá direito a uma experiência num dos parceiros que a propõem, nos 12 meses seguintes à compra.",
				},
				DisplayByUniverse: true, ValidityPeriod: 12, ValidityPeriodUnit: demoValidityMonths,
				DisplayOffersMap: true, ActivatedOfferRegionFilter: true, ActivatedOfferDepartmentFilter: true,
			},
		},
		Widgets: widgets.MarketingWidgets{
			Key: "5eed0000000000000000000000000001",
			Navbar: &widgets.WidgetNavbar{ShowNavbar: true, ShowNavbarOnPurchaseSite: true,
				Orientation: widgets.WidgetOrientationHorizontal, Side: widgets.WidgetSideBottom, Position: 50,
				ActivateOffer: true, ActivateContact: true,
				OfferBackgroundColor: "#1F6F8B", OfferTextColor: "#FFFFFF", OfferHoverColor: "#174F63",
				BookBackgroundColor: "#F2A541", BookTextColor: "#1B1B1B", BookHoverColor: "#D98E2B",
				ContactBackgroundColor: "#FFFFFF", ContactTextColor: "#1F6F8B", ContactHoverColor: "#E8F1F4",
				OfferBoxURL: "https://market.localhost/coffrets/", ContactBoxURL: "https://market.localhost/contact/",
				OfferText: "Offrir un coffret", ContactText: "Nous contacter"},
			FloatingBar: &widgets.WidgetFloatingBar{ShowFloatingBar: true, Orientation: widgets.WidgetSideTop,
				BackgroundColor: "#1F6F8B", BorderColor: "#174F63", TextColor: "#FFFFFF",
				Text:          "Nouveau : la carte cadeau acceptée chez tous nos partenaires",
				CTAButtonText: "Découvrir", CTAButtonLink: "https://market.localhost/carte-cadeau/",
				CTAButtonColor: "#F2A541", CTAButtonHoverColor: "#D98E2B", CTAButtonTextColor: "#1B1B1B", CTAButtonTextHoverColor: "#000000"},
		},
	},
	{
		Key: "chateau", Username: "demo-chateau", Password: "chateau-demo-password", Email: "accueil@chateau.localhost",
		Name: "Château de la Loire", Domain: "chateau.localhost", NetworkOf: "market",
		Profile: catalogue.PartnerProfile{
			Description: domain.Localized{
				"fr": "Forteresse médiévale devenue résidence royale à la Renaissance, le château domine la Loire et ses vignobles.",
				"en": "A medieval fortress turned royal residence in the Renaissance, the château overlooks the Loire and its vineyards.",
				"es": "Fortaleza medieval convertida en residencia real en el Renacimiento, el castillo domina el Loira y sus viñedos.",
				"it": "Fortezza medievale divenuta residenza reale nel Rinascimento, il castello domina la Loira e i suoi vigneti.",
				"de": "Die mittelalterliche Festung, in der Renaissance zur königlichen Residenz geworden, thront über der Loire und ihren Weinbergen.",
				"nl": "Dit middeleeuwse fort, in de renaissance een koninklijke residentie geworden, kijkt uit over de Loire en haar wijngaarden.",
				"ca": "Fortalesa medieval convertida en residència reial durant el Renaixement, el castell domina el Loira i les seves vinyes.",
				"pt": "Fortaleza medieval transformada em residência real no Renascimento, o castelo domina o Loire e as suas vinhas.",
			},
			Managers: domain.Localized{
				"fr": "La famille de Montclair",
				"en": "The de Montclair family",
				"es": "La familia de Montclair",
				"it": "La famiglia de Montclair",
				"de": "Familie de Montclair",
				"nl": "De familie de Montclair",
				"ca": "La família de Montclair",
				"pt": "A família de Montclair",
			},
			Nearby: domain.Localized{
				"fr": "Le Clos Lucé, les pistes cyclables des bords de Loire et les caves de Vouvray.",
				"en": "The Clos Lucé, the cycle paths along the Loire and the wine cellars of Vouvray.",
				"es": "El Clos Lucé, los carriles bici a orillas del Loira y las bodegas de Vouvray.",
				"it": "Il Clos Lucé, le piste ciclabili lungo la Loira e le cantine di Vouvray.",
				"de": "Das Clos Lucé, die Radwege entlang der Loire und die Weinkeller von Vouvray.",
				"nl": "Het Clos Lucé, de fietspaden langs de Loire en de wijnkelders van Vouvray.",
				"ca": "El Clos Lucé, els carrils bici a la vora del Loira i els cellers de Vouvray.",
				"pt": "O Clos Lucé, as ciclovias nas margens do Loire e as caves de Vouvray.",
			},
			PracticalInformation: domain.Localized{
				"fr": "Ouvert tous les jours de 10 h à 18 h ; dernière entrée une heure avant la fermeture.",
				"en": "Open daily from 10 am to 6 pm; last entry one hour before closing.",
				"es": "Abierto todos los días de 10 a 18 h; última entrada una hora antes del cierre.",
				"it": "Aperto tutti i giorni dalle 10 alle 18; ultimo ingresso un'ora prima della chiusura.",
				"de": "Täglich von 10 bis 18 Uhr geöffnet; letzter Einlass eine Stunde vor Schließung.",
				"nl": "Dagelijks geopend van 10 tot 18 uur; laatste toegang een uur voor sluiting.",
				"ca": "Obert cada dia de 10 a 18 h; darrera entrada una hora abans del tancament.",
				"pt": "Aberto todos os dias das 10h às 18h; última entrada uma hora antes do fecho.",
			},
			Access: domain.Localized{
				"fr": "À 2 h de Paris par l'A10, sortie Amboise ; la gare d'Amboise est à 15 minutes à pied.",
				"en": "2 hours from Paris on the A10, Amboise exit; Amboise station is a 15-minute walk away.",
				"es": "A 2 horas de París por la A10, salida Amboise; la estación de Amboise está a 15 minutos a pie.",
				"it": "A 2 ore da Parigi sull'A10, uscita Amboise; la stazione di Amboise è a 15 minuti a piedi.",
				"de": "2 Stunden von Paris über die A10, Ausfahrt Amboise; der Bahnhof Amboise liegt 15 Gehminuten entfernt.",
				"nl": "2 uur van Parijs via de A10, afrit Amboise; station Amboise ligt op 15 minuten lopen.",
				"ca": "A 2 hores de París per l'A10, sortida Amboise; l'estació d'Amboise és a 15 minuts a peu.",
				"pt": "A 2 horas de Paris pela A10, saída Amboise; a estação de Amboise fica a 15 minutos a pé.",
			},
			CommercialDescription: domain.Localized{
				"fr": "Offrez une visite aux chandelles, une dégustation dans nos caves ou un concert dans la grande galerie.",
				"en": "Give a candlelight tour, a tasting in our cellars or a concert in the great gallery.",
				"es": "Regala una visita a la luz de las velas, una cata en nuestras bodegas o un concierto en la gran galería.",
				"it": "Regala una visita a lume di candela, una degustazione nelle nostre cantine o un concerto nella grande galleria.",
				"de": "Verschenken Sie eine Führung bei Kerzenschein, eine Weinprobe in unseren Kellern oder ein Konzert in der großen Galerie.",
				"nl": "Geef een rondleiding bij kaarslicht, een proeverij in onze kelders of een concert in de grote galerij cadeau.",
				"ca": "Regala una visita a la llum de les espelmes, un tast als nostres cellers o un concert a la gran galeria.",
				"pt": "Ofereça uma visita à luz das velas, uma prova nas nossas caves ou um concerto na grande galeria.",
			},
			Region: "Centre-Val de Loire", Department: "Indre-et-Loire", City: "Amboise",
			Latitude: demoDecPtr("47.413200"), Longitude: demoDecPtr("0.985800"),
			Facilities:  catalogue.PartnerFacilities{PrivateParking: true, Wifi: true, PetsAllowed: true, FamilyFriendly: true},
			SocialLinks: map[string]string{"instagram": "https://instagram.example/chateaudelaloire", "facebook": "https://facebook.example/chateaudelaloire"},
		},
		Labels: []catalogue.PartnerLabel{
			{Name: "Monument historique", LogoURL: "https://cdn.example.com/demo/labels/monument-historique.png"},
			{Name: "Vignobles & Découvertes", LogoURL: "https://cdn.example.com/demo/labels/vignobles-decouvertes.png"},
		},
		Legal: catalogue.LegalInformation{
			AgencyName: "Château de la Loire", AddressLine1: "1 place du Château", AddressLine2: "Service réservations",
			PostalCode: "37400", City: "Amboise", Country: "France",
			CompanyType: "SAS", HQPhoneNumber: "+33 2 61 91 12 34", AgencyPhone: "+33 2 61 91 12 35",
			AgencyWebsite: "https://chateau.localhost/", LegalNoticeEmail: "legal@chateau.localhost",
			LegalForm: "Société par actions simplifiée", CapitalStock: demoDec("250000.00"),
			LegalFirstName: "Henri", LegalLastName: "de Montclair",
			SIRETNumber: "90000000200012", VATID: "FR00900000002", RCS: "RCS Tours B 900 000 002",
		},
		RefundTerms: domain.Localized{
			"fr": "Les billets datés ne sont ni repris ni remboursés, mais peuvent être échangés jusqu'à 48 h avant la date. Les bons cadeaux non datés sont remboursables sous 14 jours après l'achat.",
			"en": "Dated tickets are neither returnable nor refundable, but can be exchanged up to 48 hours before the date. Undated gift vouchers can be refunded within 14 days of purchase.",
			"es": "Las entradas con fecha no se devuelven ni se reembolsan, pero pueden cambiarse hasta 48 horas antes de la fecha. Los bonos regalo sin fecha se reembolsan en un plazo de 14 días tras la compra.",
			"it": "I biglietti datati non sono né restituibili né rimborsabili, ma possono essere cambiati fino a 48 ore prima della data. I buoni regalo senza data sono rimborsabili entro 14 giorni dall'acquisto.",
			"de": "Datierte Tickets werden weder zurückgenommen noch erstattet, können aber bis 48 Stunden vor dem Termin umgetauscht werden. Undatierte Geschenkgutscheine werden innerhalb von 14 Tagen nach dem Kauf erstattet.",
			"nl": "Gedateerde tickets worden niet teruggenomen of terugbetaald, maar kunnen tot 48 uur voor de datum worden omgeruild. Ongedateerde cadeaubonnen worden binnen 14 dagen na aankoop terugbetaald.",
			"ca": "Les entrades amb data no es tornen ni es reemborsen, però es poden canviar fins a 48 hores abans de la data. Els vals regal sense data es reemborsen en un termini de 14 dies després de la compra.",
			"pt": "Os bilhetes com data não são devolvidos nem reembolsados, mas podem ser trocados até 48 horas antes da data. Os vales de oferta sem data são reembolsáveis no prazo de 14 dias após a compra.",
		},
		Products: demoProductInformation{
			Events: &catalogue.EventsProductInformation{
				Title: domain.Localized{
					"fr": "Billetterie du Château",
					"en": "Château tickets",
					"es": "Entradas del castillo",
					"it": "Biglietteria del castello",
					"de": "Tickets für das Schloss",
					"nl": "Tickets voor het kasteel",
					"ca": "Entrades del castell",
					"pt": "Bilheteira do castelo",
				},
				Description: domain.Localized{
					"fr": "Visites aux chandelles, dégustations et concerts : réservez votre date.",
					"en": "Candlelight tours, tastings and concerts: book your date.",
					"es": "Visitas a la luz de las velas, catas y conciertos: reserva tu fecha.",
					"it": "Visite a lume di candela, degustazioni e concerti: prenota la tua data.",
					"de": "Führungen bei Kerzenschein, Weinproben und Konzerte: Buchen Sie Ihren Termin.",
					"nl": "Rondleidingen bij kaarslicht, proeverijen en concerten: boek je datum.",
					"ca": "Visites a la llum de les espelmes, tasts i concerts: reserva la teva data.",
					"pt": "Visitas à luz das velas, provas e concertos: reserve a sua data.",
				},
				TOSURL:                demoTermsURLs("https://chateau.localhost"),
				DisplayEventsPerSlots: true,
			},
			Giftcards: &catalogue.GiftcardsProductInformation{Title: demoChateauGiftcardTitle, Description: demoChateauGiftcardDescription},
			Vouchers: &catalogue.VouchersProductInformation{
				Title: domain.Localized{
					"fr": "Bons cadeaux du Château",
					"en": "Château gift vouchers",
					"es": "Bonos regalo del castillo",
					"it": "Buoni regalo del castello",
					"de": "Geschenkgutscheine des Schlosses",
					"nl": "Cadeaubonnen van het kasteel",
					"ca": "Vals regal del castell",
					"pt": "Vales de oferta do castelo",
				},
				Subtitle: domain.Localized{
					"fr": "Une visite privée ou une dégustation à offrir",
					"en": "A private tour or a tasting to give",
					"es": "Una visita privada o una cata para regalar",
					"it": "Una visita privata o una degustazione da regalare",
					"de": "Eine Privatführung oder Weinprobe zum Verschenken",
					"nl": "Een privérondleiding of proeverij om cadeau te doen",
					"ca": "Una visita privada o un tast per regalar",
					"pt": "Uma visita privada ou uma prova para oferecer",
				},
				ShortDescription:        demoVoucherDelivery,
				ActivatedUniverseFilter: true,
				ActivatedPriceFilter:    true,
				ActivatedThemeFilter:    true,
				ValidityPeriod:          12,
				ValidityPeriodUnit:      demoValidityMonths,
			},
		},
		Widgets: widgets.MarketingWidgets{
			Key: "5eed0000000000000000000000000002",
			Navbar: &widgets.WidgetNavbar{ShowNavbar: true, ShowNavbarOnPurchaseSite: false,
				Orientation: widgets.WidgetOrientationVertical, Side: widgets.WidgetSideRight, Position: 40,
				ActivateOffer: true, ActivateBook: true, ActivateContact: true,
				OfferBackgroundColor: "#7B1E3A", OfferTextColor: "#FFFFFF", OfferHoverColor: "#5C162B",
				BookBackgroundColor: "#C9A227", BookTextColor: "#1B1B1B", BookHoverColor: "#A8871F",
				ContactBackgroundColor: "#F5EFE6", ContactTextColor: "#7B1E3A", ContactHoverColor: "#E9DFD0",
				OfferBoxURL: "https://chateau.localhost/bons-cadeaux/", BookBoxURL: "https://chateau.localhost/evenements/",
				ContactBoxURL: "https://chateau.localhost/contact/",
				OfferText:     "Offrir", BookText: "Réserver", ContactText: "Contact"},
			FloatingBar: &widgets.WidgetFloatingBar{ShowFloatingBar: true, ShowFloatingBarOnPurchaseSite: true,
				Orientation: widgets.WidgetSideBottom, BackgroundColor: "#F5EFE6", BorderColor: "#C9A227", TextColor: "#3B2A20",
				Text:          "Visites aux chandelles : nouvelles dates en ligne",
				CTAButtonText: "Réserver", CTAButtonLink: "https://chateau.localhost/evenements/",
				CTAButtonColor: "#7B1E3A", CTAButtonHoverColor: "#5C162B", CTAButtonTextColor: "#FFFFFF", CTAButtonTextHoverColor: "#F5EFE6"},
		},
	},
	{
		Key: "atelier", Username: "demo-atelier", Password: "atelier-demo-password", Email: "bonjour@atelier.localhost",
		Name: "Atelier Céramique", Domain: "atelier.localhost", NetworkOf: "market",
		Profile: catalogue.PartnerProfile{
			Description: domain.Localized{
				"fr": "Atelier de céramique installé dans une ancienne faïencerie, où la terre est tournée, émaillée et cuite sur place.",
				"en": "A ceramics studio in a former faience factory, where clay is thrown, glazed and fired on site.",
				"es": "Taller de cerámica instalado en una antigua fábrica de loza, donde el barro se tornea, se esmalta y se cuece in situ.",
				"it": "Laboratorio di ceramica in un'antica fabbrica di maioliche, dove l'argilla viene tornita, smaltata e cotta sul posto.",
				"de": "Keramikwerkstatt in einer ehemaligen Fayencemanufaktur, in der Ton vor Ort gedreht, glasiert und gebrannt wird.",
				"nl": "Keramiekatelier in een voormalige aardewerkfabriek, waar klei ter plaatse gedraaid, geglazuurd en gebakken wordt.",
				"ca": "Taller de ceràmica instal·lat en una antiga fàbrica de faiança, on el fang es torneja, s'esmalta i es cou al mateix lloc.",
				"pt": "Oficina de cerâmica instalada numa antiga fábrica de faiança, onde o barro é torneado, vidrado e cozido no local.",
			},
			Managers: domain.Localized{
				"fr": "Maëlle Le Goff, céramiste",
				"en": "Maëlle Le Goff, ceramist",
				"es": "Maëlle Le Goff, ceramista",
				"it": "Maëlle Le Goff, ceramista",
				"de": "Maëlle Le Goff, Keramikerin",
				"nl": "Maëlle Le Goff, keramiste",
				"ca": "Maëlle Le Goff, ceramista",
				"pt": "Maëlle Le Goff, ceramista",
			},
			Nearby: domain.Localized{
				"fr": "La cathédrale Saint-Corentin et le musée de la Faïence, à dix minutes à pied.",
				"en": "Saint-Corentin cathedral and the Faience museum, a ten-minute walk away.",
				"es": "La catedral de Saint-Corentin y el museo de la Loza, a diez minutos a pie.",
				"it": "La cattedrale di Saint-Corentin e il museo della Maiolica, a dieci minuti a piedi.",
				"de": "Die Kathedrale Saint-Corentin und das Fayencemuseum, zehn Gehminuten entfernt.",
				"nl": "De kathedraal Saint-Corentin en het Aardewerkmuseum, op tien minuten lopen.",
				"ca": "La catedral de Saint-Corentin i el museu de la Faiança, a deu minuts a peu.",
				"pt": "A catedral de Saint-Corentin e o museu da Faiança, a dez minutos a pé.",
			},
			PracticalInformation: domain.Localized{
				"fr": "Tabliers et outils fournis ; vos pièces sont cuites et prêtes à retirer trois semaines après l'atelier.",
				"en": "Aprons and tools provided; your pieces are fired and ready to collect three weeks after the workshop.",
				"es": "Se proporcionan delantales y herramientas; tus piezas se cuecen y pueden recogerse tres semanas después del taller.",
				"it": "Grembiuli e attrezzi forniti; i tuoi pezzi vengono cotti e sono pronti per il ritiro tre settimane dopo il laboratorio.",
				"de": "Schürzen und Werkzeug werden gestellt; Ihre Stücke werden gebrannt und können drei Wochen nach dem Kurs abgeholt werden.",
				"nl": "Schorten en gereedschap worden verstrekt; je stukken worden gebakken en kunnen drie weken na de workshop worden opgehaald.",
				"ca": "Es proporcionen davantals i eines; les teves peces es couen i es poden recollir tres setmanes després del taller.",
				"pt": "Aventais e ferramentas incluídos; as suas peças são cozidas e podem ser levantadas três semanas após a oficina.",
			},
			Access: domain.Localized{
				"fr": "Parking gratuit place de la Résistance ; gare de Quimper à 800 m.",
				"en": "Free parking on Place de la Résistance; Quimper station is 800 m away.",
				"es": "Aparcamiento gratuito en la plaza de la Résistance; estación de Quimper a 800 m.",
				"it": "Parcheggio gratuito in place de la Résistance; stazione di Quimper a 800 m.",
				"de": "Kostenlose Parkplätze an der Place de la Résistance; Bahnhof Quimper 800 m entfernt.",
				"nl": "Gratis parkeren op de Place de la Résistance; station Quimper op 800 m.",
				"ca": "Aparcament gratuït a la plaça de la Résistance; estació de Quimper a 800 m.",
				"pt": "Estacionamento gratuito na praça de la Résistance; estação de Quimper a 800 m.",
			},
			CommercialDescription: domain.Localized{
				"fr": "Offrez une initiation au tour, un atelier en famille ou une carte cadeau à utiliser en boutique.",
				"en": "Give a wheel-throwing lesson, a family workshop or a gift card to spend in the shop.",
				"es": "Regala una iniciación al torno, un taller en familia o una tarjeta regalo para usar en la tienda.",
				"it": "Regala un'introduzione al tornio, un laboratorio in famiglia o una carta regalo da spendere in negozio.",
				"de": "Verschenken Sie einen Kurs an der Töpferscheibe, einen Familienkurs oder eine Geschenkkarte für unseren Laden.",
				"nl": "Geef een kennismaking met de draaischijf, een gezinsworkshop of een cadeaukaart voor de winkel cadeau.",
				"ca": "Regala una iniciació al torn, un taller en família o una targeta regal per gastar a la botiga.",
				"pt": "Ofereça uma iniciação à roda de oleiro, uma oficina em família ou um cartão-oferta para usar na loja.",
			},
			Region: "Bretagne", Department: "Finistère", City: "Quimper",
			Latitude: demoDecPtr("47.996000"), Longitude: demoDecPtr("-4.102400"),
			Facilities:  catalogue.PartnerFacilities{DisabledAccess: true, Wifi: true, PetsAllowed: true, FamilyFriendly: true},
			SocialLinks: map[string]string{"instagram": "https://instagram.example/atelierceramique"},
		},
		Labels: []catalogue.PartnerLabel{
			{Name: "Entreprise du Patrimoine Vivant", LogoURL: "https://cdn.example.com/demo/labels/epv.png"},
			{Name: "Ateliers d'Art de France", LogoURL: "https://cdn.example.com/demo/labels/ateliers-art-de-france.png"},
		},
		Legal: catalogue.LegalInformation{
			AgencyName: "Atelier Céramique", AddressLine1: "12 rue de la Faïencerie", PostalCode: "29000", City: "Quimper",
			Country: "France", CompanyType: "SARL", HQPhoneNumber: "+33 2 61 91 56 78", AgencyPhone: "+33 2 61 91 56 78",
			AgencyWebsite: "https://atelier.localhost/", LegalNoticeEmail: "legal@atelier.localhost",
			LegalForm: "Société à responsabilité limitée", CapitalStock: demoDec("8000.00"),
			LegalFirstName: "Maëlle", LegalLastName: "Le Goff",
			SIRETNumber: "90000000300013", VATID: "FR00900000003", RCS: "RCS Quimper B 900 000 003",
		},
		RefundTerms: domain.Localized{
			"fr": "Une séance peut être reportée sans frais jusqu'à 72 h avant son début ; passé ce délai, elle reste due. Les cartes cadeaux sont remboursables sous 14 jours si elles n'ont pas été utilisées.",
			"en": "A session can be moved free of charge up to 72 hours before it starts; after that, it is due. Gift cards can be refunded within 14 days if unused.",
			"es": "Una sesión puede aplazarse sin coste hasta 72 horas antes de su inicio; pasado ese plazo, se cobra. Las tarjetas regalo se reembolsan en 14 días si no se han utilizado.",
			"it": "Una sessione può essere spostata gratuitamente fino a 72 ore prima dell'inizio; oltre tale termine, è dovuta. Le carte regalo sono rimborsabili entro 14 giorni se non utilizzate.",
			"de": "Ein Kurs kann bis 72 Stunden vor Beginn kostenlos verschoben werden; danach ist er zu bezahlen. Geschenkkarten werden innerhalb von 14 Tagen erstattet, wenn sie nicht verwendet wurden.",
			"nl": "Een sessie kan tot 72 uur voor aanvang kosteloos worden verplaatst; daarna is ze verschuldigd. Cadeaukaarten worden binnen 14 dagen terugbetaald als ze niet zijn gebruikt.",
			"ca": "Una sessió es pot ajornar sense cost fins a 72 hores abans del seu inici; passat aquest termini, s'ha de pagar. Les targetes regal es reemborsen en 14 dies si no s'han utilitzat.",
			"pt": "Uma sessão pode ser adiada sem custos até 72 horas antes do início; depois desse prazo, é devida. Os cartões-oferta são reembolsáveis no prazo de 14 dias se não tiverem sido utilizados.",
		},
		Products: demoProductInformation{
			Giftcards: &catalogue.GiftcardsProductInformation{Title: demoAtelierGiftcardTitle, Description: demoAtelierGiftcardDescription},
			Vouchers: &catalogue.VouchersProductInformation{
				Title: domain.Localized{
					"fr": "Bons cadeaux de l'Atelier",
					"en": "Studio gift vouchers",
					"es": "Bonos regalo del taller",
					"it": "Buoni regalo del laboratorio",
					"de": "Geschenkgutscheine der Werkstatt",
					"nl": "Cadeaubonnen van het atelier",
					"ca": "Vals regal del taller",
					"pt": "Vales de oferta da oficina",
				},
				Subtitle: domain.Localized{
					"fr": "Un atelier de céramique à offrir",
					"en": "A ceramics workshop to give",
					"es": "Un taller de cerámica para regalar",
					"it": "Un laboratorio di ceramica da regalare",
					"de": "Ein Keramikkurs zum Verschenken",
					"nl": "Een keramiekworkshop om cadeau te doen",
					"ca": "Un taller de ceràmica per regalar",
					"pt": "Uma oficina de cerâmica para oferecer",
				},
				ShortDescription:      demoVoucherDelivery,
				ActivatedThemeFilter:  true,
				ActivatedTargetFilter: true,
				ValidityPeriod:        12,
				ValidityPeriodUnit:    demoValidityMonths,
				ActivatedGroupPayment: true,
			},
			Workshops: &catalogue.WorkshopsProductInformation{
				Title: domain.Localized{
					"fr": "Ateliers et stages",
					"en": "Workshops and courses",
					"es": "Talleres y cursos",
					"it": "Laboratori e corsi",
					"de": "Kurse und Workshops",
					"nl": "Workshops en cursussen",
					"ca": "Tallers i cursos",
					"pt": "Oficinas e cursos",
				},
				Description: domain.Localized{
					"fr": "Réservez une séance de tournage ou de modelage, seul ou en famille.",
					"en": "Book a wheel-throwing or hand-building session, on your own or with the family.",
					"es": "Reserva una sesión de torno o de modelado, solo o en familia.",
					"it": "Prenota una sessione di tornio o di modellazione, da solo o in famiglia.",
					"de": "Buchen Sie einen Termin an der Töpferscheibe oder zum Modellieren, allein oder mit der Familie.",
					"nl": "Boek een sessie pottendraaien of boetseren, alleen of met het gezin.",
					"ca": "Reserva una sessió de torn o de modelatge, sol o en família.",
					"pt": "Reserve uma sessão de roda de oleiro ou de modelação, sozinho ou em família.",
				},
				TOSURL:                     demoTermsURLs("https://atelier.localhost"),
				DisplayWorkshopsPerSession: true, DisplayFullyBookedSessions: true,
				ActivatedMonthFilter: true, ActivatedCategoryFilter: true, ActivatedLevelFilter: true,
				ActivatedTargetFilter: true, ActivatedThemeFilter: true,
				MinNbFreePlacesForLabelShown: 2, DisplayPhoneNumber: true, PhoneNumber: "+33 2 61 91 56 78",
				DefaultWorkshopImage: "https://cdn.example.com/demo/atelier/workshop.jpg",
				ValidityPeriod:       12, ValidityPeriodUnit: demoValidityMonths,
			},
		},
		Widgets: widgets.MarketingWidgets{
			Key: "5eed0000000000000000000000000003",
			Navbar: &widgets.WidgetNavbar{ShowNavbar: true, ShowNavbarOnPurchaseSite: true,
				Orientation: widgets.WidgetOrientationVertical, Side: widgets.WidgetSideLeft, Position: 60,
				ActivateOffer: true, ActivateBook: true, ActivateContact: false,
				OfferBackgroundColor: "#C0623B", OfferTextColor: "#FFFFFF", OfferHoverColor: "#9E4E2E",
				BookBackgroundColor: "#3E6B5A", BookTextColor: "#FFFFFF", BookHoverColor: "#2F5345",
				ContactBackgroundColor: "#FAF6F0", ContactTextColor: "#3E6B5A", ContactHoverColor: "#EFE7DA",
				OfferBoxURL: "https://atelier.localhost/bons-cadeaux/", BookBoxURL: "https://atelier.localhost/ateliers/",
				OfferText: "Offrir un atelier", BookText: "Réserver"},
			FloatingBar: &widgets.WidgetFloatingBar{ShowFloatingBar: true, Orientation: widgets.WidgetSideBottom,
				BackgroundColor: "#FAF6F0", BorderColor: "#C0623B", TextColor: "#3B2A20",
				Text:          "Stages d'été : les inscriptions sont ouvertes",
				CTAButtonText: "Je m'inscris", CTAButtonLink: "https://atelier.localhost/ateliers/",
				CTAButtonColor: "#3E6B5A", CTAButtonHoverColor: "#2F5345", CTAButtonTextColor: "#FFFFFF", CTAButtonTextHoverColor: "#FAF6F0"},
		},
	},
}

// demoUniverses is a three-level tree, parents first.
var demoUniverses = []demoUniverse{
	{Key: "culture", Order: 1, Name: domain.Localized{
		"fr": "Culture & patrimoine", "en": "Culture & heritage", "es": "Cultura y patrimonio", "it": "Cultura e patrimonio",
		"de": "Kultur & Kulturerbe", "nl": "Cultuur & erfgoed", "ca": "Cultura i patrimoni", "pt": "Cultura e património",
	}},
	{Key: "monuments", Parent: "culture", Order: 1, Name: domain.Localized{
		"fr": "Monuments", "en": "Monuments", "es": "Monumentos", "it": "Monumenti",
		"de": "Denkmäler", "nl": "Monumenten", "ca": "Monuments", "pt": "Monumentos",
	}},
	{Key: "castle-tours", Parent: "monuments", Order: 1, Name: domain.Localized{
		"fr": "Visites de châteaux", "en": "Château tours", "es": "Visitas a castillos", "it": "Visite ai castelli",
		"de": "Schlossführungen", "nl": "Kasteelbezoeken", "ca": "Visites a castells", "pt": "Visitas a castelos",
	}},
	{Key: "concerts", Parent: "monuments", Order: 2, Name: domain.Localized{
		"fr": "Concerts classiques", "en": "Classical concerts", "es": "Conciertos de música clásica", "it": "Concerti di musica classica",
		"de": "Klassische Konzerte", "nl": "Klassieke concerten", "ca": "Concerts de música clàssica", "pt": "Concertos de música clássica",
	}},
	{Key: "crafts", Parent: "culture", Order: 2, Name: domain.Localized{
		"fr": "Métiers d'art", "en": "Arts and crafts", "es": "Oficios artesanos", "it": "Mestieri d'arte",
		"de": "Kunsthandwerk", "nl": "Kunstambachten", "ca": "Oficis artesans", "pt": "Artes e ofícios",
	}},
	{Key: "ceramics", Parent: "crafts", Order: 1, Name: domain.Localized{
		"fr": "Céramique", "en": "Ceramics", "es": "Cerámica", "it": "Ceramica",
		"de": "Keramik", "nl": "Keramiek", "ca": "Ceràmica", "pt": "Cerâmica",
	}},
	{Key: "food", Order: 2, Name: domain.Localized{
		"fr": "Gastronomie", "en": "Food & drink", "es": "Gastronomía", "it": "Gastronomia",
		"de": "Kulinarik", "nl": "Gastronomie", "ca": "Gastronomia", "pt": "Gastronomia",
	}},
	{Key: "wines", Parent: "food", Order: 1, Name: domain.Localized{
		"fr": "Vins & spiritueux", "en": "Wines & spirits", "es": "Vinos y licores", "it": "Vini e distillati",
		"de": "Weine & Spirituosen", "nl": "Wijnen & gedistilleerd", "ca": "Vins i licors", "pt": "Vinhos e bebidas espirituosas",
	}},
	{Key: "tastings", Parent: "wines", Order: 1, Name: domain.Localized{
		"fr": "Dégustations", "en": "Tastings", "es": "Catas", "it": "Degustazioni",
		"de": "Weinproben", "nl": "Proeverijen", "ca": "Tasts", "pt": "Provas",
	}},
}

var demoThemes = []demoTheme{
	{Key: "couples", Name: domain.Localized{
		"fr": "En amoureux", "en": "For couples", "es": "En pareja", "it": "In coppia",
		"de": "Zu zweit", "nl": "Voor koppels", "ca": "En parella", "pt": "A dois",
	}},
	{Key: "family", Name: domain.Localized{
		"fr": "En famille", "en": "With the family", "es": "En familia", "it": "In famiglia",
		"de": "Mit der Familie", "nl": "Met het gezin", "ca": "En família", "pt": "Em família",
	}},
	{Key: "unusual", Name: domain.Localized{
		"fr": "Insolite", "en": "Unusual", "es": "Insólito", "it": "Insolito",
		"de": "Ungewöhnlich", "nl": "Bijzonder", "ca": "Insòlit", "pt": "Insólito",
	}},
	{Key: "handmade", Name: domain.Localized{
		"fr": "Fait main", "en": "Handmade", "es": "Hecho a mano", "it": "Fatto a mano",
		"de": "Handgemacht", "nl": "Handgemaakt", "ca": "Fet a mà", "pt": "Feito à mão",
	}},
}

var demoVoucherPrototypes = []demoVoucherPrototype{
	{Key: "private-tour", Partner: "chateau", Universe: "castle-tours", Themes: []string{"couples", "unusual"}, Name: domain.Localized{
		"fr": "Visite privée du château pour deux", "en": "Private château tour for two",
		"es": "Visita privada del castillo para dos", "it": "Visita privata del castello per due",
		"de": "Private Schlossführung für zwei", "nl": "Privérondleiding door het kasteel voor twee",
		"ca": "Visita privada del castell per a dos", "pt": "Visita privada ao castelo para dois",
	}},
	{Key: "three-wines", Partner: "chateau", Universe: "tastings", Themes: []string{"couples"}, Name: domain.Localized{
		"fr": "Dégustation de trois crus de Loire", "en": "Tasting of three Loire wines",
		"es": "Cata de tres vinos del Loira", "it": "Degustazione di tre vini della Loira",
		"de": "Verkostung von drei Loire-Weinen", "nl": "Proeverij van drie Loirewijnen",
		"ca": "Tast de tres vins del Loira", "pt": "Prova de três vinhos do Loire",
	}},
	{Key: "throwing-lesson", Partner: "atelier", Universe: "ceramics", Themes: []string{"handmade", "unusual"}, Name: domain.Localized{
		"fr": "Initiation au tournage (2 h)", "en": "Introduction to wheel throwing (2 h)",
		"es": "Iniciación al torno (2 h)", "it": "Introduzione al tornio (2 h)",
		"de": "Einführung an der Töpferscheibe (2 Std.)", "nl": "Kennismaking met pottendraaien (2 u)",
		"ca": "Iniciació al torn (2 h)", "pt": "Iniciação à roda de oleiro (2 h)",
	}},
	{Key: "parent-child", Partner: "atelier", Universe: "ceramics", Themes: []string{"family", "handmade"}, Name: domain.Localized{
		"fr": "Atelier modelage parent-enfant", "en": "Parent and child hand-building workshop",
		"es": "Taller de modelado para padres e hijos", "it": "Laboratorio di modellazione genitore-figlio",
		"de": "Modellierkurs für Eltern und Kinder", "nl": "Boetseerworkshop voor ouder en kind",
		"ca": "Taller de modelatge per a pares i fills", "pt": "Oficina de modelação para pais e filhos",
	}},
}

var demoGiftcardPrototypes = []demoGiftcardPrototype{
	{Key: "chateau-card", Partner: "chateau", Prototype: catalogue.GiftcardPrototype{
		Title: demoChateauGiftcardTitle, Description: demoChateauGiftcardDescription, TermsOfUse: demoGiftcardTerms,
		CustomizedAmount: true, MinimumAmount: demoDec("20.00"),
		PredefinedAmounts: []decimal.Decimal{demoDec("30.00"), demoDec("50.00"), demoDec("100.00"), demoDec("150.00")},
		ValidityPeriod:    12, ValidityUnit: catalogue.ValidityMonth,
	}},
	{Key: "atelier-card", Partner: "atelier", Prototype: catalogue.GiftcardPrototype{
		Title: demoAtelierGiftcardTitle, Description: demoAtelierGiftcardDescription, TermsOfUse: demoGiftcardTerms,
		PredefinedAmounts: []decimal.Decimal{demoDec("25.00"), demoDec("45.00"), demoDec("65.00"), demoDec("90.00")},
		MoneyPotActivated: true, MoneyPotLogo: "https://cdn.example.com/demo/atelier/money-pot.png",
		ValidityPeriod: 1, ValidityUnit: catalogue.ValidityYear,
	}},
}

// demoChateauDelivery: tickets by email, or collected at the château.
var demoChateauDelivery = catalogue.DeliveryOptions{EmailToBuyer: true, EmailToBeneficiary: true,
	PickupOnSite: true, PickupOnSiteDuration: 1}

var demoEvents = []demoEvent{
	{
		Partner: "chateau",
		Event: catalogue.Event{
			Name: domain.Localized{
				"fr": "Visite aux chandelles",
				"en": "Candlelight tour",
				"es": "Visita a la luz de las velas",
				"it": "Visita a lume di candela",
				"de": "Führung bei Kerzenschein",
				"nl": "Rondleiding bij kaarslicht",
				"ca": "Visita a la llum de les espelmes",
				"pt": "Visita à luz das velas",
			},
			ShortDescription: domain.Localized{
				"fr": "Les salles royales éclairées par mille bougies, en compagnie d'un guide en costume d'époque.",
				"en": "The royal rooms lit by a thousand candles, with a guide in period costume.",
				"es": "Las salas reales iluminadas por mil velas, con un guía vestido de época.",
				"it": "Le sale reali illuminate da mille candele, con una guida in costume d'epoca.",
				"de": "Die königlichen Säle im Licht von tausend Kerzen, mit einem Guide in historischem Kostüm.",
				"nl": "De koninklijke zalen verlicht door duizend kaarsen, met een gids in historisch kostuum.",
				"ca": "Les sales reials il·luminades per mil espelmes, amb un guia vestit d'època.",
				"pt": "As salas reais iluminadas por mil velas, com um guia vestido de época.",
			},
			LongDescription: domain.Localized{
				"fr": "Après la fermeture, parcourez les appartements royaux, la chapelle et les remparts à la lueur des bougies. La visite dure 1 h 30 et se termine par un verre de crémant sur la terrasse.",
				"en": "After closing time, walk through the royal apartments, the chapel and the ramparts by candlelight. The tour lasts an hour and a half and ends with a glass of crémant on the terrace.",
				"es": "Tras el cierre, recorre los aposentos reales, la capilla y las murallas a la luz de las velas. La visita dura una hora y media y termina con una copa de crémant en la terraza.",
				"it": "Dopo la chiusura, percorri gli appartamenti reali, la cappella e i bastioni a lume di candela. La visita dura un'ora e mezza e si conclude con un calice di crémant sulla terrazza.",
				"de": "Nach Schließung erkunden Sie die königlichen Gemächer, die Kapelle und die Wehrmauern bei Kerzenschein. Die Führung dauert anderthalb Stunden und endet mit einem Glas Crémant auf der Terrasse.",
				"nl": "Na sluitingstijd wandel je bij kaarslicht door de koninklijke vertrekken, de kapel en over de vestingmuren. De rondleiding duurt anderhalf uur en eindigt met een glas crémant op het terras.",
				"ca": "Després del tancament, recorre els apartaments reials, la capella i les muralles a la llum de les espelmes. La visita dura una hora i mitja i acaba amb una copa de crémant a la terrassa.",
				"pt": "Depois do fecho, percorra os aposentos reais, a capela e as muralhas à luz das velas. A visita dura hora e meia e termina com um copo de crémant no terraço.",
			},
			Booking:         demoChateauBooking,
			CoverImage:      "https://cdn.example.com/demo/chateau/candlelight-cover.jpg",
			Images:          []string{"https://cdn.example.com/demo/chateau/candlelight-1.jpg", "https://cdn.example.com/demo/chateau/candlelight-2.jpg"},
			DeliveryOptions: demoChateauDelivery,
		},
		Formulas: []catalogue.EventFormula{
			{Price: demoDec("24.00"), Name: domain.Localized{
				"fr": "Adulte", "en": "Adult", "es": "Adulto", "it": "Adulto",
				"de": "Erwachsene", "nl": "Volwassene", "ca": "Adult", "pt": "Adulto",
			}},
			{Price: demoDec("12.00"), Name: domain.Localized{
				"fr": "Enfant (6-12 ans)", "en": "Child (6-12)", "es": "Niño (6-12 años)", "it": "Bambino (6-12 anni)",
				"de": "Kind (6-12 Jahre)", "nl": "Kind (6-12 jaar)", "ca": "Infant (6-12 anys)", "pt": "Criança (6-12 anos)",
			}},
		},
		Slots: []demoDate{
			{InDays: 3, At: "21:00", Length: 90 * time.Minute, Places: 30},
			{InDays: 4, At: "21:00", Length: 90 * time.Minute, Places: 0}, // sold out
			{InDays: 10, At: "21:00", Length: 90 * time.Minute, Places: 30},
			{InDays: 17, At: "21:00", Length: 90 * time.Minute, Places: 30},
		},
	},
	{
		Partner: "chateau",
		Event: catalogue.Event{
			Name: domain.Localized{
				"fr": "Dégustation dans les caves troglodytes",
				"en": "Tasting in the cave cellars",
				"es": "Cata en las bodegas trogloditas",
				"it": "Degustazione nelle cantine troglodite",
				"de": "Weinprobe in den Höhlenkellern",
				"nl": "Proeverij in de grotkelders",
				"ca": "Tast als cellers troglodites",
				"pt": "Prova nas caves trogloditas",
			},
			ShortDescription: domain.Localized{
				"fr": "Cinq vins de Loire commentés par notre maître de chai, avec des fromages de chèvre de Touraine.",
				"en": "Five Loire wines presented by our cellar master, with Touraine goat's cheeses.",
				"es": "Cinco vinos del Loira comentados por nuestro maestro bodeguero, con quesos de cabra de Turena.",
				"it": "Cinque vini della Loira commentati dal nostro cantiniere, con formaggi di capra della Turenna.",
				"de": "Fünf Loire-Weine, vorgestellt von unserem Kellermeister, mit Ziegenkäse aus der Touraine.",
				"nl": "Vijf Loirewijnen toegelicht door onze keldermeester, met geitenkaas uit de Touraine.",
				"ca": "Cinc vins del Loira comentats pel nostre mestre de celler, amb formatges de cabra de la Turena.",
				"pt": "Cinco vinhos do Loire comentados pelo nosso mestre de adega, com queijos de cabra da Touraine.",
			},
			LongDescription: domain.Localized{
				"fr": "Descendez dans les caves creusées dans le tuffeau, où nos vins vieillissent depuis le XVIe siècle. Vouvray, Montlouis, Chinon et crémant vous sont présentés avec leurs accords. À consommer avec modération.",
				"en": "Go down into the cellars carved into the tuffeau stone, where our wines have aged since the 16th century. Vouvray, Montlouis, Chinon and crémant are presented with their food pairings. Please drink responsibly.",
				"es": "Baja a las bodegas excavadas en la piedra toba, donde nuestros vinos envejecen desde el siglo XVI. Se presentan Vouvray, Montlouis, Chinon y crémant con sus maridajes. Consumir con moderación.",
				"it": "Scendi nelle cantine scavate nel tufo, dove i nostri vini invecchiano dal XVI secolo. Vouvray, Montlouis, Chinon e crémant vengono presentati con i loro abbinamenti. Bevi responsabilmente.",
				"de": "Steigen Sie hinab in die in den Tuffstein gehauenen Keller, in denen unsere Weine seit dem 16. Jahrhundert reifen. Vouvray, Montlouis, Chinon und Crémant werden mit passenden Speisen vorgestellt. Genießen Sie verantwortungsvoll.",
				"nl": "Daal af in de kelders die in de tufsteen zijn uitgehouwen, waar onze wijnen sinds de 16e eeuw rijpen. Vouvray, Montlouis, Chinon en crémant worden gepresenteerd met bijpassende gerechten. Geniet met mate.",
				"ca": "Baixa als cellers excavats a la pedra tosca, on envelleixen els nostres vins des del segle XVI. Es presenten Vouvray, Montlouis, Chinon i crémant amb els seus maridatges. Consumiu amb moderació.",
				"pt": "Desça às caves escavadas no tufo, onde os nossos vinhos envelhecem desde o século XVI. Vouvray, Montlouis, Chinon e crémant são apresentados com as suas harmonizações. Seja responsável, beba com moderação.",
			},
			Booking:         demoChateauBooking,
			CoverImage:      "https://cdn.example.com/demo/chateau/cellars-cover.jpg",
			Images:          []string{"https://cdn.example.com/demo/chateau/cellars-1.jpg"},
			DeliveryOptions: demoChateauDelivery,
		},
		Formulas: []catalogue.EventFormula{
			{Price: demoDec("19.00"), Name: domain.Localized{
				"fr": "Dégustation", "en": "Tasting", "es": "Cata", "it": "Degustazione",
				"de": "Weinprobe", "nl": "Proeverij", "ca": "Tast", "pt": "Prova",
			}},
			{Price: demoDec("32.00"), Name: domain.Localized{
				"fr": "Dégustation et planche du terroir", "en": "Tasting and local platter",
				"es": "Cata y tabla de productos locales", "it": "Degustazione e tagliere del territorio",
				"de": "Weinprobe mit regionaler Vesperplatte", "nl": "Proeverij met streekplank",
				"ca": "Tast i taula de productes locals", "pt": "Prova e tábua de produtos regionais",
			}},
		},
		Slots: []demoDate{
			{InDays: 2, At: "17:00", Length: 75 * time.Minute, Places: 20},
			{InDays: 9, At: "17:00", Length: 75 * time.Minute, Places: 12},
			{InDays: 16, At: "17:00", Length: 75 * time.Minute, Places: 20},
			{InDays: 23, At: "17:00", Length: 75 * time.Minute, Places: 20},
		},
	},
	{
		Partner: "chateau",
		Event: catalogue.Event{
			Name: domain.Localized{
				"fr": "Concert baroque dans la grande galerie",
				"en": "Baroque concert in the great gallery",
				"es": "Concierto barroco en la gran galería",
				"it": "Concerto barocco nella grande galleria",
				"de": "Barockkonzert in der großen Galerie",
				"nl": "Barokconcert in de grote galerij",
				"ca": "Concert barroc a la gran galeria",
				"pt": "Concerto barroco na grande galeria",
			},
			ShortDescription: domain.Localized{
				"fr": "Un quatuor joue Vivaldi, Rameau et Couperin sous les plafonds peints.",
				"en": "A quartet plays Vivaldi, Rameau and Couperin beneath the painted ceilings.",
				"es": "Un cuarteto interpreta a Vivaldi, Rameau y Couperin bajo los techos pintados.",
				"it": "Un quartetto esegue Vivaldi, Rameau e Couperin sotto i soffitti dipinti.",
				"de": "Ein Quartett spielt Vivaldi, Rameau und Couperin unter den bemalten Decken.",
				"nl": "Een kwartet speelt Vivaldi, Rameau en Couperin onder de beschilderde plafonds.",
				"ca": "Un quartet interpreta Vivaldi, Rameau i Couperin sota els sostres pintats.",
				"pt": "Um quarteto interpreta Vivaldi, Rameau e Couperin sob os tetos pintados.",
			},
			LongDescription: domain.Localized{
				"fr": "Une heure de musique baroque sur instruments d'époque, dans la galerie où la cour donnait ses bals. Placement libre ; les portes ouvrent 30 minutes avant le concert.",
				"en": "An hour of baroque music on period instruments, in the gallery where the court held its balls. Unreserved seating; doors open 30 minutes before the concert.",
				"es": "Una hora de música barroca con instrumentos de época, en la galería donde la corte celebraba sus bailes. Localidades no numeradas; las puertas abren 30 minutos antes del concierto.",
				"it": "Un'ora di musica barocca su strumenti d'epoca, nella galleria dove la corte teneva i suoi balli. Posti non numerati; le porte aprono 30 minuti prima del concerto.",
				"de": "Eine Stunde Barockmusik auf historischen Instrumenten, in der Galerie, in der der Hof seine Bälle gab. Freie Platzwahl; Einlass 30 Minuten vor Konzertbeginn.",
				"nl": "Een uur barokmuziek op historische instrumenten, in de galerij waar het hof zijn bals hield. Vrije plaatsen; de deuren gaan 30 minuten voor het concert open.",
				"ca": "Una hora de música barroca amb instruments d'època, a la galeria on la cort celebrava els seus balls. Seients no numerats; les portes s'obren 30 minuts abans del concert.",
				"pt": "Uma hora de música barroca em instrumentos de época, na galeria onde a corte dava os seus bailes. Lugares não marcados; as portas abrem 30 minutos antes do concerto.",
			},
			Booking:         demoChateauBooking,
			CoverImage:      "https://cdn.example.com/demo/chateau/concert-cover.jpg",
			Images:          []string{"https://cdn.example.com/demo/chateau/concert-1.jpg", "https://cdn.example.com/demo/chateau/concert-2.jpg"},
			DeliveryOptions: demoChateauDelivery,
		},
		Formulas: []catalogue.EventFormula{
			{Price: demoDec("28.00"), Name: domain.Localized{
				"fr": "Plein tarif", "en": "Full price", "es": "Tarifa general", "it": "Tariffa intera",
				"de": "Normalpreis", "nl": "Volledig tarief", "ca": "Tarifa general", "pt": "Tarifa normal",
			}},
			{Price: demoDec("20.00"), Name: domain.Localized{
				"fr": "Tarif réduit", "en": "Concession", "es": "Tarifa reducida", "it": "Tariffa ridotta",
				"de": "Ermäßigt", "nl": "Gereduceerd tarief", "ca": "Tarifa reduïda", "pt": "Tarifa reduzida",
			}},
		},
		Slots: []demoDate{
			{InDays: 8, At: "20:30", Length: time.Hour, Places: 80},
			{InDays: 22, At: "20:30", Length: time.Hour, Places: 80},
		},
	},
}

// demoWorkshopTags are terms of the shared workshop vocabularies.
var demoWorkshopTags = []demoWorkshopTag{
	{Key: "beginner", Kind: catalogue.WorkshopLevel, Name: domain.Localized{
		"fr": "Débutant", "en": "Beginner", "es": "Principiante", "it": "Principiante",
		"de": "Anfänger", "nl": "Beginner", "ca": "Principiant", "pt": "Principiante",
	}},
	{Key: "intermediate", Kind: catalogue.WorkshopLevel, Name: domain.Localized{
		"fr": "Intermédiaire", "en": "Intermediate", "es": "Intermedio", "it": "Intermedio",
		"de": "Fortgeschritten", "nl": "Gevorderd", "ca": "Intermedi", "pt": "Intermédio",
	}},
	{Key: "tableware", Kind: catalogue.WorkshopTheme, Name: domain.Localized{
		"fr": "Art de la table", "en": "Tableware", "es": "Vajilla", "it": "Arte della tavola",
		"de": "Tischkultur", "nl": "Tafelservies", "ca": "Vaixella", "pt": "Loiça de mesa",
	}},
	{Key: "decor", Kind: catalogue.WorkshopTheme, Name: domain.Localized{
		"fr": "Décoration", "en": "Home decor", "es": "Decoración", "it": "Decorazione",
		"de": "Dekoration", "nl": "Decoratie", "ca": "Decoració", "pt": "Decoração",
	}},
	{Key: "adults", Kind: catalogue.WorkshopTarget, Name: domain.Localized{
		"fr": "Adultes", "en": "Adults", "es": "Adultos", "it": "Adulti",
		"de": "Erwachsene", "nl": "Volwassenen", "ca": "Adults", "pt": "Adultos",
	}},
	{Key: "children", Kind: catalogue.WorkshopTarget, Name: domain.Localized{
		"fr": "Enfants dès 6 ans", "en": "Children aged 6 and over", "es": "Niños a partir de 6 años", "it": "Bambini dai 6 anni",
		"de": "Kinder ab 6 Jahren", "nl": "Kinderen vanaf 6 jaar", "ca": "Infants a partir de 6 anys", "pt": "Crianças a partir dos 6 anos",
	}},
	{Key: "centring", Kind: catalogue.WorkshopSkill, Name: domain.Localized{
		"fr": "Centrage de la terre", "en": "Centring the clay", "es": "Centrado del barro", "it": "Centratura dell'argilla",
		"de": "Zentrieren des Tons", "nl": "Klei centreren", "ca": "Centrat del fang", "pt": "Centragem do barro",
	}},
	{Key: "glazing", Kind: catalogue.WorkshopSkill, Name: domain.Localized{
		"fr": "Émaillage", "en": "Glazing", "es": "Esmaltado", "it": "Smaltatura",
		"de": "Glasieren", "nl": "Glazuren", "ca": "Esmaltat", "pt": "Vidragem",
	}},
	{Key: "slab-building", Kind: catalogue.WorkshopSkill, Name: domain.Localized{
		"fr": "Modelage à la plaque", "en": "Slab building", "es": "Modelado con planchas", "it": "Lavorazione a lastra",
		"de": "Plattentechnik", "nl": "Plaattechniek", "ca": "Modelatge amb plaques", "pt": "Modelação com placas",
	}},
	{Key: "celadon", Kind: catalogue.WorkshopRecipe, Name: domain.Localized{
		"fr": "Émail céladon", "en": "Celadon glaze", "es": "Esmalte celadón", "it": "Smalto celadon",
		"de": "Seladonglasur", "nl": "Celadonglazuur", "ca": "Esmalt celadó", "pt": "Vidrado celadon",
	}},
	{Key: "tenmoku", Kind: catalogue.WorkshopRecipe, Name: domain.Localized{
		"fr": "Émail tenmoku", "en": "Tenmoku glaze", "es": "Esmalte tenmoku", "it": "Smalto tenmoku",
		"de": "Tenmoku-Glasur", "nl": "Tenmokuglazuur", "ca": "Esmalt tenmoku", "pt": "Vidrado tenmoku",
	}},
}

// demoSixMonths is a workshop category's own validity period, in months.
var demoSixMonths = 6

var demoWorkshopCategories = []demoWorkshopCategory{
	{Key: "throwing", Partner: "atelier", Category: catalogue.WorkshopCategory{Price: demoDec("65.00"), Name: domain.Localized{
		"fr": "Tournage", "en": "Wheel throwing", "es": "Torno", "it": "Tornio",
		"de": "Töpferscheibe", "nl": "Pottendraaien", "ca": "Torn", "pt": "Roda de oleiro",
	}}},
	{Key: "hand-building", Partner: "atelier", Category: catalogue.WorkshopCategory{Price: demoDec("45.00"),
		SpecificValidityPeriod: &demoSixMonths, Name: domain.Localized{
			"fr": "Modelage", "en": "Hand building", "es": "Modelado", "it": "Modellazione",
			"de": "Modellieren", "nl": "Boetseren", "ca": "Modelatge", "pt": "Modelação",
		}}},
}

var demoWorkshops = []demoWorkshop{
	{
		Partner: "atelier", Category: "throwing", Level: "beginner",
		Themes: []string{"tableware"}, Targets: []string{"adults"}, Skills: []string{"centring", "glazing"}, Recipes: []string{"celadon"},
		Workshop: catalogue.Workshop{
			Name: domain.Localized{
				"fr": "Initiation au tournage",
				"en": "Introduction to wheel throwing",
				"es": "Iniciación al torno",
				"it": "Introduzione al tornio",
				"de": "Einführung an der Töpferscheibe",
				"nl": "Kennismaking met pottendraaien",
				"ca": "Iniciació al torn",
				"pt": "Iniciação à roda de oleiro",
			},
			ShortDescription: domain.Localized{
				"fr": "Deux heures pour centrer la terre et tourner vos premiers bols.",
				"en": "Two hours to centre the clay and throw your first bowls.",
				"es": "Dos horas para centrar el barro y tornear tus primeros cuencos.",
				"it": "Due ore per centrare l'argilla e tornire le tue prime ciotole.",
				"de": "Zwei Stunden, um den Ton zu zentrieren und Ihre ersten Schalen zu drehen.",
				"nl": "Twee uur om de klei te centreren en je eerste kommen te draaien.",
				"ca": "Dues hores per centrar el fang i tornejar els teus primers bols.",
				"pt": "Duas horas para centrar o barro e tornear as suas primeiras taças.",
			},
			LongDescription: domain.Localized{
				"fr": "Chaque participant dispose de son tour. Maëlle vous montre le centrage, l'ouverture et la montée des parois, puis vous choisissez un émail pour vos deux plus belles pièces, cuites et à retirer trois semaines plus tard.",
				"en": "Each participant has their own wheel. Maëlle shows you centring, opening and pulling up the walls, then you choose a glaze for your two best pieces, fired and ready to collect three weeks later.",
				"es": "Cada participante dispone de su propio torno. Maëlle te enseña a centrar, abrir y levantar las paredes; después eliges un esmalte para tus dos mejores piezas, que se cuecen y puedes recoger tres semanas más tarde.",
				"it": "Ogni partecipante ha il proprio tornio. Maëlle ti mostra la centratura, l'apertura e il sollevamento delle pareti, poi scegli uno smalto per i tuoi due pezzi migliori, cotti e pronti da ritirare tre settimane dopo.",
				"de": "Alle Teilnehmenden haben eine eigene Scheibe. Maëlle zeigt Ihnen das Zentrieren, Öffnen und Hochziehen der Wände; dann wählen Sie eine Glasur für Ihre zwei schönsten Stücke, die gebrannt und drei Wochen später abholbereit sind.",
				"nl": "Elke deelnemer heeft een eigen draaischijf. Maëlle laat je zien hoe je centreert, opent en de wanden optrekt; daarna kies je een glazuur voor je twee mooiste stukken, die gebakken worden en drie weken later klaarliggen.",
				"ca": "Cada participant té el seu propi torn. La Maëlle t'ensenya a centrar, obrir i aixecar les parets; després tries un esmalt per a les teves dues millors peces, que es couen i pots recollir tres setmanes més tard.",
				"pt": "Cada participante tem a sua própria roda. A Maëlle mostra-lhe como centrar, abrir e levantar as paredes; depois escolhe um vidrado para as suas duas melhores peças, cozidas e prontas a levantar três semanas depois.",
			},
			BookingConditions: demoAtelierBooking,
			Images:            []string{"https://cdn.example.com/demo/atelier/throwing-1.jpg", "https://cdn.example.com/demo/atelier/throwing-2.jpg"},
			CanBePrivatized:   true, DisplayCalendar: true, ActivateWorkshopsGroupPayment: true,
			Address: "12 rue de la Faïencerie, 29000 Quimper",
		},
		Sessions: []demoDate{
			{InDays: 4, At: "10:00", Length: 2 * time.Hour, MinCapacity: 2, MaxCapacity: 6, Places: 4},
			{InDays: 6, At: "14:00", Length: 2 * time.Hour, MinCapacity: 2, MaxCapacity: 6, Places: 6},
			{InDays: 11, At: "10:00", Length: 2 * time.Hour, MinCapacity: 2, MaxCapacity: 6, Places: 0}, // fully booked
			{InDays: 18, At: "10:00", Length: 2 * time.Hour, MinCapacity: 2, MaxCapacity: 6, Places: 6},
		},
	},
	{
		Partner: "atelier", Category: "hand-building", Level: "beginner",
		Themes: []string{"decor"}, Targets: []string{"adults", "children"}, Skills: []string{"slab-building"}, Recipes: []string{"celadon"},
		Workshop: catalogue.Workshop{
			Name: domain.Localized{
				"fr": "Modelage en famille",
				"en": "Family hand-building",
				"es": "Modelado en familia",
				"it": "Modellazione in famiglia",
				"de": "Modellieren mit der Familie",
				"nl": "Boetseren met het gezin",
				"ca": "Modelatge en família",
				"pt": "Modelação em família",
			},
			ShortDescription: domain.Localized{
				"fr": "Parents et enfants façonnent ensemble un animal ou un pot à crayons.",
				"en": "Parents and children shape an animal or a pencil pot together.",
				"es": "Padres e hijos modelan juntos un animal o un portalápices.",
				"it": "Genitori e figli modellano insieme un animale o un portamatite.",
				"de": "Eltern und Kinder formen gemeinsam ein Tier oder einen Stiftebecher.",
				"nl": "Ouders en kinderen boetseren samen een dier of een pennenpot.",
				"ca": "Pares i fills modelen junts un animal o un pot per a llapis.",
				"pt": "Pais e filhos moldam juntos um animal ou um porta-lápis.",
			},
			LongDescription: domain.Localized{
				"fr": "Un atelier d'une heure et demie avec les techniques de la plaque et du colombin, adapté aux enfants dès 6 ans accompagnés d'un adulte. L'atelier émaille les pièces et les cuit sous trois semaines.",
				"en": "A 90-minute workshop using slab and coil techniques, suitable for children aged 6 and over with an adult. The studio glazes the pieces and fires them within three weeks.",
				"es": "Un taller de hora y media con las técnicas de plancha y churro, adaptado a niños a partir de 6 años acompañados de un adulto. El taller esmalta las piezas y las cuece en un plazo de tres semanas.",
				"it": "Un laboratorio di un'ora e mezza con le tecniche a lastra e a colombino, adatto ai bambini dai 6 anni accompagnati da un adulto. Il laboratorio smalta i pezzi e li cuoce entro tre settimane.",
				"de": "Ein 90-minütiger Kurs mit Platten- und Wulsttechnik, geeignet für Kinder ab 6 Jahren in Begleitung eines Erwachsenen. Die Werkstatt glasiert die Stücke und brennt sie innerhalb von drei Wochen.",
				"nl": "Een workshop van anderhalf uur met plaat- en rolletjestechniek, geschikt voor kinderen vanaf 6 jaar onder begeleiding van een volwassene. Het atelier glazuurt de stukken en bakt ze binnen drie weken.",
				"ca": "Un taller d'una hora i mitja amb les tècniques de la placa i del xurro, adaptat a infants a partir de 6 anys acompanyats d'un adult. El taller esmalta les peces i les cou en un termini de tres setmanes.",
				"pt": "Uma oficina de hora e meia com as técnicas de placa e de rolo, adequada a crianças a partir dos 6 anos acompanhadas por um adulto. A oficina vidra as peças e coze-as no prazo de três semanas.",
			},
			BookingConditions: demoAtelierBooking,
			Images:            []string{"https://cdn.example.com/demo/atelier/family-1.jpg"},
			DisplayCalendar:   true,
			Address:           "12 rue de la Faïencerie, 29000 Quimper",
		},
		Sessions: []demoDate{
			{InDays: 6, At: "10:00", Length: 90 * time.Minute, MinCapacity: 2, MaxCapacity: 10, Places: 8},
			{InDays: 13, At: "10:00", Length: 90 * time.Minute, MinCapacity: 2, MaxCapacity: 10, Places: 10},
			{InDays: 20, At: "10:00", Length: 90 * time.Minute, MinCapacity: 2, MaxCapacity: 10, Places: 10},
		},
	},
	{
		Partner: "atelier", Category: "throwing", Level: "intermediate",
		Themes: []string{"tableware"}, Targets: []string{"adults"}, Skills: []string{"centring", "glazing"}, Recipes: []string{"tenmoku"},
		Workshop: catalogue.Workshop{
			Name: domain.Localized{
				"fr": "Perfectionnement au tour : bols et assiettes",
				"en": "Wheel-throwing masterclass: bowls and plates",
				"es": "Perfeccionamiento en el torno: cuencos y platos",
				"it": "Perfezionamento al tornio: ciotole e piatti",
				"de": "Aufbaukurs Töpferscheibe: Schalen und Teller",
				"nl": "Gevorderde draaicursus: kommen en borden",
				"ca": "Perfeccionament al torn: bols i plats",
				"pt": "Aperfeiçoamento na roda: taças e pratos",
			},
			ShortDescription: domain.Localized{
				"fr": "Une journée pour tourner un service assorti et apprendre le tournassage.",
				"en": "A day to throw a matching set and learn trimming.",
				"es": "Un día para tornear una vajilla a juego y aprender a retornear.",
				"it": "Una giornata per tornire un servizio coordinato e imparare la rifinitura.",
				"de": "Ein Tag, um ein passendes Service zu drehen und das Abdrehen zu lernen.",
				"nl": "Een dag om een bijpassend servies te draaien en te leren afdraaien.",
				"ca": "Un dia per tornejar una vaixella conjuntada i aprendre a acabar els peus al torn.",
				"pt": "Um dia para tornear um serviço a condizer e aprender o acabamento dos pés.",
			},
			LongDescription: domain.Localized{
				"fr": "Pour celles et ceux qui savent déjà centrer : répétition des formes, tournassage des pieds et émaillage par trempage au tenmoku. Déjeuner compris.",
				"en": "For those who can already centre: repeating shapes, trimming feet and dip-glazing in tenmoku. Lunch included.",
				"es": "Para quienes ya saben centrar: repetición de formas, retorneado de los pies y esmaltado por inmersión en tenmoku. Almuerzo incluido.",
				"it": "Per chi sa già centrare: ripetizione delle forme, rifinitura dei piedi e smaltatura a immersione con il tenmoku. Pranzo incluso.",
				"de": "Für alle, die schon zentrieren können: Formen wiederholen, Füße abdrehen und Tauchglasieren mit Tenmoku. Mittagessen inbegriffen.",
				"nl": "Voor wie al kan centreren: vormen herhalen, voeten afdraaien en dompelglazuren met tenmoku. Lunch inbegrepen.",
				"ca": "Per a qui ja sap centrar: repetició de formes, acabat dels peus al torn i esmaltat per immersió amb tenmoku. Dinar inclòs.",
				"pt": "Para quem já sabe centrar: repetição de formas, acabamento dos pés e vidragem por imersão em tenmoku. Almoço incluído.",
			},
			BookingConditions: demoAtelierBooking,
			Images:            []string{"https://cdn.example.com/demo/atelier/masterclass-1.jpg"},
			CanBePrivatized:   true, DisplayCalendar: true,
			Address: "12 rue de la Faïencerie, 29000 Quimper",
		},
		Sessions: []demoDate{
			{InDays: 9, At: "09:30", Length: 7 * time.Hour, MinCapacity: 3, MaxCapacity: 6, Places: 5},
			{InDays: 23, At: "09:30", Length: 7 * time.Hour, MinCapacity: 3, MaxCapacity: 6, Places: 6},
		},
	},
}

// demoBoxes are the marketplace's network voucher boxes, with offers of
// both partners: validated ones and a draft.
var demoBoxes = []demoBox{
	{
		Key: "heritage-box", Marketplace: "market", Universes: []string{"castle-tours", "concerts"},
		Offers: []demoOffer{{Partner: "chateau", Status: catalogue.BoxOfferStatusValidated}},
		Box: catalogue.Box{
			Name: domain.Localized{
				"fr": "Escapade patrimoine", "en": "Heritage getaway", "es": "Escapada histórica", "it": "Fuga nella storia",
				"de": "Auszeit mit Geschichte", "nl": "Historisch uitje", "ca": "Escapada històrica", "pt": "Escapadinha histórica",
			},
			ShortDescription: domain.Localized{
				"fr": "Une visite ou un concert pour deux dans un château de la Loire.",
				"en": "A tour or a concert for two in a Loire château.",
				"es": "Una visita o un concierto para dos en un castillo del Loira.",
				"it": "Una visita o un concerto per due in un castello della Loira.",
				"de": "Eine Führung oder ein Konzert für zwei in einem Loire-Schloss.",
				"nl": "Een rondleiding of concert voor twee in een kasteel aan de Loire.",
				"ca": "Una visita o un concert per a dos en un castell del Loira.",
				"pt": "Uma visita ou um concerto para dois num castelo do Loire.",
			},
			LongDescription: domain.Localized{
				"fr": "Le bénéficiaire choisit parmi les visites aux chandelles, les visites privées et les concerts baroques de nos châteaux partenaires. Valable pour deux personnes, 12 mois à compter de l'achat.",
				"en": "The recipient chooses among candlelight tours, private tours and baroque concerts at our partner châteaux. Valid for two people, 12 months from purchase.",
				"es": "El beneficiario elige entre visitas a la luz de las velas, visitas privadas y conciertos barrocos en nuestros castillos asociados. Válido para dos personas, 12 meses desde la compra.",
				"it": "Il beneficiario sceglie tra visite a lume di candela, visite private e concerti barocchi nei nostri castelli partner. Valido per due persone, 12 mesi dall'acquisto.",
				"de": "Die beschenkte Person wählt zwischen Führungen bei Kerzenschein, Privatführungen und Barockkonzerten in unseren Partnerschlössern. Gültig für zwei Personen, 12 Monate ab Kauf.",
				"nl": "De ontvanger kiest uit rondleidingen bij kaarslicht, privérondleidingen en barokconcerten in onze partnerkastelen. Geldig voor twee personen, 12 maanden vanaf aankoop.",
				"ca": "El beneficiari tria entre visites a la llum de les espelmes, visites privades i concerts barrocs als nostres castells associats. Vàlid per a dues persones, 12 mesos des de la compra.",
				"pt": "O beneficiário escolhe entre visitas à luz das velas, visitas privadas e concertos barrocos nos nossos castelos parceiros. Válido para duas pessoas, 12 meses a partir da compra.",
			},
			IsActive: true, IsHighlight: true, DisplayNbOffers: true, Price: demoDec("89.00"), Ranking: 1,
			PeopleIncluded: 2, MaxNumberUsages: 1,
			Images: []string{"https://cdn.example.com/demo/market/heritage-1.jpg", "https://cdn.example.com/demo/market/heritage-2.jpg"},
		},
	},
	{
		Key: "clay-box", Marketplace: "market", Universes: []string{"ceramics"},
		Offers: []demoOffer{{Partner: "atelier", Status: catalogue.BoxOfferStatusValidated}},
		Box: catalogue.Box{
			Name: domain.Localized{
				"fr": "Mains dans la terre", "en": "Hands in the clay", "es": "Manos en el barro", "it": "Mani nell'argilla",
				"de": "Hände im Ton", "nl": "Handen in de klei", "ca": "Mans al fang", "pt": "Mãos no barro",
			},
			ShortDescription: domain.Localized{
				"fr": "Un atelier de céramique au choix pour une personne.",
				"en": "A ceramics workshop of your choice for one person.",
				"es": "Un taller de cerámica a elegir para una persona.",
				"it": "Un laboratorio di ceramica a scelta per una persona.",
				"de": "Ein Keramikkurs nach Wahl für eine Person.",
				"nl": "Een keramiekworkshop naar keuze voor één persoon.",
				"ca": "Un taller de ceràmica a escollir per a una persona.",
				"pt": "Uma oficina de cerâmica à escolha para uma pessoa.",
			},
			LongDescription: domain.Localized{
				"fr": "Tournage ou modelage : le bénéficiaire réserve la séance qui lui convient et repart avec ses pièces cuites. Valable 12 mois.",
				"en": "Wheel throwing or hand building: the recipient books the session that suits them and takes home their fired pieces. Valid for 12 months.",
				"es": "Torno o modelado: el beneficiario reserva la sesión que prefiera y se lleva sus piezas cocidas. Válido 12 meses.",
				"it": "Tornio o modellazione: il beneficiario prenota la sessione che preferisce e porta a casa i suoi pezzi cotti. Valido 12 mesi.",
				"de": "Töpferscheibe oder Modellieren: Die beschenkte Person bucht den passenden Termin und nimmt ihre gebrannten Stücke mit nach Hause. 12 Monate gültig.",
				"nl": "Pottendraaien of boetseren: de ontvanger boekt de sessie die het best uitkomt en neemt de gebakken stukken mee naar huis. 12 maanden geldig.",
				"ca": "Torn o modelatge: el beneficiari reserva la sessió que li convingui i s'emporta les seves peces cuites. Vàlid 12 mesos.",
				"pt": "Roda de oleiro ou modelação: o beneficiário reserva a sessão que lhe convém e leva para casa as suas peças cozidas. Válido 12 meses.",
			},
			IsActive: true, DisplayNbOffers: true, Price: demoDec("59.00"), Ranking: 2,
			PeopleIncluded: 1, MaxNumberUsages: 1,
			Images: []string{"https://cdn.example.com/demo/market/clay-1.jpg", "https://cdn.example.com/demo/market/clay-2.jpg"},
		},
	},
	{
		Key: "loire-box", Marketplace: "market", Universes: []string{"tastings"},
		Offers: []demoOffer{
			{Partner: "chateau", Status: catalogue.BoxOfferStatusValidated},
			{Partner: "atelier", Status: catalogue.BoxOfferStatusDraft}, // a tasting in handmade cups, not live yet
		},
		Box: catalogue.Box{
			Name: domain.Localized{
				"fr": "Loire gourmande", "en": "Taste of the Loire", "es": "Loira gourmet", "it": "Loira golosa",
				"de": "Genussreise an die Loire", "nl": "Culinaire Loire", "ca": "Loira gurmet", "pt": "Loire gourmet",
			},
			ShortDescription: domain.Localized{
				"fr": "Une dégustation dans les caves et une planche du terroir pour deux.",
				"en": "A cellar tasting and a local platter for two.",
				"es": "Una cata en las bodegas y una tabla de productos locales para dos.",
				"it": "Una degustazione in cantina e un tagliere del territorio per due.",
				"de": "Eine Weinprobe im Keller und eine regionale Vesperplatte für zwei.",
				"nl": "Een proeverij in de kelders en een streekplank voor twee.",
				"ca": "Un tast als cellers i una taula de productes locals per a dos.",
				"pt": "Uma prova nas caves e uma tábua de produtos regionais para dois.",
			},
			LongDescription: domain.Localized{
				"fr": "Cinq vins de Loire commentés par un maître de chai, accompagnés de fromages de chèvre et de rillettes de Tours. Valable pour deux personnes, 12 mois à compter de l'achat. À consommer avec modération.",
				"en": "Five Loire wines presented by a cellar master, with goat's cheeses and rillettes from Tours. Valid for two people, 12 months from purchase. Please drink responsibly.",
				"es": "Cinco vinos del Loira comentados por un maestro bodeguero, acompañados de quesos de cabra y rillettes de Tours. Válido para dos personas, 12 meses desde la compra. Consumir con moderación.",
				"it": "Cinque vini della Loira commentati da un cantiniere, accompagnati da formaggi di capra e rillettes di Tours. Valido per due persone, 12 mesi dall'acquisto. Bevi responsabilmente.",
				"de": "Fünf Loire-Weine, vorgestellt von einem Kellermeister, dazu Ziegenkäse und Rillettes aus Tours. Gültig für zwei Personen, 12 Monate ab Kauf. Genießen Sie verantwortungsvoll.",
				"nl": "Vijf Loirewijnen toegelicht door een keldermeester, met geitenkaas en rillettes uit Tours. Geldig voor twee personen, 12 maanden vanaf aankoop. Geniet met mate.",
				"ca": "Cinc vins del Loira comentats per un mestre de celler, acompanyats de formatges de cabra i rillettes de Tours. Vàlid per a dues persones, 12 mesos des de la compra. Consumiu amb moderació.",
				"pt": "Cinco vinhos do Loire comentados por um mestre de adega, acompanhados de queijos de cabra e rillettes de Tours. Válido para duas pessoas, 12 meses a partir da compra. Seja responsável, beba com moderação.",
			},
			IsActive: true, DisplayNbOffers: true, Price: demoDec("119.00"), Ranking: 3,
			PeopleIncluded: 2, MaxNumberUsages: 2, MaxDaysAfterFirstUsage: 90,
			Images: []string{"https://cdn.example.com/demo/market/loire-1.jpg"},
		},
	},
}

// demoGifts are sold gifts of every kind, with codes to try in
// GET /api/v2/gift/{code}/.
var demoGifts = []demoGift{
	{Code: "DEMO-VOUCHER-1", Kind: gifts.GiftKindVoucher, Of: "private-tour", State: gifts.VoucherStatePaid,
		Value: demoDec("120.00"), BoughtDaysAgo: 10, ValidMonths: 12,
		Gifter: [2]string{"Camille", "Martin"}, Giftee: [2]string{"Hugo", "Bernard"}},
	{Code: "DEMO-VOUCHER-2", Kind: gifts.GiftKindVoucher, Of: "throwing-lesson", State: gifts.VoucherStatePaid,
		Value: demoDec("65.00"), BoughtDaysAgo: 3, ValidMonths: 12,
		Gifter: [2]string{"Lucas", "Petit"}, Giftee: [2]string{"Inès", "Moreau"}},
	{Code: "DEMO-GIFTCARD-1", Kind: gifts.GiftKindGiftcard, Of: "chateau-card", State: gifts.GiftStatusPaid,
		Value: demoDec("100.00"), Remaining: demoDec("100.00"), BoughtDaysAgo: 20, ValidMonths: 12},
	{Code: "DEMO-GIFTCARD-2", Kind: gifts.GiftKindGiftcard, Of: "atelier-card", State: gifts.GiftStatusUsing,
		Value: demoDec("90.00"), Remaining: demoDec("25.00"), BoughtDaysAgo: 45, ValidMonths: 12},
	{Code: "DEMO-NETWORK-GIFTCARD-1", Kind: gifts.GiftKindNetworkGiftcard, Of: "market", State: gifts.GiftStatusPaid,
		Value: demoDec("150.00"), Remaining: demoDec("150.00"), BoughtDaysAgo: 5, ValidMonths: 12},
	{Code: "DEMO-NETWORK-VOUCHER-1", Kind: gifts.GiftKindNetworkVoucher, Of: "heritage-box", State: gifts.GiftStatusPaid,
		MaxUsages: 1, BoughtDaysAgo: 7, ValidMonths: 12},
	{Code: "DEMO-NETWORK-VOUCHER-2", Kind: gifts.GiftKindNetworkVoucher, Of: "loire-box", State: gifts.GiftStatusUsing,
		MaxUsages: 2, UsageCount: 1, BoughtDaysAgo: 30, ValidMonths: 12},
}
