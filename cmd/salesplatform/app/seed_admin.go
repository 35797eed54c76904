package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"strings"
	"sync"
	"time"

	"salesplatform/domain/account"

	"salesplatform/domain/gifts"

	"salesplatform/domain/vouchers"

	"salesplatform/domain/media"

	"salesplatform/domain/prototypes"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/domain"
	"salesplatform/persistence"
)

// The administration part of the demo dataset (issue 4): environments,
// media, voucher prototypes with every field of the 4.6 body, option
// categories, options and their links to prototypes, coupons, customers,
// vouchers in every state and giftcards. It is loaded through the
// administration services (domain.MediaService, AdminPrototypeService,
// VoucherAdminService) so that their rules apply, with the demo staff user
// as the caller; a state change is made by the partner's demo user, as a
// partner would. Coupons and customers have no service: they are inserted
// with SQL, as are the sale details an issued voucher has no input for.

// demoStaff is the demo staff account: no partner, every permission.
var demoStaff = demoUser{Username: "demo-staff", Password: "staff-demo-password", Email: "staff@salesplatform.localhost"}

// demoUser is a demo account's credentials.
type demoUser struct {
	Username, Password, Email string
}

// demoPartnerPermissions are what the README's administration walkthrough
// needs of a partner's user: writing prototypes, options and media, and
// changing voucher states.
var demoPartnerPermissions = []string{domain.PermManageMasterAdmin, domain.PermUseVoucher}

// demoAdminMarker is the coupon whose presence says the administration
// part is loaded.
const (
	demoAdminMarkerPartner = "chateau"
	demoAdminMarkerCoupon  = "BIENVENUE10"
)

// seedDemoStaff creates the demo staff user unless it exists.
// Errors: a user of that name that is not staff or has a partner.
func seedDemoStaff(ctx context.Context, db bun.IDB, out io.Writer) (seededAccount, error) {
	database := persistence.NewDatabase(db)
	a := seededAccount{User: demoStaff}
	u, err := database.Stores().Users.FindUserByUsername(ctx, demoStaff.Username)
	switch {
	case domain.IsCode(err, domain.CodeNotFound):
		acct, err := account.NewAccountService(database, nil, nil).CreateAccount(ctx, account.NewAccountInput{
			Username: demoStaff.Username, Password: demoStaff.Password, Email: demoStaff.Email, Staff: true})
		if err != nil {
			return a, fmt.Errorf("create the demo user %s: %w", demoStaff.Username, describe(err))
		}
		a.Token = acct.Token
		fmt.Fprintf(out, "Created staff user %s (password %s)\n", demoStaff.Username, demoStaff.Password)
	case err != nil:
		return a, err
	case !u.IsStaff || u.PartnerID != nil:
		return a, fmt.Errorf("the user %s exists but is not the demo staff user: seed another database", demoStaff.Username)
	default:
		fmt.Fprintf(out, "Found staff user %s (password %s)\n", demoStaff.Username, demoStaff.Password)
	}
	return a, nil
}

