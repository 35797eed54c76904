package demo

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/domain/catalogue"
	"salesplatform/domain/gifts"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/network"
	"salesplatform/persistence"
)

// networkLoader loads the network part (network.json) on one transaction,
// through the network services as each marketplace's demo user, who
// creates its network partners and uses its cards and vouchers as a
// marketplace would (the ledgers name it); box offers are proposed and
// reviewed by the demo staff user, as the catalogue's. What has no
// service is written by its store or with SQL (docs/admin-seed.md): the
// sold cards and vouchers with their fixed codes, their buyers, and the
// stand-in payouts of usages.
type networkLoader struct {
	tx       bun.IDB
	data     *Dataset
	now      time.Time
	partners map[string]*domain.Partner // the demo accounts', by Partner.Key
	staff    context.Context            // the demo staff user's calls
	ids      ids                        // network partners and boxes by key
	tally    tally
	// payouts are the cancel paths of the usages put in a stand-in
	// payout, which refuse them.
	payouts []string

	networkPartners *network.PartnerService
	giftcards       *network.GiftcardService
	vouchers        *network.VoucherService
	boxes           *catalogue.BoxService
	stores          network.Stores
	giftStore       *persistence.GiftStore
	users           account.UserStore
}

// newNetworkLoader returns the loader of the network part on tx, whose
// calls are staff's or a marketplace's. The idempotency keys are kept on
// db, the pool, as serve keeps them; the loader's calls carry no key, so
// none is written.
func newNetworkLoader(ctx context.Context, db *bun.DB, tx bun.Tx, data *Dataset, partners map[string]*domain.Partner,
	staff *domain.User, now time.Time) *networkLoader {
	uow := persistence.NewUnitOfWork(tx, persistence.NetworkStores)
	keys := idempotency.NewGuard(persistence.NewIdempotencyStore(db))
	return &networkLoader{tx: tx, data: data, now: now, partners: partners, ids: ids{},
		staff:           domain.WithCaller(ctx, &domain.Caller{User: staff}),
		networkPartners: network.NewPartnerService(uow, keys),
		giftcards:       network.NewGiftcardService(uow, keys),
		vouchers:        network.NewVoucherService(uow, keys),
		boxes:           catalogue.NewBoxService(persistence.NewUnitOfWork(tx, persistence.BoxStores)),
		stores:          persistence.NetworkStores(tx),
		giftStore:       persistence.NewGiftStore(tx),
		users:           persistence.NewDatabase(tx).Stores().Users,
	}
}

// loadedAlready reports whether the network part was loaded: the first
// network partner is in its marketplace's network under its source id.
// Errors: that source id names another partner.
func (l *networkLoader) loadedAlready(ctx context.Context) (bool, error) {
	first := l.data.NetworkPartners[0]
	marketplace := l.partners[first.Marketplace].ID
	id, err := l.stores.Partners.NetworkPartnerBySourceID(ctx, marketplace, first.SourceID)
	switch {
	case domain.IsCode(err, domain.CodeNotFound):
		return false, nil
	case err != nil:
		return false, err
	}
	p, err := l.stores.Partners.FindNetworkPartner(ctx, marketplace, id)
	if err != nil {
		return false, err
	}
	if p.Name != first.Name {
		return false, fmt.Errorf("the source id %s of %s's network names %q, not %q: seed another database",
			first.SourceID, l.partners[first.Marketplace].SiteDomain, p.Name, first.Name)
	}
	return true, nil
}

func (l *networkLoader) load(ctx context.Context) error {
	for _, step := range []func(context.Context) error{
		l.grantPermissions, l.loadPartners, l.loadBoxOffers, l.loadGiftcards, l.loadVouchers,
	} {
		if err := step(ctx); err != nil {
			return err
		}
	}
	return nil
}

// marketplaceCtx is a call by the marketplace's demo user, with its
// permissions.
func (l *networkLoader) marketplaceCtx(ctx context.Context, key string) (context.Context, error) {
	u, err := l.users.FindUserByUsername(ctx, l.data.Partner(key).Username)
	if err != nil {
		return nil, err
	}
	perms := append(append([]string{}, l.data.PartnerPermissions...), l.data.MarketplacePermissions...)
	return domain.WithCaller(ctx, &domain.Caller{User: u, Partner: l.partners[key], Permissions: perms}), nil
}

