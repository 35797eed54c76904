package demo

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
	"salesplatform/persistence"
	"salesplatform/persistence/psp"
)

// paymentsLoader loads the payment-hub part (payments.json) on one
// transaction, through the payment hub's services as the referring
// marketplace's demo user: it creates its payment-hub partners, activates
// their payments (the legal representative verifies on the simulated
// provider's page, served in process), takes the payments and refunds
// them, then builds the payout requests of the periods that closed (the
// payouts job's work: the payments dated back are in one) and creates
// the payment requests. The simulated provider keeps its state on the
// same transaction.
// A payment-hub partner joins its referrer's network with SQL, as no
// service adds an existing partner to a network (docs/admin-seed.md).
type paymentsLoader struct {
	tx       bun.IDB
	data     *Dataset
	now      time.Time
	partners map[string]*domain.Partner // the demo accounts', by Partner.Key
	tally    tally
	hub      map[string]*payments.Partner // by PaymentPartner.Key
	taken    []*payments.Payment          // in the file's order
	payouts  []*payments.Payout
	requests []*payments.PaymentRequest

	hubPartners *payments.HubPartnerService
	payments    *payments.PaymentService
	payoutSvc   *payments.PayoutService
	provider    http.Handler // the simulated provider's pages
	users       interface {
		FindUserByUsername(context.Context, string) (*domain.User, error)
		GrantPermissions(context.Context, int64, []string) error
	}
}

func newPaymentsLoader(db *bun.DB, tx bun.Tx, data *Dataset, partners map[string]*domain.Partner, blobs domain.BlobStore,
	now time.Time, baseURL string) *paymentsLoader {
	keys := idempotency.NewGuard(persistence.NewIdempotencyStore(db))
	sim := psp.NewSim(tx, baseURL)
	uow := persistence.NewUnitOfWork(tx, persistence.PaymentsStores)
	l := &paymentsLoader{tx: tx, data: data, now: now, partners: partners, hub: map[string]*payments.Partner{},
		hubPartners: payments.NewHubPartnerService(persistence.NewUnitOfWork(tx, persistence.PaymentPartnerStores), keys, sim, blobs),
		payments:    payments.NewPaymentService(uow, keys, sim).WithRequestPages(baseURL, nil),
		payoutSvc:   payments.NewPayoutService(uow, keys),
		users:       persistence.NewDatabase(tx).Stores().Users}
	l.provider = sim.Handler(psp.Callbacks{ActivationChanged: l.hubPartners.SyncActivation, PayinChanged: l.payments.SyncPayin})
	return l
}

// loadedAlready reports whether the payment-hub part was loaded: the
// first payment-hub partner is in the hub under its name.
func (l *paymentsLoader) loadedAlready(ctx context.Context) (bool, error) {
	var loaded bool
	err := l.tx.NewRaw(`SELECT EXISTS (SELECT 1 FROM payment_partners pp JOIN partners p ON p.id = pp.partner_id WHERE p.name = ?)`,
		l.data.PaymentPartners[0].Name).Scan(ctx, &loaded)
	return loaded, err
}

func (l *paymentsLoader) load(ctx context.Context) error {
	if err := l.grantPermissions(ctx); err != nil {
		return err
	}
	for _, p := range l.data.PaymentPartners {
		if err := l.loadPartner(ctx, p); err != nil {
			return seedErr("payment partner "+p.Key, err)
		}
	}
	for _, shop := range l.data.Shops {
		if err := l.activateShop(ctx, shop.Partner); err != nil {
			return seedErr("payments of the shop "+shop.Partner, err)
		}
	}
	for _, p := range l.data.HubPayments {
		if err := l.loadPayment(ctx, p); err != nil {
			return seedErr("payment "+p.Key, err)
		}
	}
	built, err := l.payoutSvc.BuildPayouts(ctx, l.now)
	if err != nil {
		return seedErr("payout requests", err)
	}
	for id, err := range built.Skipped {
		return seedErr("payout requests of "+id.String(), err)
	}
	l.payouts = built.Built
	l.tally.add("payout requests (to be validated by staff)", len(built.Built))
	for i, r := range l.data.PaymentRequests {
		if err := l.loadRequest(ctx, r); err != nil {
			return seedErr(fmt.Sprintf("payment request %d", i+1), err)
		}
	}
	return nil
}

func (l *paymentsLoader) loadRequest(ctx context.Context, r HubPaymentRequest) error {
	mctx, err := l.referrerCtx(ctx, l.data.paymentPartner(r.Partner).Referrer)
	if err != nil {
		return err
	}
	created, err := l.payments.CreatePaymentRequest(mctx, payments.PaymentRequestInput{
		PartnerUUID: domain.Some(l.hub[r.Partner].UUID), Amount: domain.Some(r.Amount),
		Customer: customerOf(r.Customer), Language: domain.Some(r.Language), Reference: domain.Some(r.Reference),
		Description: domain.Some(r.Description), Product: domain.Some(r.Product)})
	if err != nil {
		return err
	}
	l.requests = append(l.requests, created)
	l.tally.add("payment requests (pending: pay them at their link)", 1)
	return nil
}

