package demo

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/domain/gifts"
	"salesplatform/domain/media"
	"salesplatform/domain/prototypes"
	"salesplatform/domain/vouchers"
	"salesplatform/persistence"
)

// adminLoader loads the administration part on one transaction, through
// the administration services (MediaService, AdminPrototypeService,
// VoucherAdminService) so that their rules apply, with the demo staff user
// as the caller; a state change is made by the partner's demo user, as a
// partner would. Permissions, environments, coupons and customers have no
// service that writes them: they are written by their store or with SQL,
// as are the sale details an issued voucher has no input for.
type adminLoader struct {
	tx        bun.IDB
	data      *Dataset
	now       time.Time
	partners  map[string]*domain.Partner // by Partner.Key
	staff     context.Context            // the demo staff user's calls
	ids       ids                        // by key, and "customer/" + e-mail, "coupon/" + partner + "/" + code
	tally     tally
	codes     map[string][]string // issued voucher codes by state
	giftcards []string

	media    *media.MediaService
	protos   *prototypes.AdminPrototypeService
	vouchers *vouchers.VoucherAdminService
	users    account.UserStore
}

func newAdminLoader(ctx context.Context, tx bun.IDB, data *Dataset, blobs domain.BlobStore, partners map[string]*domain.Partner,
	now time.Time, baseURL string) (*adminLoader, error) {
	database := persistence.NewDatabase(tx)
	stores := database.Stores()
	staff, err := stores.Users.FindUserByUsername(ctx, data.Staff.Username)
	if err != nil {
		return nil, err
	}
	return &adminLoader{tx: tx, data: data, now: now, partners: partners,
		staff: domain.WithCaller(ctx, &domain.Caller{User: staff}),
		ids:   ids{}, codes: map[string][]string{},
		media:    media.NewMediaService(persistence.NewUnitOfWork[media.Stores](tx, persistence.MediaStores), blobs, baseURL),
		protos:   prototypes.NewAdminPrototypeService(persistence.NewUnitOfWork[prototypes.Stores](tx, persistence.PrototypeAdminStores)),
		vouchers: vouchers.NewVoucherAdminService(persistence.NewUnitOfWork[vouchers.Stores](tx, persistence.VoucherStores)),
		users:    stores.Users}, nil
}

// loadedAlready reports whether the administration part was loaded: the
// first coupon (the château's welcome coupon) exists.
func (l *adminLoader) loadedAlready(ctx context.Context) (bool, error) {
	var n int
	marker := l.data.Coupons[0]
	err := l.tx.NewRaw("SELECT count(*) FROM coupons WHERE partner_id = ? AND code = ?",
		l.partners[marker.Partner].ID, marker.Code).Scan(ctx, &n)
	return n > 0, err
}