func (l *networkLoader) grantPermissions(ctx context.Context) error {
	for _, d := range l.data.Partners {
		if !d.Marketplace {
			continue
		}
		u, err := l.users.FindUserByUsername(ctx, d.Username)
		if err != nil {
			return err
		}
		if err := l.users.GrantPermissions(ctx, u.ID, l.data.MarketplacePermissions); err != nil {
			return seedErr("permissions of "+d.Username, err)
		}
		l.tally.add("marketplace users granted "+strings.Join(shortNames(l.data.MarketplacePermissions), ", "), 1)
	}
	return nil
}

// shortNames are permission names without their "permissions." prefix.
func shortNames(perms []string) []string {
	out := make([]string, len(perms))
	for i, p := range perms {
		out[i] = strings.TrimPrefix(p, "permissions.")
	}
	return out
}

// partnerInput is the creation of p (POST /api/network_partners/).
func (l *networkLoader) partnerInput(p NetworkPartner) (network.PartnerInput, error) {
	c := p.Company
	some := domain.Some[string]
	in := network.PartnerInput{MarketplaceUUID: domain.Some(l.partners[p.Marketplace].UUID),
		SourceID: some(p.SourceID), Name: some(p.Name), CommercialName: some(c.CommercialName), ShortName: some(c.ShortName),
		SiretNumber: some(c.Siret), LegalRepresentativeFirstName: some(c.LegalFirstName),
		LegalRepresentativeLastName: some(c.LegalLastName), HQAddressLine1: some(c.Address1), HQAddressLine2: some(c.Address2),
		HQPostalCode: some(c.PostalCode), HQCity: some(c.City), HQCountry: some(c.Country), RCS: some(c.RCS), APE: some(c.APE),
		VATID: some(c.VATID), AgencyEmail: some(c.Email), AgencyPhone: some(c.Phone), Website: some(c.Website),
		Links: network.Links{LinkToNGCSettings: domain.Some(p.NetworkGiftcards), LinkToNVSettings: domain.Some(p.NetworkVouchers)}}
	if c.Type != "" {
		in.CompanyType = some(c.Type)
	}
	if c.LegalBirthday != "" {
		day, err := time.Parse(time.DateOnly, c.LegalBirthday)
		if err != nil {
			return in, fmt.Errorf("network partner %s: birthday: %w", p.Key, err)
		}
		in.LegalRepresentativeBirthday = domain.Some(day)
	}
	tags := make([]network.TagInput, len(p.Tags))
	for i, t := range p.Tags {
		tags[i].Tag = some(t)
	}
	in.PartnerTags = domain.Some(tags)
	return in, nil
}

// loadPartners creates the network partners, then gives the inactive
// their status and the others their referrer, as updates.
func (l *networkLoader) loadPartners(ctx context.Context) error {
	for _, p := range l.data.NetworkPartners {
		mctx, err := l.marketplaceCtx(ctx, p.Marketplace)
		if err != nil {
			return err
		}
		in, err := l.partnerInput(p)
		if err != nil {
			return err
		}
		created, err := l.networkPartners.CreateNetworkPartner(mctx, in)
		if err != nil {
			return seedErr("network partner "+p.Key, err)
		}
		l.ids[p.Key] = created.ID
		l.tally.add("network partners with their company record and tags (source ids below)", 1)
	}
	for _, p := range l.data.NetworkPartners {
		if !p.Inactive && p.Referrer == "" {
			continue
		}
		update := network.PartnerUpdate{MarketplaceUUID: domain.Some(l.partners[p.Marketplace].UUID),
			SourceID: domain.Some(p.SourceID)}
		if p.Inactive {
			update.Status = domain.Some(domain.PartnerStatusInactive)
			l.tally.add("network partners made inactive", 1)
		}
		if p.Referrer != "" {
			update.Referrer = domain.Some(l.ids.id(p.Referrer))
			l.tally.add("network partners given their referrer", 1)
		}
		mctx, err := l.marketplaceCtx(ctx, p.Marketplace)
		if err != nil {
			return err
		}
		if _, err := l.networkPartners.UpdateNetworkPartner(mctx, update); err != nil {
			return seedErr("update of the network partner "+p.Key, err)
		}
	}
	return nil
}