// customerOf is the customer input of a payment or a request.
func customerOf(c Customer) domain.Optional[network.CustomerInput] {
	return domain.Some(network.CustomerInput{FirstName: domain.Some(c.First), LastName: domain.Some(c.Last),
		Email: domain.Some(c.Email)})
}

// grantPermissions gives the user of each referring marketplace the
// permissions its payments' refunds need, for good: the demo's refund
// examples are made with its token.
func (l *paymentsLoader) grantPermissions(ctx context.Context) error {
	granted := map[string]bool{}
	for _, p := range l.data.PaymentPartners {
		username := l.data.Partner(p.Referrer).Username
		if granted[username] {
			continue
		}
		granted[username] = true
		u, err := l.users.FindUserByUsername(ctx, username)
		if err != nil {
			return err
		}
		if err := l.users.GrantPermissions(ctx, u.ID, l.data.ReferrerPermissions); err != nil {
			return seedErr("permissions of "+username, err)
		}
		l.tally.add("referring marketplace users granted "+strings.Join(shortNames(l.data.ReferrerPermissions), ", "), 1)
	}
	return nil
}

// referrerCtx is a call by the referring marketplace's demo user, with
// its permissions.
func (l *paymentsLoader) referrerCtx(ctx context.Context, key string) (context.Context, error) {
	u, err := l.users.FindUserByUsername(ctx, l.data.Partner(key).Username)
	if err != nil {
		return nil, err
	}
	perms := append(append([]string{}, l.data.PartnerPermissions...), l.data.MarketplacePermissions...)
	perms = append(perms, l.data.ReferrerPermissions...)
	return domain.WithCaller(ctx, &domain.Caller{User: u, Partner: l.partners[key], Permissions: perms}), nil
}

func (l *paymentsLoader) loadPartner(ctx context.Context, p PaymentPartner) error {
	mctx, err := l.referrerCtx(ctx, p.Referrer)
	if err != nil {
		return err
	}
	some := domain.Some[string]
	created, err := l.hubPartners.CreatePartner(mctx, payments.PartnerInput{Status: some(domain.PartnerStatusActive),
		Name: some(p.Name), CommercialName: some(p.CommercialName), ShortName: some(p.ShortName),
		LegalRepresentativeFirstName: some(p.LegalFirstName), LegalRepresentativeLastName: some(p.LegalLastName),
		LegalRepresentativeEmail: some(p.LegalEmail), AgencyEmail: some(p.AgencyEmail), IBAN: some(p.IBAN),
		BIC: some(p.BIC), PayoutFrequency: some(p.PayoutFrequency), FreezePayout: domain.Some(p.FreezePayout)})
	if err != nil {
		return err
	}
	l.tally.add("payment-hub partners", 1)
	a, err := l.hubPartners.ActivatePayments(mctx, created.UUID)
	if err != nil {
		return err
	}
	if err := l.answerProvider(ctx, a.UserActionURL, "verify"); err != nil {
		return fmt.Errorf("verify the legal representative: %w", err)
	}
	if created, err = l.hubPartners.GetPartner(mctx, created.UUID); err != nil {
		return err
	}
	if !created.MayTakePayments() {
		return fmt.Errorf("its payments are not active after the verification")
	}
	l.tally.add("payment-hub partners whose payments are active (verified on the provider's page)", 1)
	l.hub[p.Key] = created
	_, err = l.tx.NewRaw(`INSERT INTO network_partners (marketplace_id, partner_id, source_id) VALUES (?, ?, ?);
		INSERT INTO network_giftcard_allowed_partners (marketplace_id, partner_id) VALUES (?, ?)`,
		l.partners[p.Referrer].ID, created.ID, p.SourceID, l.partners[p.Referrer].ID, created.ID).Exec(ctx)
	return err
}

// activateShop makes the shop of a demo partner take card payments, for
// its checkout funnel: the partner joins the payment hub with SQL (no
// service adds an existing partner to the hub), then its own demo user
// activates its payments through the hub, its legal representative
// verifying on the provider's page, and is granted the refunds'
// permission, so that its orders can be refunded with its token.
func (l *paymentsLoader) activateShop(ctx context.Context, key string) error {
	partner, account := l.partners[key], l.data.Partner(key)
	u, err := l.users.FindUserByUsername(ctx, account.Username)
	if err != nil {
		return err
	}
	if _, err := l.tx.NewRaw(`INSERT INTO payment_partners (partner_id, legal_representative_email, payout_frequency)
		VALUES (?, ?, 'month')`, partner.ID, "payments@"+partner.SiteDomain).Exec(ctx); err != nil {
		return err
	}
	if err := l.users.GrantPermissions(ctx, u.ID, l.data.ReferrerPermissions); err != nil {
		return err
	}
	perms := append(append([]string{}, l.data.PartnerPermissions...), l.data.ReferrerPermissions...)
	sctx := domain.WithCaller(ctx, &domain.Caller{User: u, Partner: partner, Permissions: perms})
	a, err := l.hubPartners.ActivatePayments(sctx, partner.UUID)
	if err != nil {
		return err
	}
	if err := l.answerProvider(ctx, a.UserActionURL, "verify"); err != nil {
		return fmt.Errorf("verify the legal representative: %w", err)
	}
	hub, err := l.hubPartners.GetPartner(sctx, partner.UUID)
	if err != nil {
		return err
	}
	if !hub.MayTakePayments() {
		return fmt.Errorf("its payments are not active after the verification")
	}
	l.tally.add("shops whose card payments are active (verified on the provider's page)", 1)
	return nil
}

