package gifts

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/l10n"
)

// GiftKind is one of the four products sold with a code. Its value is the
// "type" the catalogue shows.
type GiftKind string

const (
	GiftKindVoucher         GiftKind = "voucher"
	GiftKindGiftcard        GiftKind = "giftcard"
	GiftKindNetworkGiftcard GiftKind = "network_giftcard"
	GiftKindNetworkVoucher  GiftKind = "network_voucher"
)

// Voucher states, as the legacy records hold them.
const (
	VoucherStateDraft   = "draft"
	VoucherStatePaid    = "paid"
	VoucherStateError   = "error"
	VoucherStateUsing   = "using"
	VoucherStateUsed    = "used"
	VoucherStateExpired = "exprd"
)

// Statuses of giftcards, network giftcards and network vouchers: the network
// giftcard set of the legacy records, the only one it shows for
// a product spent in several goes.
const (
	GiftStatusDraft    = "draft"
	GiftStatusPaid     = "paid"
	GiftStatusCanceled = "cncld"
	GiftStatusUsing    = "using"
	GiftStatusTest     = "test"
)

// giftOfferValidated is the status of a box offer that is live: its partner
// takes the box's network vouchers.
const giftOfferValidated = "VALIDATED"

// MaxGiftCodeLength bounds a gift code; codes are letters, digits, ".", "_"
// and "-".
const MaxGiftCodeLength = 64

var giftCodePattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// ValidGiftCode reports whether code can name a gift at all.
func ValidGiftCode(code string) bool { return giftCodePattern.MatchString(code) }

// Voucher is a sold voucher of a voucher prototype; its partner is the
// prototype's. (The administration API's record adds many fields.)
type Voucher struct {
	ID                 int64
	Code               string
	VoucherPrototypeID int64
	State              string
	TotalPrice         decimal.Decimal
	CreationDate       time.Time // zero: now
	ExpirationDate     *time.Time
	GifterFirstName    string
	GifterLastName     string
	GifteeFirstName    string
	GifteeLastName     string
}

// Giftcard is a sold giftcard of a partner's giftcard settings (prototype);
// its partner is the prototype's.
type Giftcard struct {
	ID                  int64
	Code                string
	GiftcardPrototypeID int64
	Status              string
	Value               decimal.Decimal
	RemainingValue      decimal.Decimal
	CreatedOn           time.Time // zero: now
	ExpiresOn           *time.Time
}

// NetworkGiftcard is a giftcard sold by a marketplace, spent at the partners
// its network giftcard settings allow.
type NetworkGiftcard struct {
	ID             int64
	Code           string
	MarketplaceID  int64
	Status         string
	Value          decimal.Decimal
	RemainingValue decimal.Decimal
	CreationDate   time.Time // zero: now
	ActivationDate *time.Time
	ExpirationDate *time.Time
}

// NetworkVoucher is a voucher of a marketplace's box, used at the partners
// with a validated offer in the box.
type NetworkVoucher struct {
	ID             int64
	Code           string
	BoxID          int64
	Status         string
	MaxUsages      int
	UsageCount     int
	CreationDate   time.Time // zero: now
	ExpirationDate *time.Time
}

// Gift is a gift of any kind as a code resolves to it.
type Gift struct {
	Kind  GiftKind
	ID    int64
	Code  string
	State string // the voucher's state or the other kinds' status
	// Value is the voucher's total price or the giftcard's value; nil for
	// network vouchers, whose worth is their usages.
	Value *decimal.Decimal
	// RemainingValue is set for giftcards and network giftcards.
	RemainingValue *decimal.Decimal
	// MaxUsages and UsageCount are set for network vouchers.
	MaxUsages   *int
	UsageCount  *int
	CreatedAt   time.Time
	ActivatesAt *time.Time // network giftcards only
	ExpiresAt   *time.Time
	// ProductID is the voucher prototype, giftcard prototype or box; nil for
	// network giftcards, which have no product record.
	ProductID *int64
	// SellerID is the partner that sold the gift: the prototype's partner,
	// or the marketplace for network gifts.
	SellerID int64
}