// loadBoxOffers finds the catalogue's boxes, which may come from an
// earlier run, and has the network partners' offers proposed and
// reviewed as their status says.
func (l *networkLoader) loadBoxOffers(ctx context.Context) error {
	for _, b := range l.data.Boxes {
		var id int64
		err := l.tx.NewRaw("SELECT id FROM network_voucher_boxes WHERE marketplace_id = ? AND name->>'en' = ? ORDER BY id LIMIT 1",
			l.partners[b.Marketplace].ID, b.Name["en"]).Scan(ctx, &id)
		if err != nil {
			return fmt.Errorf("find the demo box %s: %w", b.Key, err)
		}
		l.ids[b.Key] = id
	}
	for _, o := range l.data.BoxOffers {
		what := "offer of " + o.Partner + " in the box " + o.Box
		partner := l.ids.id(o.Partner)
		offer, err := l.boxes.ProposeBoxOffer(l.staff, l.ids.id(o.Box), &partner)
		if err != nil {
			return seedErr(what, err)
		}
		if decision, ok := offerDecisions[o.Status]; ok {
			if _, err := l.boxes.ReviewBoxOffer(l.staff, offer.ID, decision); err != nil {
				return seedErr(what, err)
			}
		} else if o.Status != offer.Status {
			return fmt.Errorf("%s: unknown status %q", what, o.Status)
		}
		l.tally.add("box offers of network partners", 1)
	}
	return nil
}

// partnerRef names a usage's partner: a network partner by its source id,
// a demo partner by its id (the API's two ways).
func (l *networkLoader) partnerRef(key string) network.PartnerRef {
	if p := l.data.NetworkPartner(key); p != nil {
		return network.PartnerRef{PartnerSourceID: domain.Some(p.SourceID)}
	}
	return network.PartnerRef{PartnerID: domain.Some(l.partners[key].ID)}
}

// loadGiftcards writes the sold cards with their fixed codes, then their
// usages, cancels and holds through GiftcardService, so that each is in
// the card's ledger.
func (l *networkLoader) loadGiftcards(ctx context.Context) error {
	for _, d := range l.data.NetworkGiftcards {
		what := "network giftcard " + d.Code
		if err := l.sellGiftcard(ctx, d); err != nil {
			return seedErr(what, err)
		}
		l.tally.add("network giftcards, in every status (codes below)", 1)
		mctx, err := l.marketplaceCtx(ctx, d.Marketplace)
		if err != nil {
			return err
		}
		for i, u := range d.Usages {
			what := fmt.Sprintf("%s, usage %d", what, i+1)
			in := network.UseInput{Code: d.Code, PartnerRef: l.partnerRef(u.Partner), Value: domain.Some(u.Value),
				CreationDate: domain.Some(network.At(l.now.AddDate(0, 0, -u.DaysAgo))), Comment: domain.Some(u.Comment),
				ReservationID: domain.Some(u.ReservationID)}
			usage, err := l.giftcards.Use(mctx, in)
			if err != nil {
				return seedErr(what, err)
			}
			l.tally.add("network giftcard usages", 1)
			if u.Cancelled {
				if _, err := l.giftcards.CancelUsage(mctx, network.CancelUsageInput{ID: usage.ID, Comment: domain.Some(u.Comment)}); err != nil {
					return seedErr(what+": cancel", err)
				}
				l.tally.add("network giftcard usages cancelled", 1)
			}
		}
		for _, h := range d.Holds {
			if err := l.hold(mctx, d.Code, h); err != nil {
				return seedErr(what+", hold "+h.ReservationID, err)
			}
		}
	}
	return nil
}

