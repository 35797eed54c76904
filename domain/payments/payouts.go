package payments

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/network"
	"salesplatform/domain/webhooks"
)

// Payout requests: what the hub pays a partner for a period. The payouts
// job (BuildPayouts) builds one per payee and currency once the payee's
// period (payout_frequency, in its time zone) has closed. It gathers the
// payee's paid payments and its network giftcard usages dated (freeze
// date, else the payment's paid date or the usage's creation date) before
// the period's end and in no payout yet, and moves the payments' money
// from the payee's wallet to the platform's payouts wallet in the same
// transaction. Staff then validate it (unless the partner's payouts are
// validated at once, or their validation is blocked) and mark it paid
// once the bank transfer is made (docs/DECISIONS.md, "Payouts").

// Payout frequencies.
const (
	FrequencyWeek  = "week"  // Monday to Monday
	FrequencyBimth = "bimth" // the 1st to the 16th, the 16th to the 1st
	FrequencyMonth = "month" // the 1st to the 1st
)

// Audit actions of payout requests (AuditPayoutValidate is refunds.go's).
const (
	AuditPayoutAutoValidate = "payout_auto_validate"
	AuditPayoutPaid         = "payout_paid"
	// PayoutsActor is the audit trail's actor of the payouts job.
	PayoutsActor = "platform:payouts"
)

// Messages of refused payout changes.
const (
	MsgPayoutValidationBlocked = "This partner's payouts cannot be validated (block_payout_validation)."
	MsgPayoutNotToValidate     = "Only a payout request to be validated can be validated."
	MsgPayoutNotValidated      = "Only a validated payout request can be marked paid."
)

// Payout is a payout request.
type Payout struct {
	ID          int64
	UUID        uuid.UUID
	PartnerID   int64 // the payee
	PartnerUUID uuid.UUID
	ReferrerID  *int64 // the payee's referring marketplace
	Currency    string
	Status      string // one of PayoutStatuses
	// The period it pays: [PeriodStart, PeriodEnd).
	PeriodStart, PeriodEnd time.Time
	// Amount moved from the payee's wallet: its payments' net amounts
	// less their refunds, and less the refunds of payments paid out
	// before. UsagesAmount is its usages' value.
	Amount, UsagesAmount decimal.Decimal
	PaymentsCount        int
	UsagesCount          int
	CreationDate         time.Time
	ValidationDate       *time.Time
	PaidDate             *time.Time
}

// DuePayment is a paid payment a payout may gather: what of its net
// amount is still in its payee's wallet.
type DuePayment struct {
	ID       int64
	Currency string
	Due      decimal.Decimal
}

// DueRefund is a refund of a payment already paid out: what it took from
// the payee's wallet, deducted from the next payout.
type DueRefund struct {
	ID       int64
	Currency string
	Amount   decimal.Decimal
}

// DueUsage is a network giftcard usage a payout may gather.
type DueUsage struct {
	ID       int64
	Currency string // its card's
	Value    decimal.Decimal
}

// PayoutFilter narrows the payout list; zero fields do not narrow it.
type PayoutFilter struct {
	Tenant        *int64 // the caller's partner: its payouts and its referred partners'; nil for staff
	PartnerUUID   *uuid.UUID
	CreatedFrom   *time.Time // creation_date on or after
	CreatedBefore *time.Time // creation_date before
	Statuses      []string
}

// PayoutStore reads and writes payout requests.
type PayoutStore interface {
	// HubPartners returns the uuids of every payment-hub partner.
	HubPartners(ctx context.Context) ([]uuid.UUID, error)
	// PayoutExists reports whether the partner has a payout request of
	// that currency and period.
	PayoutExists(ctx context.Context, partnerID int64, currency string, start time.Time) (bool, error)
	// DuePayments returns, locked, the paid payments of payee in no
	// payout whose freeze date (else paid date) is before end and that no
	// refund under way holds.
	DuePayments(ctx context.Context, payeeID int64, end time.Time) ([]DuePayment, error)
	// DueRefunds returns, locked, the succeeded refunds of payee's paid
	// out payments that no payout accounted for.
	DueRefunds(ctx context.Context, payeeID int64) ([]DueRefund, error)
	// DueUsages returns, locked, the partner's active network giftcard
	// usages in no payout whose freeze date (else creation date) is
	// before end.
	DueUsages(ctx context.Context, partnerID int64, end time.Time) ([]DueUsage, error)
	// CreatePayout writes p and sets ID, UUID and CreationDate.
	CreatePayout(ctx context.Context, p *Payout) error
	// Attach puts the payments, their refunds, the refunds and the usages
	// (and their ledger's use movements) in the payout.
	Attach(ctx context.Context, payoutID int64, payments, refunds, usages []int64) error
	// FindPayout returns the payout request with that id, with its
	// counts; with lock, its row is locked until the transaction ends.
	// Errors: domain.ErrNotFound.
	FindPayout(ctx context.Context, id int64, lock bool) (*Payout, error)
	// SavePayout writes p's Status, ValidationDate and PaidDate.
	SavePayout(ctx context.Context, p *Payout) error
	// ListPayouts returns a page of the payout requests f selects, newest
	// first, and how many it selects.
	ListPayouts(ctx context.Context, f PayoutFilter, page domain.PageRequest) ([]*Payout, int, error)
	// UsagesOfPayout returns a page of the payout's usages, oldest first,
	// and how many there are.
	UsagesOfPayout(ctx context.Context, id int64, page domain.PageRequest) ([]*network.Usage, int, error)
}