// ProductType names the catalogue record behind a gift's product.
func (g *Gift) ProductType() string {
	switch g.Kind {
	case GiftKindVoucher:
		return "voucher_prototype"
	case GiftKindGiftcard:
		return "giftcard_prototype"
	case GiftKindNetworkVoucher:
		return "network_voucher_box"
	}
	return ""
}

// Usable reports whether the gift can still be spent at t: paid (or, for
// products spent in several goes, partly used), activated, not expired, and
// with value or usages left. A voucher is spent whole, so "using" is not
// usable for it.
func (g *Gift) Usable(t time.Time) bool {
	if g.ExpiresAt != nil && !t.Before(*g.ExpiresAt) {
		return false
	}
	if g.ActivatesAt != nil && t.Before(*g.ActivatesAt) {
		return false
	}
	switch g.Kind {
	case GiftKindVoucher:
		return g.State == VoucherStatePaid
	case GiftKindGiftcard, GiftKindNetworkGiftcard:
		return (g.State == GiftStatusPaid || g.State == GiftStatusUsing) &&
			g.RemainingValue != nil && g.RemainingValue.IsPositive()
	case GiftKindNetworkVoucher:
		return (g.State == GiftStatusPaid || g.State == GiftStatusUsing) &&
			g.MaxUsages != nil && g.UsageCount != nil && *g.UsageCount < *g.MaxUsages
	}
	return false
}

// ContactRequest is a message about a gift to the partner that sold it.
type ContactRequest struct {
	ID          int64
	PartnerID   int64
	GiftCode    string
	FullName    string
	Email       string
	PhoneNumber *string
	Message     string
	CreatedAt   time.Time
}

// GiftStore reads and writes what GiftService serves.
type GiftStore interface {
	// CreateVoucher inserts v and sets its ID and CreationDate. A code taken
	// by a gift of any kind is a CodeInvalid error on "code"; an unknown
	// prototype a CodeInvalid error on "voucher_prototype".
	CreateVoucher(ctx context.Context, v *Voucher) error
	// CreateGiftcard inserts g and sets its ID and CreatedOn. Errors as
	// CreateVoucher ("giftcard_prototype").
	CreateGiftcard(ctx context.Context, g *Giftcard) error
	// CreateNetworkGiftcard inserts g and sets its ID and CreationDate.
	// Errors as CreateVoucher; a partner that is not a marketplace is a
	// CodeInvalid error on "marketplace".
	CreateNetworkGiftcard(ctx context.Context, g *NetworkGiftcard) error
	// CreateNetworkVoucher inserts v and sets its ID and CreationDate.
	// Errors as CreateVoucher ("box").
	CreateNetworkVoucher(ctx context.Context, v *NetworkVoucher) error
	// AddNetworkGiftcardAllowedPartner lets the marketplace's network
	// giftcards be spent at the partner; adding it twice is harmless. A
	// marketplace id that names no marketplace is a CodeInvalid error on
	// "marketplace", an unknown partner on "partner".
	AddNetworkGiftcardAllowedPartner(ctx context.Context, marketplaceID, partnerID int64) error

	// FindGiftByCode returns the gift of any kind with that code (codes are
	// unique across kinds); ErrNotFound when there is none.
	FindGiftByCode(ctx context.Context, code string) (*Gift, error)
	// NetworkGiftcardAllowedPartners lists the partners where the
	// marketplace's network giftcards may be spent, by id.
	NetworkGiftcardAllowedPartners(ctx context.Context, marketplaceID int64) ([]*domain.Partner, error)
	// BoxOfferPartners lists, by id and once each, the partners with an offer
	// of that status in the box.
	BoxOfferPartners(ctx context.Context, boxID int64, status string) ([]*domain.Partner, error)

	// CreateContactRequest inserts r and sets its ID and CreatedAt.
	CreateContactRequest(ctx context.Context, r *ContactRequest) error
}

