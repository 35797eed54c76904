package network

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/webhooks"
)

// Network vouchers: a voucher of a marketplace's box is used a number of
// times (its max_usages) at the partners with a validated offer in the
// box. Its usage_count changes only in the statement that writes the
// movement of its ledger (a guarded update: concurrent usages cannot use
// it more than max_usages times), so that it is always the sum of the
// voucher's movements.

// MaxUsageComment bounds a usage's and a cancel's comment.
const MaxUsageComment = 1000

// maxEmail bounds the e-mail a list is searched by (RFC 5321).
const maxEmail = 254

// BoxRecord is a network voucher box as the administration shows it.
type BoxRecord struct {
	ID               int64
	MarketplaceID    int64
	Name             domain.Localized
	ShortDescription domain.Localized
	LongDescription  domain.Localized
	CreationDate     time.Time
	IsActive         bool
	IsHighlight      bool
	Price            decimal.Decimal
	Weight           int // grams of the physical box; 0 when none
	PriceScope       int
	MaxUsages        int // of the vouchers it sells
	// MaxDaysAfterFirstUsage keeps a voucher's usages within that many
	// days of its first one; 0: no limit.
	MaxDaysAfterFirstUsage int
	NbMPOOrders            int
	PriceRange             *PriceRange // nil when none
	Images                 []*BoxImage // the images that are media, in display order
	// AllowedPartners are the partners a voucher of the box can be used
	// at: those of the marketplace's network with a validated offer in it,
	// by id.
	AllowedPartners []*AllowedPartner
	Products        []*BoxProduct // by id
}

// PriceRange is a marketplace's price range.
type PriceRange struct {
	ID        int64
	PartnerID int64
	Name      domain.Localized
}

// BoxImage is a box's image that is a media of the library.
type BoxImage struct {
	ID    int64
	Cover bool
	Media BoxMedia
}

// BoxMedia is the media of a BoxImage.
type BoxMedia struct {
	ID         int64
	UUID       uuid.UUID
	Name       string
	Size       int64
	CreatedOn  time.Time
	ArchivedOn *time.Time
}

// AllowedPartner is a partner a box's vouchers can be used at.
type AllowedPartner struct {
	ID         int64
	SourceID   *string // its source id in the marketplace's network; nil when none
	AgencyName string  // its legal information's agency name, else its name
}

// BoxProduct is a variant a box is sold as.
type BoxProduct struct {
	ID           int64
	Name         domain.Localized
	PriceRangeID *int64
}

// Offer is a partner's offer in a box, as the administration shows it.
type Offer struct {
	ID            int64
	BoxID         int64
	PartnerID     int64
	ProductID     *int64
	Name          domain.Localized
	Description   domain.Localized
	TermsOfUse    domain.Localized
	EditionDate   time.Time
	RejectionDate *time.Time
	IsActive      bool
	Status        string
	Ranking       int
}

// Voucher is a network voucher as the administration shows it.
type Voucher struct {
	ID             int64
	UUID           uuid.UUID
	Code           string
	Status         string
	CreationDate   time.Time
	ExpirationDate *time.Time
	MaxUsages      int
	UsageCount     int
	Language       string // the buyer's: the texts below are shown in it
	BoxID          int64
	MarketplaceID  int64 // the box's
	Box            VoucherBox
}

// VoucherBox is what a voucher's record shows of its box.
type VoucherBox struct {
	Name             domain.Localized
	ShortDescription domain.Localized
	LongDescription  domain.Localized
	Price            decimal.Decimal
	IsActive         bool
	// Universes are the box's universes, each as the names of its path
	// from the root, by universe id.
	Universes [][]domain.Localized
}

// Text is l in the voucher's language, else in the first language of
// domain.Languages that has one; "" when none has.
func (v *Voucher) Text(l domain.Localized) string {
	if s := l[v.Language]; s != "" {
		return s
	}
	for _, lang := range domain.Languages {
		if s := l[lang]; s != "" {
			return s
		}
	}
	return ""
}