// recordingBlobs is a BlobStore that remembers the keys it wrote, so that
// a failed load can delete them: the blobs are outside the transaction.
type recordingBlobs struct {
	media.BlobStore
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

// demoAdminLoader loads the administration part on one transaction.
type demoAdminLoader struct {
	tx        bun.IDB
	now       time.Time
	partners  map[string]*domain.Partner // by demoPartner.Key
	staff     context.Context            // the demo staff user's calls
	ids       map[string]int64           // by key of the tables below
	tally     seedTally
	codes     map[string][]string // issued voucher codes by state
	giftcards []string

	media    *media.MediaService
	protos   *prototypes.AdminPrototypeService
	vouchers *vouchers.VoucherAdminService
	users    account.UserStore
}

func newDemoAdminLoader(ctx context.Context, tx bun.IDB, blobs media.BlobStore, partners map[string]*domain.Partner,
	now time.Time, baseURL string) (*demoAdminLoader, error) {
	database := persistence.NewDatabase(tx)
	stores := database.Stores()
	staff, err := stores.Users.FindUserByUsername(ctx, demoStaff.Username)
	if err != nil {
		return nil, err
	}
	return &demoAdminLoader{tx: tx, now: now, partners: partners,
		staff: domain.WithCaller(ctx, &domain.Caller{User: staff}),
		ids:   map[string]int64{}, codes: map[string][]string{},
		media:    media.NewMediaService(persistence.NewUnitOfWork[media.Stores](tx, persistence.MediaStores), blobs, baseURL),
		protos:   prototypes.NewAdminPrototypeService(persistence.NewUnitOfWork[prototypes.Stores](tx, persistence.PrototypeAdminStores)),
		vouchers: vouchers.NewVoucherAdminService(persistence.NewUnitOfWork[vouchers.Stores](tx, persistence.VoucherStores)),
		users:    stores.Users}, nil
}

// loadedAlready reports whether the administration part was loaded: the
// château has its welcome coupon.
func (l *demoAdminLoader) loadedAlready(ctx context.Context) (bool, error) {
	var n int
	err := l.tx.NewRaw("SELECT count(*) FROM coupons WHERE partner_id = ? AND code = ?",
		l.partners[demoAdminMarkerPartner].ID, demoAdminMarkerCoupon).Scan(ctx, &n)
	return n > 0, err
}

func (l *demoAdminLoader) load(ctx context.Context) error {
	for _, step := range []func(context.Context) error{
		l.grantPermissions, l.findCatalogue, l.loadEnvironments, l.loadMedia, l.loadPrototypes,
		l.loadOptionCategories, l.loadOptions, l.loadOptionLinks, l.loadCustomers, l.loadVouchers,
		l.loadGiftcards, l.loadCoupons,
	} {
		if err := step(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (l *demoAdminLoader) id(key string) int64 {
	id, ok := l.ids[key]
	if !ok {
		panic(fmt.Sprintf("demo dataset: no record has the key %q (or it is loaded after its use)", key))
	}
	return id
}

// partnerCtx is a call by the partner's demo user, with its permissions.
func (l *demoAdminLoader) partnerCtx(ctx context.Context, key string) (context.Context, error) {
	for _, d := range demoPartners {
		if d.Key != key {
			continue
		}
		u, err := l.users.FindUserByUsername(ctx, d.Username)
		if err != nil {
			return nil, err
		}
		return domain.WithCaller(ctx, &domain.Caller{User: u, Partner: l.partners[key], Permissions: demoPartnerPermissions}), nil
	}
	panic("demo dataset: no partner " + key)
}

func (l *demoAdminLoader) grantPermissions(ctx context.Context) error {
	for _, d := range demoPartners {
		u, err := l.users.FindUserByUsername(ctx, d.Username)
		if err != nil {
			return err
		}
		if err := l.users.GrantPermissions(ctx, u.ID, demoPartnerPermissions); err != nil {
			return seedErr("permissions of "+d.Username, err)
		}
		l.tally.add("partner users granted manage_masteradmin and use_voucher", 1)
	}
	return nil
}

// findCatalogue finds the catalogue records the administration part
// refers to: they may come from this run or from an earlier one.
func (l *demoAdminLoader) findCatalogue(ctx context.Context) error {
	find := func(key, query string, args ...any) error {
		var id int64
		if err := l.tx.NewRaw(query, args...).Scan(ctx, &id); err != nil {
			return fmt.Errorf("find the demo record %s: %w", key, err)
		}
		l.ids[key] = id
		return nil
	}
	for _, u := range demoUniverses {
		if err := find(u.Key, "SELECT id FROM universes WHERE name->>'en' = ? ORDER BY id LIMIT 1", u.Name["en"]); err != nil {
			return err
		}
	}
	for _, p := range demoVoucherPrototypes {
		if err := find(p.Key, "SELECT id FROM voucher_prototypes WHERE partner_id = ? AND name->>'en' = ? ORDER BY id LIMIT 1",
			l.partners[p.Partner].ID, p.Name["en"]); err != nil {
			return err
		}
	}
	for _, p := range demoGiftcardPrototypes {
		if err := find(p.Key, "SELECT id FROM giftcard_prototypes WHERE partner_id = ? ORDER BY id LIMIT 1",
			l.partners[p.Partner].ID); err != nil {
			return err
		}
	}
	return nil
}

func (l *demoAdminLoader) loadEnvironments(ctx context.Context) error {
	for _, e := range demoEnvironments {
		var id int64
		if err := l.tx.NewRaw("INSERT INTO environments (name) VALUES (?) RETURNING id", e.Name).Scan(ctx, &id); err != nil {
			return seedErr("environment "+e.Key, err)
		}
		l.ids[e.Key] = id
		l.tally.add("environments", 1)
	}
	return nil
}

// loadMedia uploads two generated images of each prototype, through the
// media service into the blob store.
func (l *demoAdminLoader) loadMedia(ctx context.Context) error {
	for _, p := range demoAdminPrototypes {
		for i, colors := range p.Images {
			data, err := demoImage(colors[0], colors[1])
			if err != nil {
				return err
			}
			name := fmt.Sprintf("%s-%d.png", p.Key, i+1)
			partner := l.partners[p.Partner].UUID.String()
			m, err := l.media.Upload(l.staff, media.MediaUpload{Name: &name, PartnerUUID: &partner,
				File: bytes.NewReader(data), Files: 1})
			if err != nil {
				return seedErr("media "+name, err)
			}
			l.ids[fmt.Sprintf("%s/image-%d", p.Key, i+1)] = m.ID
			l.tally.add("media (generated PNG images)", 1)
		}
	}
	return nil
}

// demoImage is a 480×320 PNG: a diagonal gradient from one colour to the
// other, with a lighter band across, like a placeholder photograph.
func demoImage(from, to color.RGBA) ([]byte, error) {
	const w, h = 480, 320
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	mix := func(a, b uint8, t float64) uint8 { return uint8(float64(a)*(1-t) + float64(b)*t) }
	for y := range h {
		for x := range w {
			t := (float64(x)/w + float64(y)/h) / 2
			c := color.RGBA{mix(from.R, to.R, t), mix(from.G, to.G, t), mix(from.B, to.B, t), 255}
			if y > h*3/5 && y < h*3/5+24 {
				c = color.RGBA{mix(c.R, 255, 0.4), mix(c.G, 255, 0.4), mix(c.B, 255, 0.4), 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("demo image: %w", err)
	}
	return buf.Bytes(), nil
}

// prototypeDoc is the 4.6 body of a demo prototype, every field given.
func (l *demoAdminLoader) prototypeDoc(p demoAdminPrototype) domain.Doc {
	doc := domain.Doc{
		"partner_uuid": l.partners[p.Partner].UUID.String(),
		"is_active":    true, "is_highlight": p.Highlight, "type": p.Type,
		"price_scope": json.Number(fmt.Sprint(p.PriceScope)), "ranking": json.Number(fmt.Sprint(p.Ranking)),
		"min_capacity": json.Number(fmt.Sprint(p.MinCapacity)), "max_capacity": json.Number(fmt.Sprint(p.MaxCapacity)),
		"stay_price": p.StayPrice, "adults_price": p.AdultsPrice, "children_price": p.ChildrenPrice,
		"baby_price":      p.BabyPrice,
		"last_active_day": l.now.AddDate(1, 0, 0).Format(time.DateOnly),
		"universe":        json.Number(fmt.Sprint(l.id(p.Universe))),
		"environment":     json.Number(fmt.Sprint(l.id(p.Environment))),
	}
	images := make([]any, len(p.Images))
	for i := range p.Images {
		images[i] = json.Number(fmt.Sprint(l.id(fmt.Sprintf("%s/image-%d", p.Key, i+1))))
	}
	doc["images"] = images
	doc["cover_image"] = images[len(images)-1] // not the first: shows that the cover is chosen
	name := p.Name
	if name == nil {
		for _, d := range demoVoucherPrototypes {
			if d.Key == p.Key {
				name = d.Name
			}
		}
	}
	for prefix, texts := range map[string]domain.Localized{"name": name, "description": p.Description,
		"long_description": p.LongDescription, "rent_conditions": p.RentConditions,
		"how_to_book_html": p.HowToBookHTML, "pdf_description": p.PDFDescription} {
		for lang, s := range texts {
			doc[prefix+"_"+lang] = s
		}
	}
	return doc
}

// loadPrototypes fills every 4.6 field of the catalogue's prototypes (a
// PUT, in place) and creates the new ones.
func (l *demoAdminLoader) loadPrototypes(ctx context.Context) error {
	for _, p := range demoAdminPrototypes {
		doc := l.prototypeDoc(p)
		if id, ok := l.ids[p.Key]; ok {
			if _, err := l.protos.UpdateVoucherPrototype(l.staff, id, doc, false); err != nil {
				return seedErr("voucher prototype "+p.Key, err)
			}
			l.tally.add("voucher prototypes given every administration field", 1)
			continue
		}
		created, err := l.protos.CreateVoucherPrototype(l.staff, doc)
		if err != nil {
			return seedErr("voucher prototype "+p.Key, err)
		}
		l.ids[p.Key] = created.ID
		l.tally.add("voucher prototypes created", 1)
	}
	return nil
}

func (l *demoAdminLoader) loadOptionCategories(ctx context.Context) error {
	for _, c := range demoOptionCategories {
		doc := domain.Doc{"partner_uuid": l.partners[c.Partner].UUID.String(), "ranking": json.Number(fmt.Sprint(c.Ranking))}
		if c.Min != nil {
			doc["min_number_options"] = json.Number(fmt.Sprint(*c.Min))
		}
		if c.Max != nil {
			doc["max_number_options"] = json.Number(fmt.Sprint(*c.Max))
		}
		addTexts(doc, "name", c.Name)
		addTexts(doc, "description", c.Description)
		created, err := l.protos.CreateOptionCategory(l.staff, doc)
		if err != nil {
			return seedErr("option category "+c.Key, err)
		}
		l.ids[c.Key] = created.ID
		l.tally.add("option categories", 1)
	}
	return nil
}

func (l *demoAdminLoader) loadOptions(ctx context.Context) error {
	for _, o := range demoOptions {
		doc := domain.Doc{"partner_uuid": l.partners[o.Partner].UUID.String(), "price": o.Price,
			"selling_price": o.SellingPrice, "countable": o.Countable, "is_global": o.Global,
			"ranking": json.Number(fmt.Sprint(o.Ranking))}
		if o.Category != "" {
			doc["category"] = json.Number(fmt.Sprint(l.id(o.Category)))
		}
		addTexts(doc, "name", o.Name)
		addTexts(doc, "description", o.Description)
		services := make([]any, len(o.Services))
		for i, s := range o.Services {
			services[i] = map[string]any{"service_cost": s[0], "service_buying_vat": s[1],
				"service_selling_vat": s[2], "service_price": s[3]}
		}
		doc["services_info"] = services
		created, err := l.protos.CreateOption(l.staff, doc)
		if err != nil {
			return seedErr("option "+o.Key, err)
		}
		l.ids[o.Key] = created.ID
		l.tally.add("options", 1)
	}
	return nil
}

// loadOptionLinks offers options with prototypes (a global option is
// already offered with all of its partner's).
func (l *demoAdminLoader) loadOptionLinks(ctx context.Context) error {
	for _, k := range demoOptionLinks {
		if _, err := l.protos.SetPrototypeOption(l.staff, l.id(k.Prototype), l.id(k.Option), k.Count, k.Included); err != nil {
			return seedErr(fmt.Sprintf("option %s of the prototype %s", k.Option, k.Prototype), err)
		}
		if k.Included {
			l.tally.add("options included in a prototype", 1)
		} else {
			l.tally.add("options offered with a prototype", 1)
		}
	}
	return nil
}

func (l *demoAdminLoader) loadCustomers(ctx context.Context) error {
	for _, v := range demoAdminVouchers {
		partner := l.partners[demoAdminPrototypeOf(v.Prototype).Partner].ID
		for _, c := range []demoCustomer{v.Gifter, v.Giftee} {
			key := "customer/" + c.Email
			if _, ok := l.ids[key]; ok {
				continue
			}
			var id int64
			err := l.tx.NewRaw(`INSERT INTO customers (partner_id, first_name, last_name, email, created_on)
				VALUES (?, ?, ?, ?, ?) RETURNING id`, partner, c.First, c.Last, c.Email,
				l.now.AddDate(0, 0, -v.BoughtDaysAgo)).Scan(ctx, &id)
			if err != nil {
				return seedErr("customer "+c.Email, err)
			}
			l.ids[key] = id
			l.tally.add("customers", 1)
		}
	}
	return nil
}

// loadVouchers issues each voucher, records what its sale would have
// (customers, coupon, origin, purchase date), then moves it through its
// states as the partner's user.
func (l *demoAdminLoader) loadVouchers(ctx context.Context) error {
	for i, d := range demoAdminVouchers {
		proto := demoAdminPrototypeOf(d.Prototype)
		in := vouchers.IssueVoucherInput{VoucherPrototypeID: l.id(d.Prototype), TotalPrice: d.Price,
			Language: &d.Language, Summary: &d.Summary, ReceptionMode: &d.ReceptionMode,
			GifterFirstName: &d.Gifter.First, GifterLastName: &d.Gifter.Last, GifterEmail: &d.Gifter.Email,
			GifteeFirstName: &d.Giftee.First, GifteeLastName: &d.Giftee.Last, GifteeEmail: &d.Giftee.Email,
			FromGifter: &d.Gifter.First, ToGiftee: &d.Giftee.First, Message: &d.Message,
			NbAdults: &d.Adults, NbChildren: &d.Children, NbNights: &d.Nights}
		expires := l.now.AddDate(0, 0, 30)
		if d.Path == nil || d.Path[len(d.Path)-1] != gifts.VoucherStateExpired {
			expires = l.now.AddDate(1, 0, -d.BoughtDaysAgo)
		}
		in.ExpirationDate = &expires
		if d.Draft {
			draft := gifts.VoucherStateDraft
			in.State = &draft
		}
		for _, o := range d.Options {
			in.Options = append(in.Options, vouchers.IssueOptionInput{OptionID: l.id(o.Option), Count: o.Count, TotalPrice: o.Price})
		}
		what := fmt.Sprintf("voucher %d (%s)", i+1, d.Prototype)
		v, err := l.vouchers.IssueVoucher(l.staff, in)
		if err != nil {
			return seedErr(what, err)
		}
		bought := l.now.AddDate(0, 0, -d.BoughtDaysAgo)
		var coupon *int64
		if d.Coupon != "" {
			id, err := l.coupon(ctx, proto.Partner, d.Coupon)
			if err != nil {
				return err
			}
			coupon = &id
		}
		site := demoPartnerByKey(proto.Partner).Domain
		_, err = l.tx.NewRaw(`UPDATE vouchers SET gifter_id = ?, giftee_id = ?, coupon_id = ?,
				origin = 'purchase_site', origin_url = ?, payment_type = ?, purchase_price = total_price,
				gifter_civility = ?, gifter_city = ?, gifter_country = ?, gifter_mobile_phone = ?,
				creation_date = ?, activation_date = CASE WHEN activation_date IS NULL THEN NULL ELSE ?::timestamptz END
			WHERE id = ?`,
			l.id("customer/"+d.Gifter.Email), l.id("customer/"+d.Giftee.Email), coupon,
			"https://"+site+"/"+d.Language+"/bons-cadeaux/", d.Payment, d.Gifter.Civility, d.Gifter.City,
			d.Gifter.Country, d.Gifter.Phone, bought, bought, v.ID).Exec(ctx)
		if err != nil {
			return seedErr(what+": sale details", err)
		}
		partnerCtx, err := l.partnerCtx(ctx, proto.Partner)
		if err != nil {
			return err
		}
		for _, state := range d.Path {
			if v, err = l.vouchers.UpdateVoucherState(partnerCtx, v.Code, domain.Doc{"state": state}); err != nil {
				return seedErr(fmt.Sprintf("%s: state %s", what, state), err)
			}
			l.tally.add("voucher state changes (with their history)", 1)
		}
		if v.State == gifts.VoucherStateExpired {
			// It expired a month ago; the service only issues live vouchers.
			if _, err := l.tx.NewRaw("UPDATE vouchers SET expiration_date = ? WHERE id = ?",
				l.now.AddDate(0, -1, 0), v.ID).Exec(ctx); err != nil {
				return seedErr(what+": expiration date", err)
			}
		}
		l.codes[v.State] = append(l.codes[v.State], v.Code)
		l.tally.add("vouchers, in every state (codes below)", 1)
	}
	return nil
}

// coupon is the id of the partner's coupon, inserted at its first use.
func (l *demoAdminLoader) coupon(ctx context.Context, partner, code string) (int64, error) {
	key := "coupon/" + partner + "/" + code
	if id, ok := l.ids[key]; ok {
		return id, nil
	}
	for _, c := range demoCoupons {
		if c.Partner != partner || c.Code != code {
			continue
		}
		protos := []int64{}
		for _, p := range demoAdminPrototypes {
			if p.Partner == partner {
				protos = append(protos, l.id(p.Key))
			}
		}
		var id int64
		err := l.tx.NewRaw(`INSERT INTO coupons (partner_id, code, type, discount_text, discount, discount_type,
				max_usage, start_date, end_date, voucher_prototypes_ids, activate_for_vouchers, activate_for_giftcards,
				giftee_email_reception_mode, print_at_home_reception_mode)
			VALUES (?, ?, 'discount', ?, ?, ?, ?, ?, ?, ?, true, ?, true, true) RETURNING id`,
			l.partners[partner].ID, c.Code, c.Text, c.Discount, c.DiscountType, c.MaxUsage,
			l.now.AddDate(0, -3, 0), l.now.AddDate(0, 9, 0), pgdialect.Array(protos), c.Giftcards).Scan(ctx, &id)
		if err != nil {
			return 0, seedErr("coupon "+code, err)
		}
		l.ids[key] = id
		l.tally.add("coupons", 1)
		return id, nil
	}
	panic("demo dataset: no coupon " + code + " of " + partner)
}

// loadCoupons inserts the coupons no voucher used. (The marker coupon may
// come earlier: the whole load is one transaction.)
func (l *demoAdminLoader) loadCoupons(ctx context.Context) error {
	for _, c := range demoCoupons {
		if _, err := l.coupon(ctx, c.Partner, c.Code); err != nil {
			return err
		}
	}
	return nil
}

func (l *demoAdminLoader) loadGiftcards(ctx context.Context) error {
	for _, g := range demoAdminGiftcards {
		expires := l.now.AddDate(1, 0, 0)
		in := vouchers.IssueGiftcardInput{GiftcardPrototypeID: l.id(g.Prototype), Value: g.Value, ExpiresOn: &expires,
			GifterFirstName: &g.Gifter[0], GifterLastName: &g.Gifter[1]}
		if g.Draft {
			draft := gifts.GiftStatusDraft
			in.Status = &draft
		}
		created, err := l.vouchers.IssueGiftcard(l.staff, in)
		if err != nil {
			return seedErr("giftcard of "+g.Gifter[0]+" "+g.Gifter[1], err)
		}
		l.giftcards = append(l.giftcards, created.Code)
		l.tally.add("giftcards issued", 1)
	}
	return nil
}

// report prints what the load created and the codes of the vouchers, by
// state, and of the giftcards: they are generated, so only shown now.
func (l *demoAdminLoader) report(out io.Writer, baseURL string) {
	fmt.Fprintln(out, "Loaded the demo administration data:")
	for _, line := range l.tally.lines() {
		fmt.Fprintln(out, "  "+line)
	}
	fmt.Fprintf(out, "Voucher codes by state (GET %s/api/vouchers/{code}/ with a token of the seller or of %s):\n", baseURL, demoStaff.Username)
	for _, state := range vouchers.VoucherStates {
		fmt.Fprintf(out, "  %-6s %s\n", state, strings.Join(l.codes[state], " "))
	}
	fmt.Fprintf(out, "Giftcard codes: %s\n", strings.Join(l.giftcards, " "))
}

func addTexts(doc domain.Doc, prefix string, texts domain.Localized) {
	for lang, s := range texts {
		doc[prefix+"_"+lang] = s
	}
}

func demoPartnerByKey(key string) *demoPartner {
	for i := range demoPartners {
		if demoPartners[i].Key == key {
			return &demoPartners[i]
		}
	}
	panic("demo dataset: no partner " + key)
}

func demoAdminPrototypeOf(key string) demoAdminPrototype {
	for _, p := range demoAdminPrototypes {
		if p.Key == key {
			return p
		}
	}
	panic("demo dataset: no voucher prototype " + key)
}

// The administration dataset. Texts are in the eight languages; a
// voucher's message is in the voucher's language, as its buyer wrote it.

type demoEnvironment struct {
	Key  string
	Name domain.Localized
}

// demoAdminPrototype is the administration record of a voucher prototype:
// a catalogue prototype's key (Name nil: the catalogue's) or a new one.
type demoAdminPrototype struct {
	Key, Partner, Universe, Environment string
	Name                                domain.Localized // nil for a catalogue prototype
	Type                                string
	Highlight                           bool
	PriceScope, Ranking                 int
	MinCapacity, MaxCapacity            int
	StayPrice                           string
	AdultsPrice, ChildrenPrice          string
	BabyPrice                           string
	Images                              [][2]color.RGBA // gradients, the last is the cover
	Description, LongDescription        domain.Localized
	RentConditions, HowToBookHTML       domain.Localized
	PDFDescription                      domain.Localized
}

type demoOptionCategory struct {
	Key, Partner      string
	Ranking           int
	Min, Max          *int
	Name, Description domain.Localized
}

type demoOption struct {
	Key, Partner, Category string
	Price, SellingPrice    string
	Countable, Global      bool
	Ranking                int
	Services               [][4]string // cost, buying VAT, selling VAT, price
	Name, Description      domain.Localized
}

type demoOptionLink struct {
	Prototype, Option string
	Count             int
	Included          bool
}

type demoCoupon struct {
	Partner, Code, Text    string
	Discount, DiscountType string
	MaxUsage               int
	Giftcards              bool
}

type demoCustomer struct {
	First, Last, Email, Civility, City, Country, Phone string
}

type demoBoughtOption struct {
	Option string
	Count  int
	Price  string
}

// demoAdminVoucher is a voucher sold BoughtDaysAgo: issued in draft or
// paid, then moved along Path (VoucherTransitions).
type demoAdminVoucher struct {
	Prototype, Language, Price string
	Draft                      bool
	Path                       []string
	BoughtDaysAgo              int
	Gifter, Giftee             demoCustomer
	Summary, Message, Payment  string
	Coupon                     string
	ReceptionMode              int
	Adults, Children, Nights   int
	Options                    []demoBoughtOption
}

type demoAdminGiftcard struct {
	Prototype, Value string
	Draft            bool
	Gifter           [2]string
}

func demoInt(n int) *int { return &n }

var demoEnvironments = []demoEnvironment{
	{Key: "riverside", Name: domain.Localized{"fr": "Au bord de l'eau", "en": "By the water", "es": "Junto al agua",
		"it": "In riva all'acqua", "de": "Am Wasser", "nl": "Aan het water", "ca": "Vora l'aigua", "pt": "À beira da água"}},
	{Key: "vineyard", Name: domain.Localized{"fr": "Dans les vignes", "en": "Among the vineyards", "es": "Entre viñedos",
		"it": "Tra i vigneti", "de": "In den Weinbergen", "nl": "Tussen de wijngaarden", "ca": "Entre vinyes", "pt": "Entre vinhas"}},
	{Key: "countryside", Name: domain.Localized{"fr": "À la campagne", "en": "In the countryside", "es": "En el campo",
		"it": "In campagna", "de": "Auf dem Land", "nl": "Op het platteland", "ca": "Al camp", "pt": "No campo"}},
	{Key: "city", Name: domain.Localized{"fr": "En ville", "en": "In town", "es": "En la ciudad",
		"it": "In città", "de": "In der Stadt", "nl": "In de stad", "ca": "A la ciutat", "pt": "Na cidade"}},
}

var (
	demoChateauRent = domain.Localized{
		"fr": "Bon valable 12 mois, sur réservation, hors 24 et 31 décembre. Non remboursable après 14 jours.",
		"en": "Voucher valid for 12 months, on booking, except 24 and 31 December. Not refundable after 14 days.",
		"es": "Bono válido 12 meses, con reserva, excepto el 24 y el 31 de diciembre. No reembolsable pasados 14 días.",
		"it": "Buono valido 12 mesi, su prenotazione, esclusi il 24 e il 31 dicembre. Non rimborsabile dopo 14 giorni.",
		"de": "Gutschein 12 Monate gültig, nach Reservierung, außer am 24. und 31. Dezember. Nach 14 Tagen nicht erstattbar.",
		"nl": "Bon 12 maanden geldig, op reservering, behalve op 24 en 31 december. Niet terugbetaalbaar na 14 dagen.",
		"ca": "Val vàlid 12 mesos, amb reserva, excepte el 24 i el 31 de desembre. No reemborsable passats 14 dies.",
		"pt": "Vale válido 12 meses, mediante reserva, exceto a 24 e 31 de dezembro. Não reembolsável após 14 dias.",
	}
	demoChateauHowToBook = domain.Localized{
		"fr": "<p>Réservez au <strong>02 61 91 12 35</strong> ou sur chateau.localhost en indiquant le code du bon.</p>",
		"en": "<p>Book on <strong>+33 2 61 91 12 35</strong> or at chateau.localhost, giving the voucher code.</p>",
		"es": "<p>Reserva en el <strong>+33 2 61 91 12 35</strong> o en chateau.localhost indicando el código del bono.</p>",
		"it": "<p>Prenota al <strong>+33 2 61 91 12 35</strong> o su chateau.localhost indicando il codice del buono.</p>",
		"de": "<p>Reservieren Sie unter <strong>+33 2 61 91 12 35</strong> oder auf chateau.localhost mit dem Gutscheincode.</p>",
		"nl": "<p>Reserveer via <strong>+33 2 61 91 12 35</strong> of op chateau.localhost met de code van de bon.</p>",
		"ca": "<p>Reserva al <strong>+33 2 61 91 12 35</strong> o a chateau.localhost indicant el codi del val.</p>",
		"pt": "<p>Reserve pelo <strong>+33 2 61 91 12 35</strong> ou em chateau.localhost indicando o código do vale.</p>",
	}
	demoAtelierRent = domain.Localized{
		"fr": "Bon valable 12 mois, sur réservation d'une séance. Report gratuit jusqu'à 72 h avant.",
		"en": "Voucher valid for 12 months, on booking a session. Free rescheduling up to 72 hours before.",
		"es": "Bono válido 12 meses, reservando una sesión. Cambio gratuito hasta 72 horas antes.",
		"it": "Buono valido 12 mesi, prenotando una sessione. Spostamento gratuito fino a 72 ore prima.",
		"de": "Gutschein 12 Monate gültig, nach Buchung eines Termins. Kostenlose Umbuchung bis 72 Stunden vorher.",
		"nl": "Bon 12 maanden geldig, op reservering van een sessie. Gratis omboeken tot 72 uur vooraf.",
		"ca": "Val vàlid 12 mesos, reservant una sessió. Canvi gratuït fins a 72 hores abans.",
		"pt": "Vale válido 12 meses, mediante reserva de uma sessão. Reagendamento gratuito até 72 horas antes.",
	}
	demoAtelierHowToBook = domain.Localized{
		"fr": "<p>Choisissez une séance sur <a href=\"https://atelier.localhost/ateliers/\">atelier.localhost</a> et saisissez le code du bon au paiement.</p>",
		"en": "<p>Choose a session at <a href=\"https://atelier.localhost/ateliers/\">atelier.localhost</a> and enter the voucher code at checkout.</p>",
		"es": "<p>Elige una sesión en <a href=\"https://atelier.localhost/ateliers/\">atelier.localhost</a> e introduce el código del bono al pagar.</p>",
		"it": "<p>Scegli una sessione su <a href=\"https://atelier.localhost/ateliers/\">atelier.localhost</a> e inserisci il codice del buono al pagamento.</p>",
		"de": "<p>Wählen Sie einen Termin auf <a href=\"https://atelier.localhost/ateliers/\">atelier.localhost</a> und geben Sie den Gutscheincode an der Kasse ein.</p>",
		"nl": "<p>Kies een sessie op <a href=\"https://atelier.localhost/ateliers/\">atelier.localhost</a> en vul de code van de bon in bij het afrekenen.</p>",
		"ca": "<p>Tria una sessió a <a href=\"https://atelier.localhost/ateliers/\">atelier.localhost</a> i introdueix el codi del val en pagar.</p>",
		"pt": "<p>Escolha uma sessão em <a href=\"https://atelier.localhost/ateliers/\">atelier.localhost</a> e introduza o código do vale no pagamento.</p>",
	}
)

// Colours of the generated images.
var (
	demoWine   = color.RGBA{0x7B, 0x1E, 0x3A, 0xFF}
	demoGold   = color.RGBA{0xC9, 0xA2, 0x27, 0xFF}
	demoStone  = color.RGBA{0xE9, 0xDF, 0xD0, 0xFF}
	demoLoire  = color.RGBA{0x2E, 0x6F, 0x95, 0xFF}
	demoVine   = color.RGBA{0x55, 0x7A, 0x2F, 0xFF}
	demoNight  = color.RGBA{0x1B, 0x1F, 0x3B, 0xFF}
	demoClay   = color.RGBA{0xB8, 0x5C, 0x38, 0xFF}
	demoGlaze  = color.RGBA{0x6F, 0xA8, 0x9A, 0xFF}
	demoCobalt = color.RGBA{0x1F, 0x3F, 0x8F, 0xFF}
)

// demoAdminPrototypes: the catalogue's four prototypes given every
// administration field, and a stay created through the service.
var demoAdminPrototypes = []demoAdminPrototype{
	{Key: "private-tour", Partner: "chateau", Universe: "castle-tours", Environment: "riverside", Type: "standard",
		Highlight: true, PriceScope: 1, Ranking: 1, MinCapacity: 2, MaxCapacity: 2,
		StayPrice: "120.00", AdultsPrice: "60.00", ChildrenPrice: "30.00", BabyPrice: "0.00",
		Images: [][2]color.RGBA{{demoStone, demoWine}, {demoLoire, demoGold}},
		Description: domain.Localized{
			"fr": "Une visite privée de deux heures, des cuisines aux tours.",
			"en": "A two-hour private tour, from the kitchens to the towers.",
			"es": "Una visita privada de dos horas, de las cocinas a las torres.",
			"it": "Una visita privata di due ore, dalle cucine alle torri.",
			"de": "Eine zweistündige Privatführung, von den Küchen bis zu den Türmen.",
			"nl": "Een privérondleiding van twee uur, van de keukens tot de torens.",
			"ca": "Una visita privada de dues hores, de les cuines a les torres.",
			"pt": "Uma visita privada de duas horas, das cozinhas às torres.",
		},
		LongDescription: domain.Localized{
			"fr": "Un guide vous ouvre les salles fermées au public : la chambre du roi, la bibliothèque et le chemin de ronde. La visite se termine sur la terrasse, face à la Loire.",
			"en": "A guide opens the rooms closed to the public: the king's bedchamber, the library and the wall walk. The tour ends on the terrace, overlooking the Loire.",
			"es": "Un guía os abre las salas cerradas al público: la alcoba del rey, la biblioteca y el camino de ronda. La visita termina en la terraza, frente al Loira.",
			"it": "Una guida vi apre le sale chiuse al pubblico: la camera del re, la biblioteca e il cammino di ronda. La visita termina sulla terrazza, di fronte alla Loira.",
			"de": "Ein Guide öffnet Ihnen die für die Öffentlichkeit geschlossenen Räume: das Königsgemach, die Bibliothek und den Wehrgang. Die Führung endet auf der Terrasse mit Blick auf die Loire.",
			"nl": "Een gids opent de zalen die voor het publiek gesloten zijn: de koningskamer, de bibliotheek en de weergang. De rondleiding eindigt op het terras met uitzicht op de Loire.",
			"ca": "Un guia us obre les sales tancades al públic: la cambra del rei, la biblioteca i el camí de ronda. La visita acaba a la terrassa, davant del Loira.",
			"pt": "Um guia abre-lhe as salas fechadas ao público: o quarto do rei, a biblioteca e o caminho de ronda. A visita termina no terraço, com vista para o Loire.",
		},
		RentConditions: demoChateauRent, HowToBookHTML: demoChateauHowToBook,
		PDFDescription: domain.Localized{
			"fr": "Visite privée du château pour deux personnes, environ 2 h.",
			"en": "Private château tour for two people, about 2 hours.",
			"es": "Visita privada del castillo para dos personas, unas 2 h.",
			"it": "Visita privata del castello per due persone, circa 2 ore.",
			"de": "Private Schlossführung für zwei Personen, etwa 2 Stunden.",
			"nl": "Privérondleiding door het kasteel voor twee personen, ongeveer 2 uur.",
			"ca": "Visita privada del castell per a dues persones, unes 2 h.",
			"pt": "Visita privada ao castelo para duas pessoas, cerca de 2 h.",
		}},
	{Key: "three-wines", Partner: "chateau", Universe: "tastings", Environment: "vineyard", Type: "standard",
		PriceScope: 2, Ranking: 2, MinCapacity: 1, MaxCapacity: 6,
		StayPrice: "35.00", AdultsPrice: "35.00", ChildrenPrice: "12.00", BabyPrice: "0.00",
		Images: [][2]color.RGBA{{demoVine, demoGold}, {demoWine, demoVine}},
		Description: domain.Localized{
			"fr": "Trois crus de Loire commentés par notre caviste, dans les caves du château.",
			"en": "Three Loire wines presented by our cellar master, in the château's cellars.",
			"es": "Tres vinos del Loira comentados por nuestro bodeguero, en las bodegas del castillo.",
			"it": "Tre vini della Loira presentati dal nostro cantiniere, nelle cantine del castello.",
			"de": "Drei Loire-Weine, vorgestellt von unserem Kellermeister in den Kellern des Schlosses.",
			"nl": "Drie Loirewijnen, toegelicht door onze keldermeester in de kelders van het kasteel.",
			"ca": "Tres vins del Loira comentats pel nostre cellerer, als cellers del castell.",
			"pt": "Três vinhos do Loire apresentados pelo nosso escanção, nas caves do castelo.",
		},
		LongDescription: domain.Localized{
			"fr": "Un vouvray, un chinon et un crémant, servis avec des fromages de chèvre de Touraine. Les enfants goûtent nos jus de raisin.",
			"en": "A Vouvray, a Chinon and a Crémant, served with Touraine goat's cheeses. Children taste our grape juices.",
			"es": "Un vouvray, un chinon y un crémant, servidos con quesos de cabra de Turena. Los niños prueban nuestros zumos de uva.",
			"it": "Un vouvray, un chinon e un crémant, serviti con formaggi di capra della Turenna. I bambini assaggiano i nostri succhi d'uva.",
			"de": "Ein Vouvray, ein Chinon und ein Crémant, dazu Ziegenkäse aus der Touraine. Kinder probieren unsere Traubensäfte.",
			"nl": "Een vouvray, een chinon en een crémant, geserveerd met geitenkazen uit de Touraine. Kinderen proeven onze druivensappen.",
			"ca": "Un vouvray, un chinon i un crémant, servits amb formatges de cabra de Turena. Els infants tasten els nostres sucs de raïm.",
			"pt": "Um vouvray, um chinon e um crémant, servidos com queijos de cabra da Touraine. As crianças provam os nossos sumos de uva.",
		},
		RentConditions: demoChateauRent, HowToBookHTML: demoChateauHowToBook,
		PDFDescription: domain.Localized{
			"fr": "Dégustation de trois vins de Loire et fromages, environ 1 h.",
			"en": "Tasting of three Loire wines with cheeses, about 1 hour.",
			"es": "Cata de tres vinos del Loira con quesos, alrededor de 1 h.",
			"it": "Degustazione di tre vini della Loira con formaggi, circa 1 ora.",
			"de": "Verkostung von drei Loire-Weinen mit Käse, etwa 1 Stunde.",
			"nl": "Proeverij van drie Loirewijnen met kaas, ongeveer 1 uur.",
			"ca": "Tast de tres vins del Loira amb formatges, aproximadament 1 h.",
			"pt": "Prova de três vinhos do Loire com queijos, cerca de 1 h.",
		}},
	{Key: "tower-night", Partner: "chateau", Universe: "castle-tours", Environment: "countryside", Type: "stay",
		Highlight: true, PriceScope: 2, Ranking: 3, MinCapacity: 1, MaxCapacity: 4,
		StayPrice: "290.00", AdultsPrice: "110.00", ChildrenPrice: "45.00", BabyPrice: "0.00",
		Name: domain.Localized{
			"fr": "Une nuit dans la tour de guet", "en": "A night in the watchtower",
			"es": "Una noche en la torre del vigía", "it": "Una notte nella torre di guardia",
			"de": "Eine Nacht im Wachturm", "nl": "Een nacht in de wachttoren",
			"ca": "Una nit a la torre de guaita", "pt": "Uma noite na torre de vigia",
		},
		Images: [][2]color.RGBA{{demoNight, demoLoire}, {demoNight, demoGold}, {demoStone, demoNight}},
		Description: domain.Localized{
			"fr": "Une nuit dans la chambre de la tour, petit-déjeuner compris.",
			"en": "A night in the tower room, breakfast included.",
			"es": "Una noche en la habitación de la torre, desayuno incluido.",
			"it": "Una notte nella camera della torre, colazione inclusa.",
			"de": "Eine Nacht im Turmzimmer, Frühstück inklusive.",
			"nl": "Een nacht in de torenkamer, ontbijt inbegrepen.",
			"ca": "Una nit a l'habitació de la torre, esmorzar inclòs.",
			"pt": "Uma noite no quarto da torre, pequeno-almoço incluído.",
		},
		LongDescription: domain.Localized{
			"fr": "La chambre occupe le dernier étage de la tour de guet, avec vue sur la Loire. Visite libre du château et petit-déjeuner au champagne pour deux.",
			"en": "The room takes up the top floor of the watchtower, with a view of the Loire. Free visit of the château and a champagne breakfast for two.",
			"es": "La habitación ocupa el último piso de la torre del vigía, con vistas al Loira. Visita libre del castillo y desayuno con champán para dos.",
			"it": "La camera occupa l'ultimo piano della torre di guardia, con vista sulla Loira. Visita libera del castello e colazione con champagne per due.",
			"de": "Das Zimmer nimmt das oberste Stockwerk des Wachturms ein, mit Blick auf die Loire. Freie Besichtigung des Schlosses und Champagnerfrühstück für zwei.",
			"nl": "De kamer beslaat de bovenste verdieping van de wachttoren, met uitzicht op de Loire. Vrij bezoek aan het kasteel en een champagneontbijt voor twee.",
			"ca": "L'habitació ocupa l'últim pis de la torre de guaita, amb vistes al Loira. Visita lliure del castell i esmorzar amb xampany per a dos.",
			"pt": "O quarto ocupa o último andar da torre de vigia, com vista para o Loire. Visita livre ao castelo e pequeno-almoço com champanhe para dois.",
		},
		RentConditions: demoChateauRent, HowToBookHTML: demoChateauHowToBook,
		PDFDescription: domain.Localized{
			"fr": "Une nuit pour deux dans la tour de guet, petit-déjeuner au champagne compris.",
			"en": "One night for two in the watchtower, champagne breakfast included.",
			"es": "Una noche para dos en la torre del vigía, desayuno con champán incluido.",
			"it": "Una notte per due nella torre di guardia, colazione con champagne inclusa.",
			"de": "Eine Nacht für zwei im Wachturm, Champagnerfrühstück inklusive.",
			"nl": "Eén nacht voor twee in de wachttoren, champagneontbijt inbegrepen.",
			"ca": "Una nit per a dos a la torre de guaita, esmorzar amb xampany inclòs.",
			"pt": "Uma noite para dois na torre de vigia, pequeno-almoço com champanhe incluído.",
		}},
	{Key: "throwing-lesson", Partner: "atelier", Universe: "ceramics", Environment: "city", Type: "standard",
		Highlight: true, PriceScope: 1, Ranking: 1, MinCapacity: 1, MaxCapacity: 1,
		StayPrice: "65.00", AdultsPrice: "65.00", ChildrenPrice: "50.00", BabyPrice: "0.00",
		Images: [][2]color.RGBA{{demoClay, demoStone}, {demoGlaze, demoClay}},
		Description: domain.Localized{
			"fr": "Deux heures au tour pour centrer la terre et monter ses premiers bols.",
			"en": "Two hours at the wheel to centre the clay and throw your first bowls.",
			"es": "Dos horas en el torno para centrar el barro y tornear tus primeros cuencos.",
			"it": "Due ore al tornio per centrare l'argilla e tornire le prime ciotole.",
			"de": "Zwei Stunden an der Scheibe: Ton zentrieren und die ersten Schalen drehen.",
			"nl": "Twee uur aan de draaischijf om de klei te centreren en je eerste kommen te draaien.",
			"ca": "Dues hores al torn per centrar el fang i tornejar els primers bols.",
			"pt": "Duas horas na roda para centrar o barro e tornear as primeiras taças.",
		},
		LongDescription: domain.Localized{
			"fr": "En petit groupe, Maëlle vous apprend à centrer, ouvrir et monter la terre. Vos deux plus belles pièces sont émaillées et cuites pour vous.",
			"en": "In a small group, Maëlle teaches you to centre, open and pull up the clay. Your two best pieces are glazed and fired for you.",
			"es": "En grupo reducido, Maëlle te enseña a centrar, abrir y subir el barro. Tus dos mejores piezas se esmaltan y se cuecen para ti.",
			"it": "In piccolo gruppo, Maëlle ti insegna a centrare, aprire e tirare su l'argilla. I tuoi due pezzi migliori vengono smaltati e cotti per te.",
			"de": "In einer kleinen Gruppe zeigt Ihnen Maëlle, wie man Ton zentriert, öffnet und hochzieht. Ihre zwei schönsten Stücke werden für Sie glasiert und gebrannt.",
			"nl": "In een kleine groep leert Maëlle je de klei te centreren, te openen en op te trekken. Je twee mooiste stukken worden voor je geglazuurd en gebakken.",
			"ca": "En grup reduït, la Maëlle t'ensenya a centrar, obrir i pujar el fang. Les teves dues millors peces s'esmalten i es couen per a tu.",
			"pt": "Em pequeno grupo, a Maëlle ensina-lhe a centrar, abrir e levantar o barro. As suas duas melhores peças são vidradas e cozidas para si.",
		},
		RentConditions: demoAtelierRent, HowToBookHTML: demoAtelierHowToBook,
		PDFDescription: domain.Localized{
			"fr": "Initiation au tournage de 2 h, deux pièces émaillées et cuites.",
			"en": "2-hour wheel-throwing introduction, two pieces glazed and fired.",
			"es": "Iniciación al torno de 2 h, dos piezas esmaltadas y cocidas.",
			"it": "Introduzione al tornio di 2 ore, due pezzi smaltati e cotti.",
			"de": "2-stündige Einführung an der Töpferscheibe, zwei glasierte und gebrannte Stücke.",
			"nl": "Kennismaking met pottendraaien van 2 uur, twee geglazuurde en gebakken stukken.",
			"ca": "Iniciació al torn de 2 h, dues peces esmaltades i cuites.",
			"pt": "Iniciação à roda de 2 h, duas peças vidradas e cozidas.",
		}},
	{Key: "parent-child", Partner: "atelier", Universe: "ceramics", Environment: "city", Type: "fixed_stay",
		PriceScope: 2, Ranking: 2, MinCapacity: 2, MaxCapacity: 3,
		StayPrice: "85.00", AdultsPrice: "45.00", ChildrenPrice: "40.00", BabyPrice: "0.00",
		Images: [][2]color.RGBA{{demoGlaze, demoStone}, {demoCobalt, demoGlaze}},
		Description: domain.Localized{
			"fr": "Un atelier de modelage à quatre mains, pour un adulte et un enfant dès 6 ans.",
			"en": "A four-handed hand-building workshop, for one adult and one child aged 6 and up.",
			"es": "Un taller de modelado a cuatro manos, para un adulto y un niño a partir de 6 años.",
			"it": "Un laboratorio di modellazione a quattro mani, per un adulto e un bambino dai 6 anni.",
			"de": "Ein Modellierkurs zu viert Händen, für einen Erwachsenen und ein Kind ab 6 Jahren.",
			"nl": "Een boetseerworkshop met vier handen, voor een volwassene en een kind vanaf 6 jaar.",
			"ca": "Un taller de modelatge a quatre mans, per a un adult i un infant a partir de 6 anys.",
			"pt": "Uma oficina de modelação a quatro mãos, para um adulto e uma criança a partir dos 6 anos.",
		},
		LongDescription: domain.Localized{
			"fr": "Ensemble, vous façonnez une tasse et un petit animal à la plaque et au colombin. Les pièces sont cuites et prêtes trois semaines plus tard.",
			"en": "Together you shape a mug and a small animal with slabs and coils. The pieces are fired and ready three weeks later.",
			"es": "Juntos dais forma a una taza y a un animalito con placas y churros. Las piezas se cuecen y están listas tres semanas después.",
			"it": "Insieme modellate una tazza e un piccolo animale a lastra e a colombino. I pezzi vengono cotti e sono pronti tre settimane dopo.",
			"de": "Gemeinsam formen Sie mit Platten und Wülsten eine Tasse und ein kleines Tier. Die Stücke werden gebrannt und sind drei Wochen später fertig.",
			"nl": "Samen maak je met plaatjes en rollen een mok en een klein dier. De stukken worden gebakken en zijn drie weken later klaar.",
			"ca": "Junts doneu forma a una tassa i a un animalet amb planxes i xurros. Les peces es couen i són a punt tres setmanes després.",
			"pt": "Juntos moldam uma caneca e um pequeno animal com placas e rolos. As peças são cozidas e ficam prontas três semanas depois.",
		},
		RentConditions: demoAtelierRent, HowToBookHTML: demoAtelierHowToBook,
		PDFDescription: domain.Localized{
			"fr": "Atelier modelage parent-enfant de 1 h 30, pièces cuites comprises.",
			"en": "90-minute parent and child hand-building workshop, firing included.",
			"es": "Taller de modelado para padres e hijos de 1 h 30, cocción incluida.",
			"it": "Laboratorio di modellazione genitore-figlio di 1 ora e 30, cottura inclusa.",
			"de": "90-minütiger Modellierkurs für Eltern und Kinder, Brennen inklusive.",
			"nl": "Boetseerworkshop voor ouder en kind van 1,5 uur, bakken inbegrepen.",
			"ca": "Taller de modelatge per a pares i fills d'1 h 30, cocció inclosa.",
			"pt": "Oficina de modelação para pais e filhos de 1 h 30, cozedura incluída.",
		}},
}

var demoOptionCategories = []demoOptionCategory{
	{Key: "gourmet", Partner: "chateau", Ranking: 1, Min: demoInt(0), Max: demoInt(2),
		Name: domain.Localized{"fr": "Extras gourmands", "en": "Gourmet extras", "es": "Extras gastronómicos",
			"it": "Extra golosi", "de": "Genuss-Extras", "nl": "Culinaire extra's", "ca": "Extres gurmets", "pt": "Extras gourmet"},
		Description: domain.Localized{"fr": "Jusqu'à deux douceurs pour prolonger le moment.",
			"en": "Up to two treats to make the moment last.", "es": "Hasta dos caprichos para alargar el momento.",
			"it": "Fino a due golosità per prolungare il momento.", "de": "Bis zu zwei Genüsse, die den Moment verlängern.",
			"nl": "Tot twee lekkernijen om het moment te rekken.", "ca": "Fins a dos capricis per allargar el moment.",
			"pt": "Até dois mimos para prolongar o momento."}},
	{Key: "glazes", Partner: "atelier", Ranking: 1, Min: demoInt(1), Max: demoInt(1),
		Name: domain.Localized{"fr": "Émail de vos pièces", "en": "Glaze of your pieces", "es": "Esmalte de tus piezas",
			"it": "Smalto dei tuoi pezzi", "de": "Glasur Ihrer Stücke", "nl": "Glazuur van je stukken", "ca": "Esmalt de les teves peces",
			"pt": "Vidrado das suas peças"},
		Description: domain.Localized{"fr": "Choisissez un émail, et un seul.", "en": "Choose one glaze, and one only.",
			"es": "Elige un esmalte, y solo uno.", "it": "Scegli uno smalto, uno solo.", "de": "Wählen Sie eine Glasur, nur eine.",
			"nl": "Kies één glazuur, en maar één.", "ca": "Tria un esmalt, i només un.", "pt": "Escolha um vidrado, e só um."}},
}

var demoOptions = []demoOption{
	{Key: "champagne-breakfast", Partner: "chateau", Category: "gourmet", Price: "18.00", SellingPrice: "25.00",
		Countable: true, Ranking: 1, Services: [][4]string{{"14.00", "10.00", "10.00", "20.00"}, {"4.00", "20.00", "20.00", "5.00"}},
		Name: domain.Localized{"fr": "Petit-déjeuner au champagne", "en": "Champagne breakfast", "es": "Desayuno con champán",
			"it": "Colazione con champagne", "de": "Champagnerfrühstück", "nl": "Champagneontbijt", "ca": "Esmorzar amb xampany",
			"pt": "Pequeno-almoço com champanhe"},
		Description: domain.Localized{"fr": "Viennoiseries, confitures maison et une coupe de champagne, par personne.",
			"en": "Pastries, home-made jams and a glass of champagne, per person.",
			"es": "Bollería, mermeladas caseras y una copa de champán, por persona.",
			"it": "Viennoiserie, marmellate fatte in casa e una coppa di champagne, a persona.",
			"de": "Gebäck, hausgemachte Konfitüren und ein Glas Champagner, pro Person.",
			"nl": "Gebak, zelfgemaakte jam en een glas champagne, per persoon.",
			"ca": "Brioixeria, melmelades casolanes i una copa de xampany, per persona.",
			"pt": "Folhados, compotas caseiras e uma taça de champanhe, por pessoa."}},
	{Key: "loire-bottle", Partner: "chateau", Category: "gourmet", Price: "9.00", SellingPrice: "16.00", Ranking: 2,
		Services: [][4]string{{"9.00", "20.00", "20.00", "16.00"}},
		Name: domain.Localized{"fr": "Bouteille de vouvray", "en": "Bottle of Vouvray", "es": "Botella de vouvray",
			"it": "Bottiglia di vouvray", "de": "Flasche Vouvray", "nl": "Fles vouvray", "ca": "Ampolla de vouvray", "pt": "Garrafa de vouvray"},
		Description: domain.Localized{"fr": "Un vouvray demi-sec du domaine, à emporter.", "en": "A medium-dry Vouvray from the estate, to take home.",
			"es": "Un vouvray semiseco de la finca, para llevar.", "it": "Un vouvray demi-sec della tenuta, da portare via.",
			"de": "Ein halbtrockener Vouvray vom Gut, zum Mitnehmen.", "nl": "Een halfdroge vouvray van het domein, om mee te nemen.",
			"ca": "Un vouvray semisec de la finca, per emportar.", "pt": "Um vouvray meio-seco da propriedade, para levar."}},
	{Key: "photo-book", Partner: "chateau", Price: "6.00", SellingPrice: "12.00", Global: true, Ranking: 3,
		Services: [][4]string{{"6.00", "5.50", "5.50", "12.00"}},
		Name: domain.Localized{"fr": "Livret souvenir du château", "en": "Château souvenir booklet", "es": "Cuaderno recuerdo del castillo",
			"it": "Libretto ricordo del castello", "de": "Erinnerungsheft des Schlosses", "nl": "Herinneringsboekje van het kasteel",
			"ca": "Quadern record del castell", "pt": "Livro de recordação do castelo"},
		Description: domain.Localized{"fr": "Quarante pages illustrées sur l'histoire du château.", "en": "Forty illustrated pages on the château's history.",
			"es": "Cuarenta páginas ilustradas sobre la historia del castillo.", "it": "Quaranta pagine illustrate sulla storia del castello.",
			"de": "Vierzig illustrierte Seiten zur Geschichte des Schlosses.", "nl": "Veertig geïllustreerde pagina's over de geschiedenis van het kasteel.",
			"ca": "Quaranta pàgines il·lustrades sobre la història del castell.", "pt": "Quarenta páginas ilustradas sobre a história do castelo."}},
	{Key: "glaze-celadon", Partner: "atelier", Category: "glazes", Price: "2.00", SellingPrice: "5.00", Ranking: 1,
		Services: [][4]string{{"2.00", "20.00", "20.00", "5.00"}},
		Name: domain.Localized{"fr": "Émail céladon", "en": "Celadon glaze", "es": "Esmalte celadón", "it": "Smalto celadon",
			"de": "Seladonglasur", "nl": "Celadonglazuur", "ca": "Esmalt celadó", "pt": "Vidrado celadon"},
		Description: domain.Localized{"fr": "Un vert d'eau translucide.", "en": "A translucent sea green.", "es": "Un verde agua translúcido.",
			"it": "Un verde acqua traslucido.", "de": "Ein durchscheinendes Wassergrün.", "nl": "Een doorschijnend zeegroen.",
			"ca": "Un verd aigua translúcid.", "pt": "Um verde-água translúcido."}},
	{Key: "glaze-cobalt", Partner: "atelier", Category: "glazes", Price: "3.00", SellingPrice: "6.00", Ranking: 2,
		Services: [][4]string{{"3.00", "20.00", "20.00", "6.00"}},
		Name: domain.Localized{"fr": "Émail bleu de cobalt", "en": "Cobalt blue glaze", "es": "Esmalte azul cobalto", "it": "Smalto blu cobalto",
			"de": "Kobaltblaue Glasur", "nl": "Kobaltblauw glazuur", "ca": "Esmalt blau cobalt", "pt": "Vidrado azul-cobalto"},
		Description: domain.Localized{"fr": "Le bleu profond des faïences de Quimper.", "en": "The deep blue of Quimper faience.",
			"es": "El azul profundo de la loza de Quimper.", "it": "Il blu profondo delle maioliche di Quimper.",
			"de": "Das tiefe Blau der Fayencen aus Quimper.", "nl": "Het diepe blauw van het aardewerk uit Quimper.",
			"ca": "El blau profund de la faiança de Quimper.", "pt": "O azul profundo da faiança de Quimper."}},
	{Key: "extra-clay", Partner: "atelier", Price: "3.00", SellingPrice: "8.00", Countable: true, Ranking: 3,
		Services: [][4]string{{"3.00", "20.00", "20.00", "8.00"}},
		Name: domain.Localized{"fr": "Kilo de terre supplémentaire", "en": "Extra kilo of clay", "es": "Kilo de barro adicional",
			"it": "Chilo di argilla in più", "de": "Zusätzliches Kilo Ton", "nl": "Extra kilo klei", "ca": "Quilo de fang addicional",
			"pt": "Quilo de barro adicional"},
		Description: domain.Localized{"fr": "De quoi tourner une pièce de plus.", "en": "Enough to throw one more piece.",
			"es": "Lo justo para tornear una pieza más.", "it": "Quanto basta per tornire un pezzo in più.",
			"de": "Genug für ein weiteres Stück.", "nl": "Genoeg om nog een stuk te draaien.", "ca": "Prou per tornejar una peça més.",
			"pt": "O suficiente para tornear mais uma peça."}},
	{Key: "home-delivery", Partner: "atelier", Price: "8.00", SellingPrice: "12.00", Global: true, Ranking: 4,
		Services: [][4]string{{"8.00", "20.00", "20.00", "12.00"}},
		Name: domain.Localized{"fr": "Livraison des pièces cuites", "en": "Delivery of the fired pieces", "es": "Envío de las piezas cocidas",
			"it": "Consegna dei pezzi cotti", "de": "Versand der gebrannten Stücke", "nl": "Levering van de gebakken stukken",
			"ca": "Enviament de les peces cuites", "pt": "Envio das peças cozidas"},
		Description: domain.Localized{"fr": "Vos pièces envoyées chez vous, bien emballées.", "en": "Your pieces sent to your home, well packed.",
			"es": "Tus piezas enviadas a casa, bien embaladas.", "it": "I tuoi pezzi spediti a casa, ben imballati.",
			"de": "Ihre Stücke gut verpackt nach Hause geschickt.", "nl": "Je stukken goed verpakt naar huis gestuurd.",
			"ca": "Les teves peces enviades a casa, ben embalades.", "pt": "As suas peças enviadas para casa, bem embaladas."}},
}

// demoOptionLinks offer options with prototypes; the global photo-book and
// home-delivery are offered with all of their partner's already.
var demoOptionLinks = []demoOptionLink{
	{Prototype: "private-tour", Option: "champagne-breakfast", Count: 2},
	{Prototype: "private-tour", Option: "loire-bottle", Count: 1},
	{Prototype: "three-wines", Option: "loire-bottle", Count: 1, Included: true},
	{Prototype: "tower-night", Option: "champagne-breakfast", Count: 2, Included: true},
	{Prototype: "tower-night", Option: "loire-bottle", Count: 1},
	{Prototype: "throwing-lesson", Option: "glaze-celadon", Count: 1},
	{Prototype: "throwing-lesson", Option: "glaze-cobalt", Count: 1},
	{Prototype: "throwing-lesson", Option: "extra-clay", Count: 1},
	{Prototype: "parent-child", Option: "glaze-celadon", Count: 1, Included: true},
	{Prototype: "parent-child", Option: "extra-clay", Count: 1},
}

var demoCoupons = []demoCoupon{
	{Partner: "chateau", Code: demoAdminMarkerCoupon, Text: "-10 % sur les bons cadeaux", Discount: "10.00",
		DiscountType: "percentage", MaxUsage: 100},
	{Partner: "atelier", Code: "TERRE5", Text: "5 € offerts sur votre bon ou carte cadeau", Discount: "5.00",
		DiscountType: "amount", MaxUsage: 50, Giftcards: true},
}

// demoAdminVouchers: at least one voucher in every state, one language
// each or more, with options, coupons and the sale's customers.
var demoAdminVouchers = []demoAdminVoucher{
	{Prototype: "private-tour", Language: "fr", Price: "124.00", BoughtDaysAgo: 12, Payment: "card", ReceptionMode: 2,
		Adults: 2, Coupon: demoAdminMarkerCoupon,
		Gifter:  demoCustomer{"Élodie", "Laurent", "elodie.laurent@example.fr", "Mme", "Tours", "France", "+33 6 12 34 56 78"},
		Giftee:  demoCustomer{First: "Julien", Last: "Laurent", Email: "julien.laurent@example.fr"},
		Summary: "Visite privée du château pour deux + bouteille de vouvray",
		Message: "Joyeux anniversaire mon cœur ! On visite enfin le château ensemble ?",
		Options: []demoBoughtOption{{Option: "loire-bottle", Count: 1, Price: "16.00"}}},
	{Prototype: "three-wines", Language: "en", Price: "70.00", BoughtDaysAgo: 60, Payment: "paypal", ReceptionMode: 1,
		Adults: 2, Path: []string{gifts.VoucherStateUsing, gifts.VoucherStateUsed},
		Gifter:  demoCustomer{"Oliver", "Smith", "oliver.smith@example.co.uk", "Mr", "Bath", "United Kingdom", "+44 7700 900123"},
		Giftee:  demoCustomer{First: "Emma", Last: "Smith", Email: "emma.smith@example.co.uk"},
		Summary: "Tasting of three Loire wines for two",
		Message: "Happy anniversary! A little taste of our trip to the Loire."},
	{Prototype: "tower-night", Language: "es", Price: "340.00", BoughtDaysAgo: 25, Payment: "card", ReceptionMode: 2,
		Adults: 2, Nights: 1, Path: []string{gifts.VoucherStateUsing},
		Gifter:  demoCustomer{"Lucía", "García", "lucia.garcia@example.es", "Sra", "Madrid", "España", "+34 612 345 678"},
		Giftee:  demoCustomer{First: "Javier", Last: "López", Email: "javier.lopez@example.es"},
		Summary: "Una noche en la torre del vigía para dos",
		Message: "¡Feliz cumpleaños, Javi! Una noche de cuento en un castillo del Loira.",
		Options: []demoBoughtOption{{Option: "loire-bottle", Count: 1, Price: "16.00"}, {Option: "photo-book", Count: 1, Price: "12.00"}}},
	{Prototype: "throwing-lesson", Language: "it", Price: "65.00", BoughtDaysAgo: 1, Payment: "card", ReceptionMode: 2,
		Adults: 1, Draft: true,
		Gifter:  demoCustomer{"Giulia", "Rossi", "giulia.rossi@example.it", "Sig.ra", "Torino", "Italia", "+39 347 123 4567"},
		Giftee:  demoCustomer{First: "Marco", Last: "Bianchi", Email: "marco.bianchi@example.it"},
		Summary: "Introduzione al tornio (2 ore)",
		Message: "Per le tue mani d'artista: buon divertimento al tornio!"},
	{Prototype: "parent-child", Language: "de", Price: "85.00", BoughtDaysAgo: 3, Payment: "bank_transfer", ReceptionMode: 1,
		Adults: 1, Children: 1, Draft: true, Path: []string{gifts.VoucherStateError},
		Gifter:  demoCustomer{"Anna", "Müller", "anna.mueller@example.de", "Frau", "Köln", "Deutschland", "+49 151 23456789"},
		Giftee:  demoCustomer{First: "Lena", Last: "Müller", Email: "lena.mueller@example.de"},
		Summary: "Modellierkurs für Eltern und Kinder",
		Message: "Für Lena und Papa: viel Spaß beim gemeinsamen Töpfern!"},
	{Prototype: "private-tour", Language: "nl", Price: "120.00", BoughtDaysAgo: 400, Payment: "ideal", ReceptionMode: 2,
		Adults: 2, Path: []string{gifts.VoucherStateExpired},
		Gifter:  demoCustomer{"Sanne", "de Vries", "sanne.devries@example.nl", "Mevr.", "Utrecht", "Nederland", "+31 6 12345678"},
		Giftee:  demoCustomer{First: "Daan", Last: "Bakker", Email: "daan.bakker@example.nl"},
		Summary: "Privérondleiding door het kasteel voor twee",
		Message: "Gefeliciteerd met je pensioen, Daan! Tijd voor kastelen."},
	{Prototype: "throwing-lesson", Language: "ca", Price: "73.00", BoughtDaysAgo: 90, Payment: "card", ReceptionMode: 2,
		Adults: 1, Path: []string{gifts.VoucherStateUsing, gifts.VoucherStateUsed}, Coupon: "TERRE5",
		Gifter:  demoCustomer{"Marta", "Puig", "marta.puig@example.cat", "Sra", "Girona", "Espanya", "+34 672 345 678"},
		Giftee:  demoCustomer{First: "Jordi", Last: "Soler", Email: "jordi.soler@example.cat"},
		Summary: "Iniciació al torn (2 h) + esmalt cobalt + quilo de fang",
		Message: "Per fi tindràs els teus propis bols, Jordi! Una abraçada.",
		Options: []demoBoughtOption{{Option: "glaze-cobalt", Count: 1, Price: "6.00"}, {Option: "extra-clay", Count: 1, Price: "8.00"}}},
	{Prototype: "parent-child", Language: "pt", Price: "97.00", BoughtDaysAgo: 8, Payment: "mbway", ReceptionMode: 4,
		Adults: 1, Children: 1,
		Gifter:  demoCustomer{"Inês", "Ferreira", "ines.ferreira@example.pt", "Sra.", "Porto", "Portugal", "+351 912 345 678"},
		Giftee:  demoCustomer{First: "Tiago", Last: "Costa", Email: "tiago.costa@example.pt"},
		Summary: "Oficina de modelação para pais e filhos + envio das peças",
		Message: "Para o Tiago e a pequena Beatriz: divirtam-se com o barro!",
		Options: []demoBoughtOption{{Option: "home-delivery", Count: 1, Price: "12.00"}}},
	{Prototype: "tower-night", Language: "fr", Price: "290.00", BoughtDaysAgo: 420, Payment: "card", ReceptionMode: 5,
		Adults: 2, Nights: 1, Path: []string{gifts.VoucherStateExpired},
		Gifter:  demoCustomer{"Antoine", "Girard", "antoine.girard@example.fr", "M.", "Nantes", "France", "+33 6 98 76 54 32"},
		Giftee:  demoCustomer{First: "Manon", Last: "Girard", Email: "manon.girard@example.fr"},
		Summary: "Une nuit dans la tour de guet",
		Message: "Pour nos dix ans : une nuit de princesse, rien que nous deux."},
	{Prototype: "throwing-lesson", Language: "en", Price: "81.00", BoughtDaysAgo: 20, Payment: "card", ReceptionMode: 2,
		Adults: 1, Path: []string{gifts.VoucherStateUsing},
		Gifter:  demoCustomer{"Harriet", "Jones", "harriet.jones@example.com", "Ms", "Dublin", "Ireland", "+353 85 123 4567"},
		Giftee:  demoCustomer{First: "Sam", Last: "Jones", Email: "sam.jones@example.com"},
		Summary: "Introduction to wheel throwing (2 h) + celadon glaze + extra clay",
		Message: "Go make that wonky mug you always talk about!",
		Options: []demoBoughtOption{{Option: "glaze-celadon", Count: 1, Price: "5.00"}, {Option: "extra-clay", Count: 1, Price: "8.00"}}},
	{Prototype: "private-tour", Language: "it", Price: "170.00", BoughtDaysAgo: 15, Payment: "card", ReceptionMode: 2,
		Adults: 2, Draft: true, Path: []string{gifts.VoucherStateError, gifts.VoucherStatePaid},
		Gifter:  demoCustomer{"Francesca", "Romano", "francesca.romano@example.it", "Sig.ra", "Milano", "Italia", "+39 333 765 4321"},
		Giftee:  demoCustomer{First: "Luca", Last: "Romano", Email: "luca.romano@example.it"},
		Summary: "Visita privata del castello per due + colazione con champagne",
		Message: "Buon compleanno, Luca! Ci vediamo sulla terrazza.",
		Options: []demoBoughtOption{{Option: "champagne-breakfast", Count: 2, Price: "50.00"}}},
	{Prototype: "three-wines", Language: "pt", Price: "35.00", BoughtDaysAgo: 2, Payment: "card", ReceptionMode: 1,
		Adults: 1, Draft: true, Path: []string{gifts.VoucherStateError},
		Gifter:  demoCustomer{"João", "Silva", "joao.silva@example.pt", "Sr.", "Lisboa", "Portugal", "+351 961 234 567"},
		Giftee:  demoCustomer{First: "Ana", Last: "Silva", Email: "ana.silva@example.pt"},
		Summary: "Prova de três vinhos do Loire",
		Message: "Para a melhor irmã: saúde!"},
}

var demoAdminGiftcards = []demoAdminGiftcard{
	{Prototype: "chateau-card", Value: "150.00", Gifter: [2]string{"Claire", "Fontaine"}},
	{Prototype: "chateau-card", Value: "50.00", Draft: true, Gifter: [2]string{"Thomas", "Leroy"}},
	{Prototype: "atelier-card", Value: "65.00", Gifter: [2]string{"Nora", "Haddad"}},
	{Prototype: "atelier-card", Value: "90.00", Gifter: [2]string{"Pieter", "Janssens"}},
}