// sellGiftcard writes the card as its sale would: with its code, buyer
// and dates, and its ledger's issue movement (the network area's insert).
// The purchase date, which the insert leaves to now, is set after.
func (l *networkLoader) sellGiftcard(ctx context.Context, d NetworkGiftcard) error {
	m := l.partners[d.Marketplace]
	bought := l.now.AddDate(0, 0, -d.BoughtDaysAgo)
	expires := bought.AddDate(0, d.ValidMonths, 0)
	g := &network.Giftcard{Code: d.Code, Status: d.Status, Value: d.Value, RemainingValue: d.Value,
		Currency: m.PriceCurrency(), Language: d.Language, ActivationDate: &bought, ExpirationDate: &expires,
		IsActive: true, IsSplittable: true, MarketplaceID: m.ID, FromGifter: d.FromGifter,
		Gifter: network.Customer{FirstName: d.Gifter.First, LastName: d.Gifter.Last, Email: d.Gifter.Email}}
	if d.Giftee != nil {
		g.Giftee = &network.Customer{FirstName: d.Giftee.First, LastName: d.Giftee.Last, Email: d.Giftee.Email}
	}
	taken, err := l.stores.Giftcards.InsertGiftcard(ctx, g)
	switch {
	case err != nil:
		return err
	case taken:
		var v domain.Validator
		v.Add(domain.VUnique, "A gift with this code already exists.", "code")
		return v.Err()
	}
	_, err = l.tx.NewRaw("UPDATE network_giftcards SET creation_date = ? WHERE id = ?", bought, g.ID).Exec(ctx)
	return err
}

// hold holds an amount of the card for a week (the longest a hold may
// last), then captures or releases it as h says.
func (l *networkLoader) hold(ctx context.Context, code string, h NetworkGiftcardHold) error {
	in := network.HoldInput{Code: code, PartnerRef: l.partnerRef(h.Partner), ReservationID: domain.Some(h.ReservationID),
		Amount: domain.Some(h.Amount), ExpiresIn: domain.Some(int64(network.MaxHoldTTL / time.Second))}
	if _, err := l.giftcards.Hold(ctx, in); err != nil {
		return err
	}
	l.tally.add("network giftcard holds (held, captured or released)", 1)
	switch h.End {
	case HoldCapture:
		_, err := l.giftcards.Capture(ctx, network.CaptureInput{Code: code, ReservationID: h.ReservationID, Value: domain.Some(h.Captured())})
		return err
	case HoldRelease:
		_, err := l.giftcards.Release(ctx, code, h.ReservationID)
		return err
	}
	return nil
}

// inPayout puts a network voucher usage in a stand-in payout: voucher
// usages are in no payout request, and their payout_id references none
// (docs/admin-seed.md).
func (l *networkLoader) inPayout(ctx context.Context, usageID, payout int64) error {
	if _, err := l.tx.NewRaw("UPDATE network_voucher_usages SET payout_id = ? WHERE id = ?", payout, usageID).Exec(ctx); err != nil {
		return err
	}
	l.tally.add("usages in a payout (a stand-in id: their cancel is refused)", 1)
	return nil
}