// GiftService resolves gift codes for the public catalogue (API v2) and
// takes contact requests about gifts.
type GiftService struct {
	store    GiftStore
	partners domain.PartnerStore
	now      func() time.Time
	// Both operations need no token: the throttles bound what one client
	// can try.
	lookups  *domain.ClientThrottle // unknown codes (found ones give their attempt back)
	contacts *domain.ClientThrottle // contact requests
}

// NewGiftService returns the service with the default throttles.
func NewGiftService(store GiftStore, partners domain.PartnerStore) *GiftService {
	return &GiftService{store: store, partners: partners, now: time.Now,
		lookups:  domain.NewClientThrottle(domain.DefaultGiftLookupBurst, domain.DefaultGiftLookupRefill),
		contacts: domain.NewClientThrottle(domain.DefaultContactRequestBurst, domain.DefaultContactRequestRefill)}
}

// SetThrottles replaces the default throttles.
func (s *GiftService) SetThrottles(lookups, contacts *domain.ClientThrottle) {
	s.lookups, s.contacts = lookups, contacts
}

// GiftView is a gift as the catalogue shows it, with its amounts and dates
// formatted in its seller's currency and time zone.
type GiftView struct {
	*Gift
	Seller                  *domain.Partner
	Currency                string
	Location                *time.Location
	ValueFormatted          domain.Localized // nil when Value is nil
	RemainingValueFormatted domain.Localized // nil when RemainingValue is nil
	ExpiresAtFormatted      domain.Localized // nil when ExpiresAt is nil
	Usable                  bool
}

// Gift resolves a code of any kind to its gift, in the catalogue partner's
// scope: a partner sees the vouchers and giftcards it sold, a marketplace
// the network giftcards and network vouchers it sold.
// Errors: those of CatalogPartner; CodeNotFound when no gift has the code or
// another partner sold it.
func (s *GiftService) Gift(ctx context.Context, code string) (*GiftView, error) {
	partner, g, err := s.catalogGift(ctx, code)
	if err != nil {
		return nil, err
	}
	return s.view(g, partner), nil
}

// catalogGift is the catalogue partner (CatalogPartner) and the gift with
// code it sold (scopedGift): how Gift and LinkedPartners both start.
func (s *GiftService) catalogGift(ctx context.Context, code string) (*domain.Partner, *Gift, error) {
	partner, err := domain.CatalogPartner(ctx, s.partners)
	if err != nil {
		return nil, nil, err
	}
	g, err := s.scopedGift(ctx, partner, code)
	if err != nil {
		return nil, nil, err
	}
	return partner, g, nil
}

// scopedGift finds the gift with code sold by partner. Every lookup takes
// an attempt from the client's lookup throttle before it runs; only a code
// it does not find keeps it, so found codes cost nothing, while unknown
// ones, and lookups in progress, count.
// Errors: CodeNotFound; CodeThrottled once the client has tried too many
// unknown codes, or has too many lookups in progress.
func (s *GiftService) scopedGift(ctx context.Context, partner *domain.Partner, code string) (*Gift, error) {
	attempt, err := s.lookups.Reserve(ctx, domain.ClientAddr(ctx), s.now())
	if err != nil {
		return nil, err
	}
	g, err := s.findScopedGift(ctx, partner, code)
	if !domain.IsCode(err, domain.CodeNotFound) {
		attempt.GiveBack(s.now())
	}
	return g, err
}

func (s *GiftService) findScopedGift(ctx context.Context, partner *domain.Partner, code string) (*Gift, error) {
	if !ValidGiftCode(code) {
		return nil, domain.ErrNotFound
	}
	g, err := s.store.FindGiftByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	if g.SellerID != partner.ID {
		return nil, domain.ErrNotFound
	}
	return g, nil
}

func (s *GiftService) view(g *Gift, seller *domain.Partner) *GiftView {
	v := &GiftView{Gift: g, Seller: seller, Currency: seller.PriceCurrency(), Location: GiftSellerLocation(seller),
		Usable: g.Usable(s.now())}
	if g.Value != nil {
		v.ValueFormatted = domain.Localized(l10n.Money(*g.Value, v.Currency))
	}
	if g.RemainingValue != nil {
		v.RemainingValueFormatted = domain.Localized(l10n.Money(*g.RemainingValue, v.Currency))
	}
	if g.ExpiresAt != nil {
		v.ExpiresAtFormatted = domain.Localized(l10n.Date(*g.ExpiresAt, v.Location))
	}
	return v
}