func (l *adminLoader) load(ctx context.Context) error {
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

// partnerCtx is a call by the partner's demo user, with its permissions.
func (l *adminLoader) partnerCtx(ctx context.Context, key string) (context.Context, error) {
	u, err := l.users.FindUserByUsername(ctx, l.data.Partner(key).Username)
	if err != nil {
		return nil, err
	}
	return domain.WithCaller(ctx, &domain.Caller{User: u, Partner: l.partners[key], Permissions: l.data.PartnerPermissions}), nil
}

func (l *adminLoader) grantPermissions(ctx context.Context) error {
	for _, d := range l.data.Partners {
		u, err := l.users.FindUserByUsername(ctx, d.Username)
		if err != nil {
			return err
		}
		if err := l.users.GrantPermissions(ctx, u.ID, l.data.PartnerPermissions); err != nil {
			return seedErr("permissions of "+d.Username, err)
		}
		l.tally.add("partner users granted manage_masteradmin and use_voucher", 1)
	}
	return nil
}

// findCatalogue finds the catalogue records the administration part
// refers to: they may come from this run or from an earlier one.
func (l *adminLoader) findCatalogue(ctx context.Context) error {
	find := func(key, query string, args ...any) error {
		var id int64
		if err := l.tx.NewRaw(query, args...).Scan(ctx, &id); err != nil {
			return fmt.Errorf("find the demo record %s: %w", key, err)
		}
		l.ids[key] = id
		return nil
	}
	for _, u := range l.data.Universes {
		if err := find(u.Key, "SELECT id FROM universes WHERE name->>'en' = ? ORDER BY id LIMIT 1", u.Name["en"]); err != nil {
			return err
		}
	}
	for _, p := range l.data.VoucherPrototypes {
		if err := find(p.Key, "SELECT id FROM voucher_prototypes WHERE partner_id = ? AND name->>'en' = ? ORDER BY id LIMIT 1",
			l.partners[p.Partner].ID, p.Name["en"]); err != nil {
			return err
		}
	}
	for _, p := range l.data.GiftcardPrototypes {
		if err := find(p.Key, "SELECT id FROM giftcard_prototypes WHERE partner_id = ? ORDER BY id LIMIT 1",
			l.partners[p.Partner].ID); err != nil {
			return err
		}
	}
	return nil
}

func (l *adminLoader) loadEnvironments(ctx context.Context) error {
	for _, e := range l.data.Environments {
		var id int64
		if err := l.tx.NewRaw("INSERT INTO environments (name) VALUES (?) RETURNING id", e.Name).Scan(ctx, &id); err != nil {
			return seedErr("environment "+e.Key, err)
		}
		l.ids[e.Key] = id
		l.tally.add("environments", 1)
	}
	return nil
}

// loadMedia uploads the generated images of each prototype, through the
// media service into the blob store.
func (l *adminLoader) loadMedia(ctx context.Context) error {
	for _, p := range l.data.AdminPrototypes {
		for i, colours := range p.Images {
			data, err := demoImage(l.data.colour(colours[0]), l.data.colour(colours[1]))
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

// prototypeInput is a demo prototype's write, every field given.
func (l *adminLoader) prototypeInput(p AdminPrototype) prototypes.PrototypeInput {
	images := make([]int64, len(p.Images))
	for i := range p.Images {
		images[i] = l.ids.id(fmt.Sprintf("%s/image-%d", p.Key, i+1))
	}
	in := prototypes.PrototypeInput{
		PartnerUUID: domain.Some(l.partners[p.Partner].UUID),
		IsActive:    domain.Some(true), IsHighlight: domain.Some(p.Highlight), Type: domain.Some(p.Type),
		PriceScope: domain.Some(int64(p.PriceScope)), Ranking: domain.Some(int64(p.Ranking)),
		MinCapacity: domain.Some(int64(p.MinCapacity)), MaxCapacity: domain.Some(int64(p.MaxCapacity)),
		StayPrice: amount(p.StayPrice), AdultsPrice: amount(p.AdultsPrice), ChildrenPrice: amount(p.ChildrenPrice),
		BabyPrice:     amount(p.BabyPrice),
		LastActiveDay: domain.Some(day(l.now.AddDate(1, 0, 0))),
		Universe:      domain.Some(l.ids.id(p.Universe)),
		Environment:   domain.Some(l.ids.id(p.Environment)),
		Images:        domain.Some(images),
		CoverImage:    domain.Some(images[len(images)-1]), // not the first: shows that the cover is chosen
	}
	name := p.Name
	if name == nil {
		for _, d := range l.data.VoucherPrototypes {
			if d.Key == p.Key {
				name = d.Name
			}
		}
	}
	in.Name, in.Description, in.LongDescription = textsByLanguage(name), textsByLanguage(p.Description), textsByLanguage(p.LongDescription)
	in.RentConditions, in.HowToBookHTML, in.PDFText = textsByLanguage(p.RentConditions), textsByLanguage(p.HowToBookHTML), textsByLanguage(p.PDFDescription)
	return in
}

// loadPrototypes fills every 4.6 field of the catalogue's prototypes (a
// PUT, in place) and creates the new ones.
func (l *adminLoader) loadPrototypes(ctx context.Context) error {
	for _, p := range l.data.AdminPrototypes {
		in := l.prototypeInput(p)
		if id, ok := l.ids[p.Key]; ok {
			if _, err := l.protos.UpdateVoucherPrototype(l.staff, id, in, false); err != nil {
				return seedErr("voucher prototype "+p.Key, err)
			}
			l.tally.add("voucher prototypes given every administration field", 1)
			continue
		}
		created, err := l.protos.CreateVoucherPrototype(l.staff, in)
		if err != nil {
			return seedErr("voucher prototype "+p.Key, err)
		}
		l.ids[p.Key] = created.ID
		l.tally.add("voucher prototypes created", 1)
	}
	return nil
}

func (l *adminLoader) loadOptionCategories(ctx context.Context) error {
	for _, c := range l.data.OptionCategories {
		in := prototypes.OptionCategoryInput{PartnerUUID: domain.Some(l.partners[c.Partner].UUID),
			Ranking: domain.Some(int64(c.Ranking)), Name: textsByLanguage(c.Name), Description: textsByLanguage(c.Description)}
		if c.Min != nil {
			in.MinNumberOptions = domain.Some(int64(*c.Min))
		}
		if c.Max != nil {
			in.MaxNumberOptions = domain.Some(int64(*c.Max))
		}
		created, err := l.protos.CreateOptionCategory(l.staff, in)
		if err != nil {
			return seedErr("option category "+c.Key, err)
		}
		l.ids[c.Key] = created.ID
		l.tally.add("option categories", 1)
	}
	return nil
}

func (l *adminLoader) loadOptions(ctx context.Context) error {
	for _, o := range l.data.Options {
		in := prototypes.OptionInput{PartnerUUID: domain.Some(l.partners[o.Partner].UUID), Price: amount(o.Price),
			SellingPrice: amount(o.SellingPrice), Countable: domain.Some(o.Countable), IsGlobal: domain.Some(o.Global),
			Ranking: domain.Some(int64(o.Ranking)), Name: textsByLanguage(o.Name), Description: textsByLanguage(o.Description)}
		if o.Category != "" {
			in.Category = domain.Some(l.ids.id(o.Category))
		}
		services := make([]prototypes.OptionServiceInput, len(o.Services))
		for i, s := range o.Services {
			services[i] = prototypes.OptionServiceInput{Cost: amount(s.Cost), BuyingVAT: amount(s.BuyingVAT),
				SellingVAT: amount(s.SellingVAT), Price: amount(s.Price)}
		}
		in.Services = domain.Some(services)
		created, err := l.protos.CreateOption(l.staff, in)
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
func (l *adminLoader) loadOptionLinks(ctx context.Context) error {
	for _, k := range l.data.OptionLinks {
		if _, err := l.protos.SetPrototypeOption(l.staff, l.ids.id(k.Prototype), l.ids.id(k.Option), k.Count, k.Included); err != nil {
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

func (l *adminLoader) loadCustomers(ctx context.Context) error {
	for _, v := range l.data.Vouchers {
		partner := l.partners[l.data.adminPrototype(v.Prototype).Partner].ID
		for _, c := range []Customer{v.Gifter, v.Giftee} {
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
func (l *adminLoader) loadVouchers(ctx context.Context) error {
	for i, d := range l.data.Vouchers {
		proto := l.data.adminPrototype(d.Prototype)
		in := vouchers.IssueVoucherInput{VoucherPrototypeID: l.ids.id(d.Prototype), TotalPrice: d.Price,
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
			in.Options = append(in.Options, vouchers.IssueOptionInput{OptionID: l.ids.id(o.Option), Count: o.Count, TotalPrice: o.Price})
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
		site := l.data.Partner(proto.Partner).Domain
		_, err = l.tx.NewRaw(`UPDATE vouchers SET gifter_id = ?, giftee_id = ?, coupon_id = ?,
				origin = 'purchase_site', origin_url = ?, payment_type = ?, purchase_price = total_price,
				gifter_civility = ?, gifter_city = ?, gifter_country = ?, gifter_mobile_phone = ?,
				creation_date = ?, activation_date = CASE WHEN activation_date IS NULL THEN NULL ELSE ?::timestamptz END
			WHERE id = ?`,
			l.ids.id("customer/"+d.Gifter.Email), l.ids.id("customer/"+d.Giftee.Email), coupon,
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
			if v, err = l.vouchers.UpdateVoucherState(partnerCtx, v.Code, vouchers.StateInput{State: domain.Some(state)}); err != nil {
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
func (l *adminLoader) coupon(ctx context.Context, partner, code string) (int64, error) {
	key := "coupon/" + partner + "/" + code
	if id, ok := l.ids[key]; ok {
		return id, nil
	}
	for _, c := range l.data.Coupons {
		if c.Partner != partner || c.Code != code {
			continue
		}
		protos := []int64{}
		for _, p := range l.data.AdminPrototypes {
			if p.Partner == partner {
				protos = append(protos, l.ids.id(p.Key))
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
func (l *adminLoader) loadCoupons(ctx context.Context) error {
	for _, c := range l.data.Coupons {
		if _, err := l.coupon(ctx, c.Partner, c.Code); err != nil {
			return err
		}
	}
	return nil
}

func (l *adminLoader) loadGiftcards(ctx context.Context) error {
	for _, g := range l.data.Giftcards {
		expires := l.now.AddDate(1, 0, 0)
		in := vouchers.IssueGiftcardInput{GiftcardPrototypeID: l.ids.id(g.Prototype), Value: g.Value, ExpiresOn: &expires,
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
func (l *adminLoader) report(out io.Writer, baseURL string) {
	fmt.Fprintln(out, "Loaded the demo administration data:")
	for _, line := range l.tally.lines() {
		fmt.Fprintln(out, "  "+line)
	}
	fmt.Fprintf(out, "Voucher codes by state (GET %s/api/vouchers/{code}/ with a token of the seller or of %s):\n", baseURL, l.data.Staff.Username)
	for _, state := range vouchers.VoucherStates {
		fmt.Fprintf(out, "  %-6s %s\n", state, strings.Join(l.codes[state], " "))
	}
	fmt.Fprintf(out, "Giftcard codes: %s\n", strings.Join(l.giftcards, " "))
}

// textsByLanguage is a write's texts of every language given.
func textsByLanguage(l domain.Localized) map[string]domain.Optional[string] {
	out := make(map[string]domain.Optional[string], len(l))
	for lang, s := range l {
		out[lang] = domain.Some(s)
	}
	return out
}

// day is the calendar day of t, as a date input holds it.
func day(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC) }

// amount is an amount of the dataset (Dataset.check has verified it).
func amount(s string) domain.Optional[decimal.Decimal] {
	return domain.Some(decimal.RequireFromString(s))
}

// colour is a colour of Colours, "#RRGGBB" (Dataset.check has verified
// the name).
func (d *Dataset) colour(name string) color.RGBA {
	var c color.RGBA
	if _, err := fmt.Sscanf(d.Colours[name], "#%02x%02x%02x", &c.R, &c.G, &c.B); err != nil {
		panic(fmt.Sprintf("demo dataset: colour %s: %v", name, err))
	}
	c.A = 0xFF
	return c
}