// loadVouchers writes the sold vouchers with their fixed codes and buyers,
// then records their usages, and cancels, through VoucherService.
func (l *networkLoader) loadVouchers(ctx context.Context) error {
	for _, d := range l.data.NetworkVouchers {
		what := "network voucher " + d.Code
		box := l.data.box(d.Box)
		bought := l.now.AddDate(0, 0, -d.BoughtDaysAgo)
		expires := bought.AddDate(0, d.ValidMonths, 0)
		v := &gifts.NetworkVoucher{Code: d.Code, BoxID: l.ids.id(d.Box), Status: d.Status, MaxUsages: box.MaxNumberUsages,
			CreationDate: bought, ExpirationDate: &expires}
		if err := l.giftStore.CreateNetworkVoucher(ctx, v); err != nil {
			return seedErr(what, err)
		}
		giftee := d.Giftee
		if giftee == nil {
			giftee = &Customer{}
		}
		_, err := l.tx.NewRaw(`UPDATE network_vouchers SET language = ?, gifter_first_name = ?, gifter_last_name = ?,
				gifter_email = ?, giftee_first_name = ?, giftee_last_name = ?, giftee_email = ?
			WHERE id = ?`, d.Language, d.Gifter.First, d.Gifter.Last, d.Gifter.Email,
			giftee.First, giftee.Last, giftee.Email, v.ID).Exec(ctx)
		if err != nil {
			return seedErr(what+": buyer", err)
		}
		l.tally.add("network vouchers, in several statuses (codes below)", 1)
		mctx, err := l.marketplaceCtx(ctx, box.Marketplace)
		if err != nil {
			return err
		}
		for i, u := range d.Usages {
			what := fmt.Sprintf("%s, usage %d", what, i+1)
			at := l.now.AddDate(0, 0, -u.DaysAgo).Truncate(time.Second)
			in := network.UsageInput{Code: d.Code, PartnerRef: l.partnerRef(u.Partner),
				CreationDate: domain.Some(network.At(at)), Comment: domain.Some(u.Comment)}
			usage, err := l.vouchers.RecordUsage(mctx, in)
			if err != nil {
				return seedErr(what, err)
			}
			l.tally.add("network voucher usages", 1)
			switch {
			case u.Cancelled:
				if _, err := l.vouchers.CancelUsage(mctx, network.CancelUsageInput{ID: usage.ID, Comment: domain.Some(u.Comment)}); err != nil {
					return seedErr(what+": cancel", err)
				}
				l.tally.add("network voucher usages cancelled", 1)
			case u.Payout != 0:
				if err := l.inPayout(ctx, usage.ID, u.Payout); err != nil {
					return seedErr(what+": payout", err)
				}
				l.payouts = append(l.payouts, fmt.Sprintf("/api/networkvoucher_usages/%d/cancel/ (%s)", usage.ID, d.Code))
			}
		}
	}
	return nil
}

// report prints what the load created and the usages in a payout, whose
// ids are generated.
func (l *networkLoader) report(out io.Writer, baseURL string) {
	fmt.Fprintln(out, "Loaded the demo network data:")
	for _, line := range l.tally.lines() {
		fmt.Fprintln(out, "  "+line)
	}
	fmt.Fprintln(out, "Usages in a stand-in payout: their cancel answers 409")
	for _, p := range l.payouts {
		fmt.Fprintf(out, "  POST %s%s\n", baseURL, p)
	}
}

// reportNetwork prints the network part's fixed records: the network
// partners with their source ids, the cards with their status and
// balance, the vouchers with their usages, as loaded.
func reportNetwork(out io.Writer, data *Dataset, baseURL string) {
	fmt.Fprintln(out, "Network partners (source id, name, settings they are in):")
	for _, p := range data.NetworkPartners {
		var in []string
		if p.NetworkGiftcards {
			in = append(in, "giftcards")
		}
		if p.NetworkVouchers {
			in = append(in, "vouchers")
		}
		status := ""
		if p.Inactive {
			status = " (inactive)"
		}
		fmt.Fprintf(out, "  %-18s %-8s %-28s %s%s\n", data.Partner(p.Marketplace).Domain, p.SourceID, p.Name, strings.Join(in, ", "), status)
	}
	fmt.Fprintf(out, "Network giftcard codes (GET %s/api/networkgiftcards_by_code/{code}/ with a token of the marketplace or staff):\n", baseURL)
	for _, g := range data.NetworkGiftcards {
		fmt.Fprintf(out, "  %-20s %-6s %s of %s\n", g.Code, g.FinalStatus(), g.Remaining().StringFixed(2), g.Value.StringFixed(2))
	}
	fmt.Fprintf(out, "Network voucher codes (GET %s/api/networkvouchers_by_code/{code}/):\n", baseURL)
	for _, v := range data.NetworkVouchers {
		fmt.Fprintf(out, "  %-20s %-6s %d of %d usages\n", v.Code, v.FinalStatus(), v.UsageCount(), data.box(v.Box).MaxNumberUsages)
	}
}