// PayoutPeriod returns the period of frequency freq that holds t, in loc:
// [start, end).
func PayoutPeriod(t time.Time, freq string, loc *time.Location) (start, end time.Time) {
	t = t.In(loc)
	y, m, d := t.Date()
	switch freq {
	case FrequencyWeek:
		back := (int(t.Weekday()) + 6) % 7 // days since Monday
		start = time.Date(y, m, d-back, 0, 0, 0, 0, loc)
		return start, time.Date(y, m, d-back+7, 0, 0, 0, 0, loc)
	case FrequencyBimth:
		if d < 16 {
			return time.Date(y, m, 1, 0, 0, 0, 0, loc), time.Date(y, m, 16, 0, 0, 0, 0, loc)
		}
		return time.Date(y, m, 16, 0, 0, 0, 0, loc), time.Date(y, m+1, 1, 0, 0, 0, 0, loc)
	}
	return time.Date(y, m, 1, 0, 0, 0, 0, loc), time.Date(y, m+1, 1, 0, 0, 0, 0, loc)
}

// lastClosedPeriod is the latest period of freq that ended at or before now.
func lastClosedPeriod(now time.Time, freq string, loc *time.Location) (start, end time.Time) {
	current, _ := PayoutPeriod(now, freq, loc)
	return PayoutPeriod(current.Add(-time.Nanosecond), freq, loc)
}

// PayoutService builds payout requests, validates them, marks them paid
// and reads them.
type PayoutService struct {
	uow  domain.UnitOfWork[Stores]
	keys *idempotency.Guard
}

// NewPayoutService returns the service; its POSTs run under keys (nil:
// without idempotency keys).
func NewPayoutService(uow domain.UnitOfWork[Stores], keys *idempotency.Guard) *PayoutService {
	return &PayoutService{uow: uow, keys: keys}
}

// BuildResult tells what a run of BuildPayouts did.
type BuildResult struct {
	Built   []*Payout
	Skipped map[uuid.UUID]error // partners whose build failed, left for the next run
}

// BuildPayouts builds, for each payment-hub partner whose last period
// (at now) has closed, its payout requests of that period: one per
// currency it has something due in. Each partner is built in a
// transaction of its own, on its locked row, so that a failure leaves the
// others built and two runs cannot build one period twice (a unique key
// on the period is the backstop). It is the platform's own work: no
// caller.
func (s *PayoutService) BuildPayouts(ctx context.Context, now time.Time) (*BuildResult, error) {
	ids, err := s.uow.Stores().Payouts.HubPartners(ctx)
	if err != nil {
		return nil, err
	}
	res := &BuildResult{Skipped: map[uuid.UUID]error{}}
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		var built []*Payout
		err := s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
			var err error
			built, err = buildPartner(ctx, tx, id, now)
			return err
		})
		if err != nil {
			res.Skipped[id] = err
			continue
		}
		res.Built = append(res.Built, built...)
	}
	return res, nil
}