// UsableVoucher is what a usage checks of a network voucher and its box.
type UsableVoucher struct {
	ID                     int64
	MarketplaceID          int64
	MarketplaceTimeZone    string
	BoxID                  int64
	Status                 string
	MaxUsages              int
	UsageCount             int
	ExpirationDate         *time.Time
	FirstUsageDate         *time.Time // of its active usages; nil when none
	LastUsageDate          *time.Time
	MaxDaysAfterFirstUsage int // the box's
	ManagementFees         decimal.Decimal
	CommissionRate         decimal.Decimal
}

// VoucherUsage is a use of a network voucher at a partner.
type VoucherUsage struct {
	ID                int64
	VoucherID         int64
	MarketplaceID     int64 // the voucher's box's
	PartnerID         int64
	PartnerAgencyName string
	PartnerSourceID   *int64
	IsActive          bool // false once cancelled
	Comment           string
	ManagementFees    decimal.Decimal
	CommissionRate    decimal.Decimal
	CreationDate      time.Time
	PayoutID          *int64 // the payout it counts in; then it cannot be cancelled
	ActorUserID       int64  // who records it, for its ledger movement
}

// UsagePartner is the partner a usage names, as seen from a voucher's
// marketplace and box.
type UsagePartner struct {
	ID                int64
	SourceID          *int64 // in the marketplace's network, when digits
	InNetwork         bool
	Active            bool // its status is not i
	HasValidatedOffer bool // in the box
}

// VoucherStore reads and writes network vouchers, their boxes, usages and
// ledger.
type VoucherStore interface {
	// FindBoxes returns a page of the boxes of tenant's marketplace (nil:
	// every marketplace's), by id, and how many there are.
	FindBoxes(ctx context.Context, tenant *int64, page domain.PageRequest) ([]*BoxRecord, int, error)
	// FindBox returns the box; domain.ErrNotFound when none.
	FindBox(ctx context.Context, id int64) (*BoxRecord, error)
	// FindOffers returns a page of the box's offers, whatever their
	// status, by ranking then id, and how many there are.
	FindOffers(ctx context.Context, boxID int64, page domain.PageRequest) ([]*Offer, int, error)
	// FindVoucherByCode returns the voucher with that code
	// (case-insensitive); domain.ErrNotFound when none.
	FindVoucherByCode(ctx context.Context, code string) (*Voucher, error)
	// FindVouchersByEmail returns a page of the vouchers of tenant's
	// marketplace (nil: any) whose gifter or giftee has that e-mail
	// (case-insensitive), by id, and how many there are.
	FindVouchersByEmail(ctx context.Context, email string, tenant *int64, page domain.PageRequest) ([]*Voucher, int, error)
	// FindUsages returns a page of the voucher's usages, by id, and how
	// many there are.
	FindUsages(ctx context.Context, voucherID int64, page domain.PageRequest) ([]*VoucherUsage, int, error)
	// FindUsableVoucher returns what a usage checks of the voucher with
	// that code (case-insensitive); domain.ErrNotFound when none.
	FindUsableVoucher(ctx context.Context, code string) (*UsableVoucher, error)
	// FindUsagePartner returns the partner with id ref, or, bySourceID, the
	// partner of marketplace's network with source id ref, with its place
	// in the network and in box; nil when there is none.
	FindUsagePartner(ctx context.Context, marketplace, box int64, bySourceID bool, ref int64) (*UsagePartner, error)
	// UseVoucher counts u at voucher u.VoucherID if it is usable then (its
	// status StatusPaid or StatusUsing, a usage left, u.CreationDate not
	// after its expiration nor, when its box says, too far from its other
	// active usages, u.PartnerID in its marketplace's network with a
	// validated offer in its box), moving StatusPaid to StatusUsing, and
	// writes u and its MovementUse, in one statement (the voucher's row is
	// locked for no longer); it sets u.ID and u.PartnerAgencyName. ok is
	// false, and nothing is written, otherwise.
	UseVoucher(ctx context.Context, u *VoucherUsage) (ok bool, err error)
	// LockUsageVoucher locks the voucher of usage id for the rest of the
	// transaction. A tenant limits it to the usages of that marketplace's
	// vouchers; domain.ErrNotFound when no usage (of the tenant) has that
	// id.
	LockUsageVoucher(ctx context.Context, id int64, tenant *int64) error
	// CancelUsage marks the usage inactive if it is active and in no
	// payout, takes its count back from its voucher (whose usage dates
	// become those of its other active usages) and writes the
	// MovementCancel of actor with comment, in one statement; it returns
	// the usage and whether it changed.
	CancelUsage(ctx context.Context, id int64, actor int64, comment string) (u *VoucherUsage, done bool, err error)
}