// GiftSellerLocation is the zone the partner's dates are shown in; UTC when
// its zone is unknown to this system.
func GiftSellerLocation(p *domain.Partner) *time.Location {
	if loc, err := p.Location(); err == nil && p.TimeZone != "" {
		return loc
	}
	return time.UTC
}

// GiftLinkedPartners is where a gift can be used.
type GiftLinkedPartners struct {
	Gift     *Gift
	Partners []*domain.Partner
}

// LinkedPartners lists the partners where the gift with code can be used,
// in the scope of Gift: a voucher or a giftcard at the partner that sold it,
// a network giftcard at the partners its marketplace's network giftcard
// settings allow, a network voucher at the partners with a validated offer
// in its box (each once). Lists are ordered by partner id.
// Errors: as Gift.
func (s *GiftService) LinkedPartners(ctx context.Context, code string) (*GiftLinkedPartners, error) {
	partner, g, err := s.catalogGift(ctx, code)
	if err != nil {
		return nil, err
	}
	out := &GiftLinkedPartners{Gift: g}
	switch g.Kind {
	case GiftKindVoucher, GiftKindGiftcard:
		out.Partners = []*domain.Partner{partner}
	case GiftKindNetworkGiftcard:
		out.Partners, err = s.store.NetworkGiftcardAllowedPartners(ctx, g.SellerID)
	case GiftKindNetworkVoucher:
		out.Partners, err = s.store.BoxOfferPartners(ctx, *g.ProductID, giftOfferValidated)
	default:
		err = fmt.Errorf("gift %d: unknown kind %q", g.ID, g.Kind)
	}
	if err != nil {
		return nil, err
	}
	if out.Partners == nil {
		out.Partners = []*domain.Partner{}
	}
	return out, nil
}

// Contact request limits (the contract sets none).
const (
	MaxContactFullNameLength = 255
	MaxContactEmailLength    = 254 // the longest deliverable address
	MaxContactPhoneLength    = domain.MaxPhoneLength
	MaxContactMessageLength  = 5000
)

// Messages of contact request validation.
const (
	MsgContactGiftCodeNotFound = "Gift code not found."
	MsgContactPartnerNotFound  = "Partner not found."
	msgContactPhone            = "Enter a valid phone number."
	msgContactUUID             = "Must be a valid UUID."
)

var contactPhonePattern = regexp.MustCompile(`^\+?[0-9][0-9 ().-]*$`)

// ContactRequestInput is a contact request. Partner is the partner's UUID
// as sent: a blank or malformed one is refused with the other fields.
type ContactRequestInput struct {
	domain.Refusals
	GiftCode, FullName, Email, PhoneNumber, Message domain.Optional[string]
	Partner                                         domain.Optional[string]
}

// ContactRequestView is a stored contact request with the partner it went
// to and the gift it is about.
type ContactRequestView struct {
	*ContactRequest
	Partner *domain.Partner
	Gift    *Gift
}