// buildPartner builds the payouts of partner id's last closed period.
func buildPartner(ctx context.Context, tx Stores, id uuid.UUID, now time.Time) ([]*Payout, error) {
	partner, err := tx.Partners.FindHubPartner(ctx, id, true)
	if err != nil {
		return nil, err
	}
	start, end := lastClosedPeriod(now, partner.PayoutFrequency, partnerLocation(partner))
	pays, err := tx.Payouts.DuePayments(ctx, partner.ID, end)
	if err != nil {
		return nil, err
	}
	refunds, err := tx.Payouts.DueRefunds(ctx, partner.ID)
	if err != nil {
		return nil, err
	}
	usages, err := tx.Payouts.DueUsages(ctx, partner.ID, end)
	if err != nil {
		return nil, err
	}
	type due struct {
		amount, usages            decimal.Decimal
		payments, refunds, useIDs []int64
	}
	byCurrency := map[string]*due{}
	var currencies []string
	of := func(c string) *due {
		if byCurrency[c] == nil {
			byCurrency[c] = &due{}
			currencies = append(currencies, c)
		}
		return byCurrency[c]
	}
	for _, p := range pays {
		d := of(p.Currency)
		d.amount, d.payments = d.amount.Add(p.Due), append(d.payments, p.ID)
	}
	for _, u := range usages {
		d := of(u.Currency)
		d.usages, d.useIDs = d.usages.Add(u.Value), append(d.useIDs, u.ID)
	}
	for _, r := range refunds {
		if d := byCurrency[r.Currency]; d != nil {
			d.amount, d.refunds = d.amount.Sub(r.Amount), append(d.refunds, r.ID)
		}
	}
	var out []*Payout
	for _, c := range currencies {
		d := byCurrency[c]
		exists, err := tx.Payouts.PayoutExists(ctx, partner.ID, c, start)
		switch {
		case err != nil:
			return nil, err
		case exists || d.amount.IsNegative():
			// Built already (what came since waits for the next period),
			// or refunds of payments paid out before exceed what is due:
			// they wait for more to be due.
			continue
		}
		p := &Payout{PartnerID: partner.ID, PartnerUUID: partner.UUID, ReferrerID: partner.ReferrerID, Currency: c,
			Status: PayoutToValidate, PeriodStart: start, PeriodEnd: end, Amount: d.amount, UsagesAmount: d.usages,
			PaymentsCount: len(d.payments), UsagesCount: len(d.useIDs)}
		if partner.AutoValidatePayout && !partner.BlockPayoutValidation {
			at := now.Truncate(time.Microsecond)
			p.Status, p.ValidationDate = PayoutValidated, &at
		}
		if err := tx.Payouts.CreatePayout(ctx, p); err != nil {
			return nil, err
		}
		if err := tx.Payouts.Attach(ctx, p.ID, d.payments, d.refunds, d.useIDs); err != nil {
			return nil, err
		}
		if err := payOut(ctx, tx, p); err != nil {
			return nil, err
		}
		if p.Status == PayoutValidated {
			if err := tx.Payments.AddAudit(ctx, &HubAuditEntry{PayoutRequestID: &p.ID, Actor: PayoutsActor,
				Action: AuditPayoutAutoValidate, Reason: "auto_validate_payout", Before: payoutStateOf(&Payout{Status: PayoutToValidate, Amount: p.Amount}),
				After: payoutStateOf(p)}); err != nil {
				return nil, err
			}
		}
		if err := publishBuilt(ctx, tx, p.ID); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// publishBuilt keeps the webhook events of the payout request id just
// built, to its partner: created, and validated when it was validated at
// once (auto_validate_payout).
func publishBuilt(ctx context.Context, tx Stores, id int64) error {
	p, err := tx.Payouts.FindPayout(ctx, id, false)
	if err != nil {
		return err
	}
	evs := []webhooks.Event{{Type: "payout_request.created", Partners: []int64{p.PartnerID}, Resource: p}}
	if p.Status == PayoutValidated {
		evs = append(evs, webhooks.Event{Type: "payout_request.validated", Partners: []int64{p.PartnerID}, Resource: p})
	}
	return tx.Events.Publish(ctx, evs...)
}

// payOut moves p's amount from its payee's wallet to the platform's
// payouts wallet.
func payOut(ctx context.Context, tx Stores, p *Payout) error {
	if !p.Amount.IsPositive() {
		return nil
	}
	from, err := PartnerWallet(ctx, tx, p.PartnerID, p.Currency)
	if err != nil {
		return err
	}
	to, err := PlatformWallet(ctx, tx, WalletPayouts, p.Currency)
	if err != nil {
		return err
	}
	_, err = Transfer(ctx, tx, MoveInput{From: from.UUID, To: to.UUID, Amount: p.Amount, Type: MovePayout,
		Reason: fmt.Sprintf("payout request %d", p.ID)})
	return err
}

// payoutState is what the audit trail records of a payout request.
type payoutState struct {
	Status         string  `json:"status"`
	Amount         string  `json:"amount"`
	ValidationDate *string `json:"validation_date"`
	PaidDate       *string `json:"paid_date"`
}

func payoutStateOf(p *Payout) json.RawMessage {
	s := payoutState{Status: p.Status, Amount: p.Amount.StringFixed(2)}
	if p.ValidationDate != nil {
		v := p.ValidationDate.UTC().Format(time.RFC3339Nano)
		s.ValidationDate = &v
	}
	if p.PaidDate != nil {
		v := p.PaidDate.UTC().Format(time.RFC3339Nano)
		s.PaidDate = &v
	}
	b, _ := json.Marshal(s)
	return b // strings only: always encodes
}

// seesPayout reports whether c sees p: staff, the payee's members, its
// referrer's.
func seesPayout(c *domain.Caller, p *Payout) bool { return sees(c, p.PartnerID, p.ReferrerID) }

// Payout returns the payout request with that id.
// Errors: those of Authorize(OpPayoutRead); CodeNotFound for one the
// caller does not see.
func (s *PayoutService) Payout(ctx context.Context, id int64) (*Payout, error) {
	c, err := domain.Authorize(ctx, domain.OpPayoutRead)
	if err != nil {
		return nil, err
	}
	p, err := s.uow.Stores().Payouts.FindPayout(ctx, id, false)
	if err != nil {
		return nil, err
	}
	if !seesPayout(c, p) {
		return nil, domain.ErrNotFound
	}
	return p, nil
}

// PayoutListInput is the payout list's query, as sent.
type PayoutListInput struct {
	// Days (UTC) or date-times; a range is two, comma-separated.
	CreationDateGte, CreationDateLte, CreationDateRange string
	PartnerUUID                                         string
	Status, StatusIn                                    string
}

func (in PayoutListInput) filter() (PayoutFilter, error) {
	var v domain.Validator
	var f PayoutFilter
	f.CreatedFrom, f.CreatedBefore = domain.DateFilters(&v, time.UTC, "creation_date", in.CreationDateGte,
		in.CreationDateLte, in.CreationDateRange)
	if in.PartnerUUID != "" {
		if u, err := uuid.Parse(in.PartnerUUID); err == nil {
			f.PartnerUUID = &u
		} else {
			v.Add(domain.VInvalid, domain.MsgUUID, "partner_uuid")
		}
	}
	f.Statuses = listChoices(&v, in.Status, in.StatusIn, PayoutStatuses, "status")
	return f, v.Err()
}

// Payouts returns a page of the payout requests the caller sees, newest
// first, narrowed by in.
// Errors: those of Authorize(OpPayoutRead); CodeInvalid on a malformed
// filter; CodeNotFound past the last page.
func (s *PayoutService) Payouts(ctx context.Context, in PayoutListInput, page domain.PageRequest) (*domain.Page[*Payout], error) {
	c, err := domain.Authorize(ctx, domain.OpPayoutRead)
	if err != nil {
		return nil, err
	}
	f, err := in.filter()
	if err != nil {
		return nil, err
	}
	f.Tenant = c.Tenant()
	items, count, err := s.uow.Stores().Payouts.ListPayouts(ctx, f, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(items, count, page)
}

// PayoutPayments returns a page of the payments of the payout request
// with that id, newest first.
// Errors: those of Payout; CodeNotFound past the last page.
func (s *PayoutService) PayoutPayments(ctx context.Context, id int64, page domain.PageRequest) (*domain.Page[*Payment], error) {
	p, err := s.Payout(ctx, id)
	if err != nil {
		return nil, err
	}
	items, count, err := s.uow.Stores().Payments.ListPayments(ctx, PaymentFilter{PayoutRequestID: &p.ID}, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(items, count, page)
}

// PayoutUsages returns a page of the network giftcard usages of the
// payout request with that id, oldest first.
// Errors: those of Payout; CodeNotFound past the last page.
func (s *PayoutService) PayoutUsages(ctx context.Context, id int64, page domain.PageRequest) (*domain.Page[*network.Usage], error) {
	p, err := s.Payout(ctx, id)
	if err != nil {
		return nil, err
	}
	items, count, err := s.uow.Stores().Payouts.UsagesOfPayout(ctx, p.ID, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(items, count, page)
}

// ValidatePayout validates a payout request to be validated, once per
// idempotency key, body {reason} (optional, at most MaxReasonLength), kept
// in the audit trail with the actor and the states before and after.
// Errors: those of Authorize(OpPayoutValidate) (staff only); CodeNotFound;
// CodeInvalid on reason; CodeConflict when the partner's payout
// validation is blocked or the request is not to be validated.
func (s *PayoutService) ValidatePayout(ctx context.Context, id int64, in PayoutChangeInput) (*Payout, error) {
	return s.change(ctx, id, in, "payments.payout.validate", func(p *Payout, partner *Partner, now time.Time) (string, error) {
		switch {
		case p.Status != PayoutToValidate:
			return "", &domain.Error{Code: domain.CodeConflict, Message: MsgPayoutNotToValidate}
		case partner.BlockPayoutValidation:
			return "", &domain.Error{Code: domain.CodeConflict, Message: MsgPayoutValidationBlocked}
		}
		p.Status, p.ValidationDate = PayoutValidated, &now
		return AuditPayoutValidate, nil
	})
}

// MarkPayoutPaid records that a validated payout request was paid (its
// bank transfer made), as ValidatePayout.
// Errors: those of ValidatePayout; CodeConflict when it is not validated.
func (s *PayoutService) MarkPayoutPaid(ctx context.Context, id int64, in PayoutChangeInput) (*Payout, error) {
	return s.change(ctx, id, in, "payments.payout.paid", func(p *Payout, _ *Partner, now time.Time) (string, error) {
		if p.Status != PayoutValidated {
			return "", &domain.Error{Code: domain.CodeConflict, Message: MsgPayoutNotValidated}
		}
		p.Status, p.PaidDate = PayoutPaid, &now
		return AuditPayoutPaid, nil
	})
}

// payoutEvents are the webhook event types of a payout request's changes,
// by the status they lead to.
var payoutEvents = map[string]string{PayoutValidated: "payout_request.validated", PayoutPaid: "payout_request.paid"}

// PayoutChangeInput is the body of a validation or a payment: why, kept in
// the audit trail.
type PayoutChangeInput struct {
	domain.Refusals
	Reason domain.Optional[string]
}

// change applies apply to the locked payout request id, for staff, with
// its audit row, once per idempotency key of scope.
func (s *PayoutService) change(ctx context.Context, id int64, in PayoutChangeInput, scope string,
	apply func(p *Payout, partner *Partner, now time.Time) (action string, err error)) (*Payout, error) {
	c, err := domain.Authorize(ctx, domain.OpPayoutValidate)
	if err != nil {
		return nil, err
	}
	v := in.Refusals.Validator()
	reason := ""
	if r := (domain.Fields{V: v}).String("reason", in.Reason, false, true, MaxReasonLength); r != nil {
		reason = *r
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	request := map[string]any{"payout": id, "body": in}
	out, err := idempotency.Run(ctx, s.keys, scope, request, func(ctx context.Context, complete idempotency.Complete[*Payout]) (idempotency.Done[*Payout], error) {
		var done idempotency.Done[*Payout]
		err := s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
			p, err := tx.Payouts.FindPayout(ctx, id, true)
			if err != nil {
				return err
			}
			if !seesPayout(c, p) {
				return domain.ErrNotFound
			}
			// Locked: an update setting block_payout_validation either
			// commits first, and is seen, or waits for this change.
			partner, err := tx.Partners.FindHubPartner(ctx, p.PartnerUUID, true)
			if err != nil {
				return err
			}
			before := payoutStateOf(p)
			// To the microsecond, as stored: the answer is the record read back.
			action, err := apply(p, partner, time.Now().Truncate(time.Microsecond))
			if err != nil {
				return err
			}
			if err := tx.Payouts.SavePayout(ctx, p); err != nil {
				return err
			}
			if err := tx.Events.Publish(ctx, webhooks.Event{Type: payoutEvents[p.Status],
				Partners: []int64{p.PartnerID}, Resource: p}); err != nil {
				return err
			}
			if err := tx.Payments.AddAudit(ctx, &HubAuditEntry{PayoutRequestID: &p.ID, ActorUserID: &c.User.ID,
				Actor: c.User.Username, Action: action, Reason: reason, Before: before, After: payoutStateOf(p)}); err != nil {
				return err
			}
			done, err = complete(ctx, tx.Keys, p)
			return err
		})
		return done, err
	})
	if err != nil {
		return nil, err
	}
	if idempotency.Replayed(ctx) {
		return s.uow.Stores().Payouts.FindPayout(ctx, out.ID, false)
	}
	return out, nil
}