// VoucherService serves the administration's network vouchers: boxes,
// their offers, vouchers, and their usages at partners.
type VoucherService struct {
	uow  domain.UnitOfWork[Stores]
	keys *idempotency.Guard
}

// NewVoucherService returns the service. Its writes run under the
// request's idempotency key, kept by keys.
func NewVoucherService(uow domain.UnitOfWork[Stores], keys *idempotency.Guard) *VoucherService {
	return &VoucherService{uow: uow, keys: keys}
}

// Boxes lists the boxes of the caller's marketplace (staff: every
// marketplace's), active or not, by id.
// Errors: those of Authorize(OpNetworkVoucherRead); CodeNotFound "Invalid
// page." past the end.
func (s *VoucherService) Boxes(ctx context.Context, page domain.PageRequest) (*domain.Page[*BoxRecord], error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkVoucherRead)
	if err != nil {
		return nil, err
	}
	boxes, count, err := s.uow.Stores().Vouchers.FindBoxes(ctx, c.Tenant(), page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(boxes, count, page)
}

// Box returns a box of the caller's marketplace (staff: any).
// Errors: those of Authorize(OpNetworkVoucherRead); CodeNotFound for an
// unknown box or another marketplace's.
func (s *VoucherService) Box(ctx context.Context, id int64) (*BoxRecord, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkVoucherRead)
	if err != nil {
		return nil, err
	}
	return seenBox(ctx, s.uow.Stores(), c, id)
}

func seenBox(ctx context.Context, st Stores, c *domain.Caller, id int64) (*BoxRecord, error) {
	b, err := st.Vouchers.FindBox(ctx, id)
	if err != nil {
		return nil, err
	}
	if !c.Sees(b.MarketplaceID) {
		return nil, domain.ErrNotFound
	}
	return b, nil
}

// BoxOffers lists the offers of a box of the caller's marketplace (staff:
// any), whatever their status, by ranking then id.
// Errors: those of Box; CodeNotFound "Invalid page." past the end.
func (s *VoucherService) BoxOffers(ctx context.Context, boxID int64, page domain.PageRequest) (*domain.Page[*Offer], error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkVoucherRead)
	if err != nil {
		return nil, err
	}
	st := s.uow.Stores()
	if _, err := seenBox(ctx, st, c, boxID); err != nil {
		return nil, err
	}
	offers, count, err := st.Vouchers.FindOffers(ctx, boxID, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(offers, count, page)
}

// NetworkVoucherByCode returns a voucher of a box of the caller's
// marketplace (staff: any) by its code, case-insensitive.
// Errors: those of Authorize(OpNetworkVoucherRead); CodeNotFound for an
// unknown code or another marketplace's voucher.
func (s *VoucherService) NetworkVoucherByCode(ctx context.Context, code string) (*Voucher, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkVoucherRead)
	if err != nil {
		return nil, err
	}
	return seenVoucher(ctx, s.uow.Stores(), c, code)
}

func seenVoucher(ctx context.Context, st Stores, c *domain.Caller, code string) (*Voucher, error) {
	if !plausibleCode(code) {
		return nil, domain.ErrNotFound
	}
	v, err := st.Vouchers.FindVoucherByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	if !c.Sees(v.MarketplaceID) {
		return nil, domain.ErrNotFound
	}
	return v, nil
}

// plausibleCode reports whether code could be a gift code (at most 64
// characters of text): a longer one, or one with a NUL or bytes that are
// not UTF-8 (domain.TextProblem), names nothing and is not looked up.
func plausibleCode(code string) bool {
	return code != "" && len(code) <= 64 && domain.TextProblem(code) == ""
}