// answerProvider posts decision to the simulated provider's page at
// pageURL, as the person it asks would.
func (l *paymentsLoader) answerProvider(ctx context.Context, pageURL, decision string) error {
	u, err := url.Parse(pageURL)
	if err != nil {
		return err
	}
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, u.Path, strings.NewReader("decision="+decision))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	l.provider.ServeHTTP(rec, req)
	if rec.Code != http.StatusSeeOther {
		return fmt.Errorf("the provider's page answered %d: %s", rec.Code, rec.Body)
	}
	return nil
}

func (l *paymentsLoader) loadPayment(ctx context.Context, p HubPayment) error {
	partner := l.data.paymentPartner(p.Partner)
	mctx, err := l.referrerCtx(ctx, partner.Referrer)
	if err != nil {
		return err
	}
	in := payments.PaymentInput{Customer: customerOf(p.Customer), PartnerUUID: domain.Some(l.hub[p.Partner].UUID),
		Amount: domain.Some(p.Amount), Discount: domain.Some(decimal.Zero), Product: domain.Some(p.Product),
		Type: domain.Some(payments.PaymentTypeCard), Origin: domain.Some(p.Origin), ReceiptDescription: domain.Some(p.Receipt)}
	if p.Card == HubCardPaid {
		in.Card = domain.Some(psp.CardSuccess)
	}
	if p.FreezeDaysAgo != 0 {
		day, _ := network.ParseLocalTime(l.now.AddDate(0, 0, -p.FreezeDaysAgo).Format(time.DateOnly))
		in.FreezePayoutDate = domain.Some(day)
		l.tally.add("payments dated for payouts", 1)
	}
	if e := p.ExtraSource; e != nil {
		var wallet uuid.UUID
		if err := l.tx.NewRaw(`SELECT uuid FROM network_giftcards WHERE code = ?`, e.Giftcard).Scan(ctx, &wallet); err != nil {
			return fmt.Errorf("the network giftcard %s: %w", e.Giftcard, err)
		}
		in.ExtraSourceWalletUUID, in.ExtraSourceAmount = domain.Some(wallet), domain.Some(e.Amount)
		l.tally.add("payments paid in part from a network giftcard", 1)
	}
	paid, err := l.payments.CreatePayment(mctx, in)
	if err != nil {
		return err
	}
	l.tally.add("payments ("+paid.Status+")", 1)
	for _, r := range p.Refunds {
		if _, err := l.payments.RefundPayment(mctx, paid.UUID, payments.RefundInput{Amount: domain.Some(r.Amount),
			Reason: domain.Some(r.Reason)}); err != nil {
			return err
		}
		l.tally.add("refunds", 1)
	}
	if paid, err = l.payments.Payment(mctx, paid.UUID); err != nil {
		return err
	}
	l.taken = append(l.taken, paid)
	return nil
}

func (d *Dataset) paymentPartner(key string) *PaymentPartner {
	for i := range d.PaymentPartners {
		if d.PaymentPartners[i].Key == key {
			return &d.PaymentPartners[i]
		}
	}
	return nil
}

func (l *paymentsLoader) report(out io.Writer, baseURL string) {
	fmt.Fprintln(out, "Loaded the demo payment hub:")
	for _, line := range l.tally.lines() {
		fmt.Fprintln(out, "  "+line)
	}
	for _, d := range l.data.PaymentPartners {
		fmt.Fprintf(out, "Payment-hub partner %s: GET %s/api/payment_hub/partner/%s/ (token of %s)\n", d.Name, baseURL,
			l.hub[d.Key].UUID, d.Referrer)
	}
	fmt.Fprintln(out, "Payments (GET /api/payment_hub/payments/{id}/; status, amount, refunded):")
	for _, p := range l.taken {
		fmt.Fprintf(out, "  %s %-4s %7s %7s", p.UUID, p.Status, p.Amount.StringFixed(2), p.RefundedAmount.StringFixed(2))
		if p.PayinURL != "" {
			fmt.Fprintf(out, "  the card holder pays at %s", p.PayinURL)
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintln(out, "Payout requests (staff validates them: POST /api/payment_hub/payout_requests/{id}/validate/):")
	for _, p := range l.payouts {
		fmt.Fprintf(out, "  %d %s %s %s, %d payments\n", p.ID, p.Status, p.Amount.StringFixed(2), p.Currency, p.PaymentsCount)
	}
	fmt.Fprintln(out, "Payment requests (the customer pays at the link, with the card 4242424242424242):")
	for _, r := range l.requests {
		fmt.Fprintf(out, "  %d %s %s %s\n", r.ID, r.Reference, r.Amount.StringFixed(2), r.URL)
	}
}