// CreateContactRequest stores a message about a gift for the partner that
// sold it. No token is needed; the body names the partner (X-Partner-Domain
// plays no part). Every field is checked and all errors are reported at
// once; the gift code is looked up only when the partner is valid, and a
// code of another partner's gift is refused exactly as an unknown one.
// Each request, valid or not, counts against the client's throttle.
// Errors: the authentication error of a refused token; CodeInvalid;
// CodeThrottled.
func (s *GiftService) CreateContactRequest(ctx context.Context, in ContactRequestInput) (*ContactRequestView, error) {
	if err := domain.RefusedToken(ctx); err != nil {
		return nil, err
	}
	if _, err := s.contacts.Reserve(ctx, domain.ClientAddr(ctx), s.now()); err != nil {
		return nil, err
	}
	v := in.Validator()
	r := &ContactRequest{}
	r.GiftCode = contactString(v, "gift_code", in.GiftCode, true, MaxGiftCodeLength)
	r.FullName = contactString(v, "full_name", in.FullName, true, MaxContactFullNameLength)
	if email := contactString(v, "email", in.Email, true, MaxContactEmailLength); email != "" && !domain.ValidEmail(email) {
		v.Add(domain.VInvalid, domain.MsgEmail, "email")
	} else {
		r.Email = email
	}
	if phone := contactString(v, "phone_number", in.PhoneNumber, false, MaxContactPhoneLength); phone != "" {
		if !contactPhonePattern.MatchString(phone) || contactPhoneDigits(phone) < 3 {
			v.Add(domain.VInvalid, msgContactPhone, "phone_number")
		}
		r.PhoneNumber = &phone
	}
	r.Message = contactString(v, "message", in.Message, true, MaxContactMessageLength)

	partnerUUID, partnerOK := contactUUID(v, "partner", in.Partner)
	var partner *domain.Partner
	if partnerOK {
		p, err := s.partners.FindPartnerByUUID(ctx, partnerUUID)
		switch {
		case domain.IsCode(err, domain.CodeNotFound):
			v.Add(domain.VNotFound, MsgContactPartnerNotFound, "partner")
		case err != nil:
			return nil, err
		default:
			partner = p
		}
	}
	var gift *Gift
	if partner != nil && r.GiftCode != "" {
		g, err := s.scopedGift(ctx, partner, r.GiftCode)
		switch {
		case domain.IsCode(err, domain.CodeNotFound):
			v.Add(domain.VNotFound, MsgContactGiftCodeNotFound, "gift_code")
		case err != nil:
			return nil, err
		default:
			gift = g
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	r.PartnerID = partner.ID
	if err := s.store.CreateContactRequest(ctx, r); err != nil {
		return nil, err
	}
	return &ContactRequestView{ContactRequest: r, Partner: partner, Gift: gift}, nil
}

// contactString reads a string field as DRF's CharField does: surrounding
// whitespace trimmed, NUL characters refused, at most max characters. An
// optional field may be absent, null or blank, all read as "".
func contactString(v *domain.Validator, field string, o domain.Optional[string], required bool, max int) string {
	switch {
	case domain.HasFieldError(v, field):
		return ""
	case o.Null && required:
		v.Add(domain.VNull, domain.MsgNull, field)
		return ""
	case !o.Set && required:
		v.Add(domain.VRequired, domain.MsgRequired, field)
		return ""
	}
	s := strings.TrimSpace(o.Value)
	switch {
	case s == "":
		if required {
			v.Add(domain.VRequired, domain.MsgBlank, field)
		}
		return ""
	case strings.ContainsRune(s, 0):
		v.Add(domain.VInvalid, domain.MsgNullCharacters, field)
		return ""
	case utf8.RuneCountInString(s) > max:
		v.Add(domain.VMaxLength, fmt.Sprintf("Ensure this field has no more than %d characters.", max), field)
		return ""
	}
	return s
}

// contactUUID reads a required UUID field given as a string.
func contactUUID(v *domain.Validator, field string, o domain.Optional[string]) (uuid.UUID, bool) {
	switch s := o.Value; {
	case domain.HasFieldError(v, field):
	case o.Null:
		v.Add(domain.VNull, domain.MsgNull, field)
	case !o.Set:
		v.Add(domain.VRequired, domain.MsgRequired, field)
	default:
		s = strings.TrimSpace(s)
		if s == "" {
			v.Add(domain.VRequired, domain.MsgBlank, field)
			break
		}
		u, err := uuid.Parse(s)
		if err != nil || (len(s) != 36 && len(s) != 32) {
			v.Add(domain.VInvalid, msgContactUUID, field)
			break
		}
		return u, true
	}
	return uuid.UUID{}, false
}

func contactPhoneDigits(s string) int {
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n++
		}
	}
	return n
}