// NetworkVouchersByEmail lists the vouchers of the caller's marketplace
// (staff: any) whose gifter or giftee has that e-mail, case-insensitive,
// by id.
// Errors: those of Authorize(OpNetworkVoucherRead); CodeInvalid on
// "email" past 254 characters; CodeNotFound "Invalid page." past the end.
func (s *VoucherService) NetworkVouchersByEmail(ctx context.Context, email string, page domain.PageRequest) (*domain.Page[*Voucher], error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkVoucherRead)
	if err != nil {
		return nil, err
	}
	email = strings.TrimSpace(email)
	if utf8.RuneCountInString(email) > maxEmail {
		return nil, fieldError("email", domain.VMaxLength, fmt.Sprintf(domain.MsgMaxLength, maxEmail))
	}
	var vs []*Voucher
	count := 0
	if email != "" {
		if vs, count, err = s.uow.Stores().Vouchers.FindVouchersByEmail(ctx, email, c.Tenant(), page); err != nil {
			return nil, err
		}
	}
	return domain.NewPage(vs, count, page)
}

// UsagesByCode lists the usages of a voucher of the caller's marketplace
// (staff: any), cancelled ones included, by id.
// Errors: those of NetworkVoucherByCode; CodeNotFound "Invalid page." past
// the end.
func (s *VoucherService) UsagesByCode(ctx context.Context, code string, page domain.PageRequest) (*domain.Page[*VoucherUsage], error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkVoucherRead)
	if err != nil {
		return nil, err
	}
	st := s.uow.Stores()
	v, err := seenVoucher(ctx, st, c, code)
	if err != nil {
		return nil, err
	}
	usages, count, err := st.Vouchers.FindUsages(ctx, v.ID, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(usages, count, page)
}

// The body fields naming a usage's partner.
const (
	// PartnerBySourceID is the partner's source id in the voucher's
	// marketplace's network.
	PartnerBySourceID = "partner_source_id"
	// PartnerByID is the partner's own id.
	PartnerByID = "partner_id"
)

// UsageInput is a usage of the voucher with Code: creation_date
// (required: a date-time, or a date, taken at 12:00 in the marketplace's
// time zone), the partner (required, PartnerRef) and comment (optional;
// null is none).
type UsageInput struct {
	domain.Refusals
	Code string
	PartnerRef
	CreationDate domain.Optional[LocalTime]
	Comment      domain.Optional[string]
}

// Messages of refused usages and cancels.
const (
	MsgVoucherNotUsable    = "This network voucher cannot be used: its status is %s."
	MsgVoucherUsedUp       = "This network voucher has no usage left: it has been used %d times, its max_usages."
	MsgVoucherExpired      = "This network voucher expired on %s."
	MsgVoucherWindow       = "This network voucher can only be used within %d days of its first usage, on %s."
	MsgNoValidatedOffer    = "This partner has no validated offer in the network voucher's box."
	MsgNotVoucherNetwork   = "This partner is not in the network voucher's marketplace network."
	MsgNoSourceID          = "No partner of the network voucher's marketplace network has this source id."
	MsgVoucherUsageChanged = "The network voucher changed meanwhile; try again."
)

// RecordUsage counts a usage of a voucher of the caller's marketplace
// (staff: any) at a partner, in one transaction: the checks, then the
// guarded update with the usage and its ledger movement (UseVoucher). The
// usage carries the box's management fees and commission rate as they
// are then. Concurrent usages of one voucher cannot use it more than its
// max_usages.
// Errors: those of Authorize(OpNetworkVoucherUse); CodeNotFound for an
// unknown code or another marketplace's voucher; CodeInvalid with the
// body's field errors, on the partner field (no such partner, not in the
// marketplace's network, without a validated offer in the box) or on
// "creation_date" (after the expiration, or outside the box's days after
// the first usage); CodeConflict when the voucher's status is not paid
// or using, or it has no usage left.
func (s *VoucherService) RecordUsage(ctx context.Context, in UsageInput) (*VoucherUsage, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkVoucherUse)
	if err != nil {
		return nil, err
	}
	var usage *VoucherUsage
	usage, err = guarded(ctx, s.uow, s.keys, "network.voucher.use", in, &usage, func(ctx context.Context, tx Stores) error {
		if !plausibleCode(in.Code) {
			return domain.ErrNotFound
		}
		v, err := tx.Vouchers.FindUsableVoucher(ctx, in.Code)
		if err != nil {
			return err
		}
		if !c.Sees(v.MarketplaceID) {
			return domain.ErrNotFound
		}
		at, ref, comment, err := readUsage(ctx, tx, in, location(v.MarketplaceTimeZone))
		if err != nil {
			return err
		}
		p, err := tx.Vouchers.FindUsagePartner(ctx, v.MarketplaceID, v.BoxID, ref.field == PartnerBySourceID, ref.id)
		if err != nil {
			return err
		}
		if err := refusal(v, p, ref.field, ref.id, at); err != nil {
			return err
		}
		usage = &VoucherUsage{VoucherID: v.ID, MarketplaceID: v.MarketplaceID, PartnerID: p.ID, PartnerSourceID: p.SourceID,
			IsActive: true, Comment: comment, ManagementFees: v.ManagementFees, CommissionRate: v.CommissionRate,
			CreationDate: at, ActorUserID: c.User.ID}
		recipients := webhooks.Recipients(usage.MarketplaceID, usage.PartnerID)
		if _, err := tx.Events.Prepare(ctx, "network_voucher.used", recipients); err != nil {
			return err
		}
		ok, err := tx.Vouchers.UseVoucher(ctx, usage)
		if err != nil {
			return err
		}
		if ok {
			return tx.Events.Publish(ctx, webhooks.Event{Type: "network_voucher.used", Partners: recipients, Resource: usage})
		}
		// Refused by the guard: another usage or cancel came first. Say
		// why from what the voucher is now.
		now, err := tx.Vouchers.FindUsableVoucher(ctx, in.Code)
		if err != nil {
			return err
		}
		if err := refusal(now, p, ref.field, ref.id, at); err != nil {
			return err
		}
		return &domain.Error{Code: domain.CodeConflict, Message: MsgVoucherUsageChanged}
	})
	if err != nil {
		return nil, err
	}
	return usage, nil
}

// refusal is why v cannot be used at p at at, or nil.
func refusal(v *UsableVoucher, p *UsagePartner, field string, ref int64, at time.Time) error {
	switch {
	case p == nil && field == PartnerBySourceID:
		return fieldError(field, domain.VNotFound, MsgNoSourceID)
	case p == nil:
		return fieldError(field, domain.VNotFound, fmt.Sprintf(domain.MsgPKMissing, ref))
	case v.Status != StatusPaid && v.Status != StatusUsing:
		return &domain.Error{Code: domain.CodeConflict, Message: fmt.Sprintf(MsgVoucherNotUsable, v.Status)}
	case v.ExpirationDate != nil && at.After(*v.ExpirationDate):
		return fieldError("creation_date", domain.VInvalid, fmt.Sprintf(MsgVoucherExpired, v.ExpirationDate.UTC().Format(time.RFC3339)))
	case !p.InNetwork && field == PartnerByID:
		// As an unknown id: the ids of other partners are not probed.
		return fieldError(field, domain.VNotFound, fmt.Sprintf(domain.MsgPKMissing, ref))
	case !p.InNetwork:
		return fieldError(field, domain.VInvalid, MsgNotVoucherNetwork)
	case !p.Active:
		return fieldError(field, domain.VInvalid, MsgPartnerInactive)
	case !p.HasValidatedOffer:
		return fieldError(field, domain.VInvalid, MsgNoValidatedOffer)
	case v.UsageCount >= v.MaxUsages:
		return &domain.Error{Code: domain.CodeConflict, Message: fmt.Sprintf(MsgVoucherUsedUp, v.UsageCount)}
	case !inWindow(v, at):
		return fieldError("creation_date", domain.VInvalid, fmt.Sprintf(MsgVoucherWindow, v.MaxDaysAfterFirstUsage,
			v.FirstUsageDate.UTC().Format(time.RFC3339)))
	}
	return nil
}

// inWindow reports whether a usage at at keeps the voucher's active
// usages within its box's days (of 24 hours) of the earliest one.
func inWindow(v *UsableVoucher, at time.Time) bool {
	if v.MaxDaysAfterFirstUsage == 0 || v.FirstUsageDate == nil {
		return true
	}
	first, last := *v.FirstUsageDate, *v.LastUsageDate
	if at.Before(first) {
		first = at
	}
	if at.After(last) {
		last = at
	}
	return !last.After(first.Add(time.Duration(v.MaxDaysAfterFirstUsage) * 24 * time.Hour))
}

// readUsage reads a usage: its date in loc, the partner (its source id
// or its record id, in ref.id) and the comment.
// Errors: CodeInvalid with the field errors; CodeNotFound for a partner
// uuid naming none.
func readUsage(ctx context.Context, tx Stores, in UsageInput, loc *time.Location) (at time.Time, ref partner, comment string, err error) {
	v := in.Refusals.Validator()
	f := domain.Fields{V: v}
	if l, ok := checkLocalTime(f, "creation_date", in.CreationDate, true); ok {
		at = l.Noon(loc)
	}
	ref, ok := in.PartnerRef.check(f)
	if ok && ref.sourceID != "" {
		ref.id, _ = strconv.ParseInt(ref.sourceID, 10, 64)
	}
	if ok && ref.uuid != nil {
		p, err := tx.Partners.FindPartnerByUUID(ctx, *ref.uuid)
		if err != nil {
			return at, ref, "", err
		}
		ref.id = p.ID
	}
	comment = checkComment(f, in.Comment)
	return at, ref, comment, v.Err()
}

// checkComment reads the optional comment of a usage or a cancel: at most
// MaxUsageComment characters; null is none.
func checkComment(f domain.Fields, o domain.Optional[string]) string {
	s, _ := f.NullableString("comment", o, true, MaxUsageComment)
	return domain.Pick(s, "")
}

var locations sync.Map // time zone name -> *time.Location

// location is the zone of a marketplace's dates; UTC when its zone is
// unknown to this system.
func location(zone string) *time.Location {
	if loc, ok := locations.Load(zone); ok {
		return loc.(*time.Location)
	}
	loc, err := time.LoadLocation(zone)
	if err != nil || zone == "" {
		return time.UTC
	}
	locations.Store(zone, loc)
	return loc
}

// CancelUsage marks a usage of a voucher of the caller's marketplace
// (staff: any) inactive and gives its count back to the voucher, with a
// ledger movement carrying the input's optional comment, in one
// transaction. A usage already cancelled is answered as it is: nothing is
// given back twice.
// Errors: those of Authorize(OpNetworkVoucherUse); CodeNotFound for an
// unknown usage or another marketplace's; CodeInvalid on "comment";
// CodeConflict (MsgUsageInPayout) for one in a payout.
func (s *VoucherService) CancelUsage(ctx context.Context, in CancelUsageInput) (*VoucherUsage, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkVoucherUse)
	if err != nil {
		return nil, err
	}
	v := in.Refusals.Validator()
	comment := checkComment(domain.Fields{V: v}, in.Comment)
	if err := v.Err(); err != nil {
		return nil, err
	}
	id := in.ID
	var usage *VoucherUsage
	usage, err = guarded(ctx, s.uow, s.keys, "network.voucher.cancel", cancelInput{ID: id, Comment: comment}, &usage, func(ctx context.Context, tx Stores) error {
		// The voucher's row first: its usage dates are then computed from
		// every usage committed before.
		if err := tx.Vouchers.LockUsageVoucher(ctx, id, c.Tenant()); err != nil {
			return err
		}
		u, done, err := tx.Vouchers.CancelUsage(ctx, id, c.User.ID, comment)
		if err != nil {
			return err
		}
		usage = u
		if !done && u.PayoutID != nil {
			return &domain.Error{Code: domain.CodeConflict, Message: MsgUsageInPayout}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return usage, nil
}
