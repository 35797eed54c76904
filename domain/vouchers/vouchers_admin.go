package vouchers

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/domain/gifts"
)

// Voucher administration: a partner's members
// list and read the vouchers of its prototypes and change their state;
// staff see every partner's and may issue vouchers without a sale.
// docs/admin-vouchers.md records the decisions the contract leaves open.

// VoucherStates are the voucher states, in the order
// error messages and the graph list them.
var VoucherStates = []string{gifts.VoucherStateDraft, gifts.VoucherStatePaid, gifts.VoucherStateError, gifts.VoucherStateUsing,
	gifts.VoucherStateUsed, gifts.VoucherStateExpired}

// VoucherTransitions is the one table of the state changes an
// administrator may make: from a state (key) to any of the listed ones.
// used and exprd are final: a used voucher never goes back to paid, an
// expired one is never used. using → paid undoes a usage that was started
// (a booking cancelled).
var VoucherTransitions = map[string][]string{
	gifts.VoucherStateDraft:   {gifts.VoucherStatePaid, gifts.VoucherStateError},
	gifts.VoucherStateError:   {gifts.VoucherStateDraft, gifts.VoucherStatePaid},
	gifts.VoucherStatePaid:    {gifts.VoucherStateUsing, gifts.VoucherStateUsed, gifts.VoucherStateExpired},
	gifts.VoucherStateUsing:   {gifts.VoucherStateUsed, gifts.VoucherStatePaid},
	gifts.VoucherStateUsed:    {},
	gifts.VoucherStateExpired: {},
}

// Messages of voucher state changes.
const (
	msgVoucherTransition = "Cannot change a voucher from \"%s\" to \"%s\"."
	msgVoucherExpired    = "Cannot use a voucher that expired on %s."
	msgVoucherRaced      = "The voucher's state was changed by another request; read it again and retry."
)

// CheckVoucherTransition reports whether a voucher in state from may be
// put in state to. The same state is allowed (a no-op).
// Errors: CodeInvalid on "state" for a value that is not a state or a
// change the table does not list.
func CheckVoucherTransition(from, to string) error {
	var v domain.Validator
	switch {
	case !slices.Contains(VoucherStates, to):
		v.Add(domain.VInvalid, fmt.Sprintf(domain.MsgLanguageChoice, to), "state")
	case from == to:
	case !slices.Contains(VoucherTransitions[from], to):
		v.Add(domain.VInvalidState, fmt.Sprintf(msgVoucherTransition, from, to), "state")
	}
	return v.Err()
}

// VoucherPrototypeTypeCode is the integer voucher_prototype_type of the
// legacy record for a prototype's type (the contract shows no mapping).
func VoucherPrototypeTypeCode(t string) int {
	switch t {
	case "stay":
		return 2
	case "fixed_stay":
		return 3
	}
	return 1 // standard
}

// ReceptionModeDisplay is the label of a reception mode (the migration's
// vouchers.reception_mode comment).
func ReceptionModeDisplay(mode int) string {
	switch mode {
	case 1:
		return "Print at home"
	case 2:
		return "E-mail to the beneficiary"
	case 3:
		return "Postal mail to the buyer"
	case 4:
		return "Postal mail to the beneficiary"
	case 5:
		return "Collected on site"
	}
	return ""
}

// AdminVoucher is a voucher as the administration API shows it.
type AdminVoucher struct {
	ID                   int64
	Code                 string
	PartnerID            int64  // the prototype's partner
	PartnerTimeZone      string // its dates are shown in this zone
	Summary              string
	Origin               string
	OriginURL            string
	VoucherPrototypeID   int64
	VoucherPrototypeType string // the prototype's type: standard, stay, fixed_stay
	PrototypeName        domain.Localized
	PrototypeDescription domain.Localized
	PrototypeRentConds   domain.Localized
	Type                 int
	APIVersion           int
	Language             string
	ImportedFrom         string
	PaymentType          string
	NbNights             int
	NbBabies             int
	NbChildren           int
	NbAdults             int
	Options              []*AdminVoucherOption
	IncludedOptions      []*IncludedOption
	ReceptionMode        int
	ExpeditionStatus     string
	ExpeditionDate       *time.Time
	CoverLetterURL       string
	PrintablePDFFile     string
	GifterID             *int64
	GifterCivility       string
	GifterFirstName      string
	GifterLastName       string
	GifterAddress        string
	GifterEmail          string
	GifterZipcode        *int
	GifterCity           string
	GifterCountry        string
	GifterWiredPhone     string
	GifterMobilePhone    string
	SelfGifted           bool
	FromGifter           string
	GifteeID             *int64
	GifteeFirstName      string
	GifteeLastName       string
	GifteeEmail          string
	GifteePhoneNumber    string
	RecipientAddress     string
	ToGiftee             string
	Message              string
	TotalPrice           decimal.Decimal
	PurchasePrice        decimal.Decimal
	RentPrice            decimal.Decimal
	BoughtRentPrice      decimal.Decimal
	CreationDate         time.Time
	ActivationDate       *time.Time
	UsageDate            *time.Time
	ExpirationDate       *time.Time
	State                string
	Version              int
	IsGroupPayment       bool
	IsExtendable         bool
	IsRefundable         bool
	// IsUsable: paid or being used, and not expired, when the service read
	// it (with its clock).
	IsUsable     bool
	Coupon       *Coupon // nil: bought without a coupon
	StateChanges []*VoucherStateChange
}

// Location is the zone the voucher's dates are shown in: its partner's,
// UTC when unknown.
func (v *AdminVoucher) Location() *time.Location {
	return gifts.GiftSellerLocation(&domain.Partner{ID: v.PartnerID, TimeZone: v.PartnerTimeZone})
}

// GifterFullName is the gifter's first and last names.
func (v *AdminVoucher) GifterFullName() string {
	return strings.TrimSpace(v.GifterFirstName + " " + v.GifterLastName)
}

// usable reports whether the voucher can be used at t: paid or being used,
// and not expired.
func (v *AdminVoucher) usable(t time.Time) bool {
	return (v.State == gifts.VoucherStatePaid || v.State == gifts.VoucherStateUsing) &&
		(v.ExpirationDate == nil || t.Before(*v.ExpirationDate))
}

// read completes vouchers as the service answers them: IsUsable now.
func (s *VoucherAdminService) read(vs ...*AdminVoucher) {
	now := s.now()
	for _, v := range vs {
		v.IsUsable = v.usable(now)
	}
}

// PrototypeNameIn is the prototype's name in the voucher's language, else
// in the first language that has one; "" when it has none.
func (v *AdminVoucher) PrototypeNameIn() (string, bool) {
	if s, ok := v.PrototypeName[v.Language]; ok && s != "" {
		return s, true
	}
	for _, l := range domain.Languages {
		if s, ok := v.PrototypeName[l]; ok && s != "" {
			return s, true
		}
	}
	return "", false
}

// AdminVoucherOption is an option bought with a voucher.
type AdminVoucherOption struct {
	Option     *VoucherOption
	Count      int
	TotalPrice decimal.Decimal
}

// VoucherOption is an option of a partner, as a voucher and the option
// administration (options.go) show it.
type VoucherOption struct {
	ID                  int64
	PartnerID           int64
	PartnerUUID         uuid.UUID
	Name                domain.Localized
	Description         domain.Localized
	Countable           bool
	Services            []OptionService
	Price               decimal.Decimal
	SellingPrice        decimal.Decimal
	IsActive            bool
	IsGlobal            bool
	Ranking             int
	CategoryID          *int64
	SourceID            string
	VoucherPrototypeIDs []int64 // the prototypes that offer it
	// HasBeenOrdered: a voucher was bought with it (option administration).
	HasBeenOrdered bool
}

// OptionService is a service an option is made of.
type OptionService struct {
	Cost, BuyingVAT, SellingVAT, Price decimal.Decimal
}

// IncludedOption is an option included in a voucher's prototype.
type IncludedOption struct {
	Name     domain.Localized
	SourceID string
	Count    int
}

// Coupon is a partner's discount coupon (coupon_for_email_details).
type Coupon struct {
	ID                            int64
	PartnerID                     int64
	Code                          string
	Type                          string
	Valid                         bool
	IsActivated                   bool
	DiscountText                  string
	Discount                      decimal.Decimal
	DiscountType                  string
	NumberOfUsage                 int
	MaxUsage                      int
	NewValidityPeriod             string
	BookingEngineID               string
	Start, End                    *time.Time
	IsValueIncreased              bool
	IsValueIncreasedMultipleTimes bool
	// Id lists, by name of the legacy field (voucher_prototypes_ids...).
	IDLists map[string][]int64
	// Text conditions, by legacy field name (giftcode, email_condition...).
	Texts map[string]string
	// Flags, by legacy field name (activate_for_vouchers...).
	Flags map[string]bool
}

// Coupon's legacy field names, in the record's order.
var (
	CouponIDListFields = []string{"voucher_prototypes_ids", "cnc_offers_ids", "eshop_products_ids",
		"experience_offers_ids", "workshops_ids", "workshop_categories_ids", "events_ids", "flashsales_offers_ids"}
	CouponTextFields = []string{"payment_amount_condition_minimum", "giftcode", "email_condition",
		"price_condition_min_amount", "product_condition_min_amount"}
	CouponFlagFields = []string{"activate_for_vouchers", "activate_for_giftcards", "activate_for_clickandcollect",
		"activate_for_ecommerce", "activate_for_experiences", "activate_for_tickets_events", "activate_for_workshops",
		"activate_for_flashsales", "activate_for_moneypot", "activate_for_network_giftcards",
		"activate_for_network_vouchers", "offer_delivery_cost_clickandcollect", "print_at_home_reception_mode",
		"expedition_reception_mode", "giftee_email_reception_mode", "postal_mail_to_beneficiary_reception_mode",
		"on_site_expedition_mode"}
)

// VoucherStateChange is one change of a voucher's state.
type VoucherStateChange struct {
	ID        int64
	VoucherID int64
	From, To  string
	UserID    *int64
	ChangedAt time.Time
}

// VoucherOrderFields are the orderings of the voucher list.
var VoucherOrderFields = []string{"id", "creation_date", "code", "total_price", "state", "expiration_date"}

// GiftcardOrderFields are the orderings of the giftcard list.
var GiftcardOrderFields = []string{"id", "created_on", "code", "value", "remaining_value", "status", "expires_on"}

// AdminOrder is one key of an administration list's order: an allowed
// field name, descending or not.
type AdminOrder struct {
	Field string
	Desc  bool
}

// MaxSearchLength bounds the search strings of the administration lists.
const MaxSearchLength = 255

// VoucherListInput is the voucher list's query, as given.
type VoucherListInput struct {
	// PartnerID limits the list to one partner's vouchers (the graph's
	// Partner.vouchers); the caller's tenancy applies on top.
	PartnerID                                           *int64
	Code, PrototypeName, Gifter, Giftee, OriginURL      string
	CreationDateGte, CreationDateLte, CreationDateRange string
	Ordering                                            string
}

// VoucherFilter is a checked VoucherListInput. Search strings match
// case-insensitively anywhere ("" matches all); dates bound creation_date
// (From inclusive, To exclusive).
type VoucherFilter struct {
	Tenant                                         *int64
	Code, PrototypeName, Gifter, Giftee, OriginURL string
	From, To                                       *time.Time
	Order                                          []AdminOrder
}

// VoucherAdminStore reads and writes the administration's vouchers.
type VoucherAdminStore interface {
	// ListVouchers returns a page of the vouchers f selects, ordered by
	// f.Order then id, with the total count.
	ListVouchers(ctx context.Context, f VoucherFilter, page domain.PageRequest) ([]*AdminVoucher, int, error)
	// FindVoucherByCode returns the voucher with its options, coupon and
	// state changes; ErrNotFound when there is none.
	FindVoucherByCode(ctx context.Context, code string) (*AdminVoucher, error)
	// ChangeVoucherState moves the voucher from state c.From (at version)
	// to c.To, setting the activation and usage dates given (nil keeps
	// them). It reports false, writing nothing, when the voucher is no
	// longer at that version.
	ChangeVoucherState(ctx context.Context, c *VoucherStateChange, version int, activation, usage *time.Time) (bool, error)
	// RecordVoucherStateChange adds c to the voucher's history; sets c.ID.
	RecordVoucherStateChange(ctx context.Context, c *VoucherStateChange) error
	// IssueVoucher registers v.Code and inserts v with its options (run it
	// in a transaction), setting v.ID. A taken code is a CodeInvalid error
	// on "code"; an unknown prototype on "voucherPrototypeId".
	IssueVoucher(ctx context.Context, v *AdminVoucher) error
	// PrototypePartner returns the partner of a voucher prototype;
	// ErrNotFound when there is no such prototype.
	PrototypePartner(ctx context.Context, prototypeID int64) (int64, error)
	// OptionPartners returns the partner of each of the options that exist.
	OptionPartners(ctx context.Context, ids []int64) (map[int64]int64, error)

	// ListGiftcards, FindGiftcard and IssueGiftcard: see giftcards_admin.go.
	GiftcardAdminStore
}

// VoucherAdminService serves the vouchers and giftcards of the
// administration API, REST and graph alike.
type VoucherAdminService struct {
	uow domain.UnitOfWork[Stores]
	now func() time.Time
}

// Stores are the stores the voucher administration reads and writes with.
type Stores struct {
	Vouchers VoucherAdminStore
	Partners domain.PartnerStore
}

// NewVoucherAdminService returns the service.
func NewVoucherAdminService(uow domain.UnitOfWork[Stores]) *VoucherAdminService {
	return &VoucherAdminService{uow: uow, now: time.Now}
}

// Vouchers lists the vouchers of the caller's partner (staff: of all),
// newest first unless in.Ordering says otherwise. GET /api/vouchers/ is
// also the documented token check: any partner member may call it.
// Errors: those of Authorize; CodeInvalid on the query's fields;
// CodeNotFound "Invalid page." past the last page.
func (s *VoucherAdminService) Vouchers(ctx context.Context, in VoucherListInput, page domain.PageRequest) (*domain.Page[*AdminVoucher], error) {
	c, err := domain.Authorize(ctx, domain.OpVoucherRead)
	if err != nil {
		return nil, err
	}
	tenant, none := c.ListTenant(in.PartnerID)
	var v domain.Validator
	f := VoucherFilter{Tenant: tenant,
		Code:          search(&v, in.Code, "code"),
		PrototypeName: search(&v, in.PrototypeName, "voucher_prototype_name"),
		Gifter:        search(&v, in.Gifter, "gifter"),
		Giftee:        search(&v, in.Giftee, "giftee"),
		OriginURL:     search(&v, in.OriginURL, "origin_url"),
		Order:         ordering(&v, in.Ordering, VoucherOrderFields, "creation_date"),
	}
	f.From, f.To = domain.DateFilters(&v, callerLocation(c), "creation_date", in.CreationDateGte, in.CreationDateLte, in.CreationDateRange)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if none {
		return domain.NewPage([]*AdminVoucher{}, 0, page)
	}
	items, count, err := s.uow.Stores().Vouchers.ListVouchers(ctx, f, page)
	if err != nil {
		return nil, err
	}
	s.read(items...)
	return domain.NewPage(items, count, page)
}

// Voucher returns the voucher with that code.
// Errors: those of Authorize; CodeNotFound when there is none or the
// caller does not see its partner.
func (s *VoucherAdminService) Voucher(ctx context.Context, code string) (*AdminVoucher, error) {
	c, err := domain.Authorize(ctx, domain.OpVoucherRead)
	if err != nil {
		return nil, err
	}
	return s.seenVoucher(ctx, s.uow.Stores(), c, code)
}

func (s *VoucherAdminService) seenVoucher(ctx context.Context, st Stores, c *domain.Caller, code string) (*AdminVoucher, error) {
	if !gifts.ValidGiftCode(code) {
		return nil, domain.ErrNotFound
	}
	v, err := st.Vouchers.FindVoucherByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	if !c.Sees(v.PartnerID) {
		return nil, domain.ErrNotFound
	}
	s.read(v)
	return v, nil
}

// reread returns the voucher with that code as it is now, after a write.
func (s *VoucherAdminService) reread(ctx context.Context, code string) (*AdminVoucher, error) {
	v, err := s.uow.Stores().Vouchers.FindVoucherByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	s.read(v)
	return v, nil
}

// UpdateVoucherState puts the voucher with that code in the state in
// names as VoucherTransitions allows, and returns
// it. Becoming paid sets the activation date when it has none; becoming
// used sets the usage date, and using or used is refused once the
// voucher expired. The same state is a no-op. The change and its
// voucher_state_changes row are one transaction, on the voucher's
// version: of two concurrent changes only one is made.
// Errors: those of Authorize (use_voucher); CodeNotFound as Voucher;
// CodeInvalid on "state"; CodeConflict when another change came first.
func (s *VoucherAdminService) UpdateVoucherState(ctx context.Context, code string, in StateInput) (*AdminVoucher, error) {
	c, err := domain.Authorize(ctx, domain.OpVoucherUpdateState)
	if err != nil {
		return nil, err
	}
	var current *AdminVoucher // unchanged: the same state
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		v, err := s.seenVoucher(ctx, tx, c, code)
		if err != nil {
			return err
		}
		to, err := stateValue(in)
		if err != nil {
			return err
		}
		if err := CheckVoucherTransition(v.State, to); err != nil {
			return err
		}
		if to == v.State {
			current = v
			return nil
		}
		now := s.now()
		if (to == gifts.VoucherStateUsing || to == gifts.VoucherStateUsed) && v.ExpirationDate != nil && !now.Before(*v.ExpirationDate) {
			var vr domain.Validator
			vr.Add(domain.VInvalidState, fmt.Sprintf(msgVoucherExpired, v.ExpirationDate.In(v.Location()).Format(time.DateOnly)), "state")
			return vr.Err()
		}
		var activation, usage *time.Time
		if to == gifts.VoucherStatePaid && v.ActivationDate == nil {
			activation = &now
		}
		if to == gifts.VoucherStateUsed {
			usage = &now
		}
		change := &VoucherStateChange{VoucherID: v.ID, From: v.State, To: to, UserID: &c.User.ID, ChangedAt: now}
		switch ok, err := tx.Vouchers.ChangeVoucherState(ctx, change, v.Version, activation, usage); {
		case err != nil:
			return err
		case !ok:
			return &domain.Error{Code: domain.CodeConflict, Message: msgVoucherRaced}
		}
		return tx.Vouchers.RecordVoucherStateChange(ctx, change)
	})
	if err != nil || current != nil {
		return current, err
	}
	return s.reread(ctx, code)
}

// StateInput is a voucher's state change: the state it goes to, one of
// VoucherStates.
type StateInput struct {
	domain.Refusals
	State domain.Optional[string]
}

// stateValue reads the state of in: required, not blank.
func stateValue(in StateInput) (string, error) {
	v := in.Validator()
	s, ok, _ := domain.Present(domain.Fields{V: v}, "state", in.State, true, false)
	if ok && s == "" {
		v.Add(domain.VInvalid, fmt.Sprintf(domain.MsgLanguageChoice, s), "state")
	}
	return s, v.Err()
}

// IssueVoucherInput is a voucher staff issue without a sale.
type IssueVoucherInput struct {
	VoucherPrototypeID int64
	State              *string // draft or paid; default paid
	TotalPrice         string
	ExpirationDate     *time.Time
	Language           *string
	Summary            *string
	GifterFirstName    *string
	GifterLastName     *string
	GifterEmail        *string
	GifteeFirstName    *string
	GifteeLastName     *string
	GifteeEmail        *string
	FromGifter         *string
	ToGiftee           *string
	Message            *string
	ReceptionMode      *int
	NbAdults           *int
	NbChildren         *int
	NbBabies           *int
	NbNights           *int
	Options            []IssueOptionInput
}

// IssueOptionInput is an option of an issued voucher.
type IssueOptionInput struct {
	OptionID   int64
	Count      int
	TotalPrice string
}

// Issue limits.
const (
	MaxIssueOptions    = 50
	maxIssueNameLength = 150
	maxIssueTextLength = 255
	maxIssueMessage    = 5000
	maxIssueEmail      = 254
)

// IssueVoucher creates a voucher of a prototype with a generated code,
// without a sale: staff only. Every field is checked and every error
// reported at once; the code, the voucher and its options are written in
// one transaction.
// Errors: those of Authorize; CodeInvalid with every field error.
func (s *VoucherAdminService) IssueVoucher(ctx context.Context, in IssueVoucherInput) (*AdminVoucher, error) {
	if _, err := domain.Authorize(ctx, domain.OpVoucherIssue); err != nil {
		return nil, err
	}
	var v domain.Validator
	out := &AdminVoucher{VoucherPrototypeID: in.VoucherPrototypeID, State: gifts.VoucherStatePaid, Language: "fr",
		ReceptionMode: 1, Type: 1, APIVersion: 1, Origin: "issued", ExpirationDate: in.ExpirationDate}
	if in.State != nil {
		if *in.State != gifts.VoucherStateDraft && *in.State != gifts.VoucherStatePaid {
			v.Add(domain.VInvalid, fmt.Sprintf(domain.MsgLanguageChoice, *in.State), "state")
		}
		out.State = *in.State
	}
	out.TotalPrice = v.Money(in.TotalPrice, "totalPrice")
	if in.Language != nil {
		if !domain.IsLanguage(*in.Language) {
			v.Add(domain.VInvalid, fmt.Sprintf(domain.MsgLanguageChoice, *in.Language), "language")
		}
		out.Language = *in.Language
	}
	out.Summary = issueText(&v, in.Summary, 1000, "summary")
	out.GifterFirstName = issueText(&v, in.GifterFirstName, maxIssueNameLength, "gifterFirstName")
	out.GifterLastName = issueText(&v, in.GifterLastName, maxIssueNameLength, "gifterLastName")
	out.GifterEmail = issueEmail(&v, in.GifterEmail, "gifterEmail")
	out.GifteeFirstName = issueText(&v, in.GifteeFirstName, maxIssueNameLength, "gifteeFirstName")
	out.GifteeLastName = issueText(&v, in.GifteeLastName, maxIssueNameLength, "gifteeLastName")
	out.GifteeEmail = issueEmail(&v, in.GifteeEmail, "gifteeEmail")
	out.FromGifter = issueText(&v, in.FromGifter, maxIssueTextLength, "fromGifter")
	out.ToGiftee = issueText(&v, in.ToGiftee, maxIssueTextLength, "toGiftee")
	out.Message = issueText(&v, in.Message, maxIssueMessage, "message")
	if in.ReceptionMode != nil {
		if ReceptionModeDisplay(*in.ReceptionMode) == "" {
			v.Add(domain.VInvalid, fmt.Sprintf(domain.MsgLanguageChoice, fmt.Sprint(*in.ReceptionMode)), "receptionMode")
		}
		out.ReceptionMode = *in.ReceptionMode
	}
	out.NbAdults = v.OptInt(in.NbAdults, 0, "nbAdults")
	out.NbChildren = v.OptInt(in.NbChildren, 0, "nbChildren")
	out.NbBabies = v.OptInt(in.NbBabies, 0, "nbBabies")
	out.NbNights = v.OptInt(in.NbNights, 0, "nbNights")
	if in.ExpirationDate != nil && v.TimeInRange(*in.ExpirationDate, "expirationDate") && !in.ExpirationDate.After(s.now()) {
		v.Add(domain.VInvalid, "The expiration date must be in the future.", "expirationDate")
	}

	code, err := domain.IssueWithCode(func(code string) error {
		out.Code, out.Options = code, nil
		return s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
			// The prototype and the options are checked in the
			// transaction that inserts the voucher.
			all := v
			partnerID, err := tx.Vouchers.PrototypePartner(ctx, in.VoucherPrototypeID)
			switch {
			case domain.IsCode(err, domain.CodeNotFound):
				all.Add(domain.VNotFound, fmt.Sprintf(catalogue.MsgNoSuchRecord, in.VoucherPrototypeID), "voucherPrototypeId")
			case err != nil:
				return err
			}
			if err := issueOptions(ctx, tx, &all, in.Options, partnerID, out); err != nil {
				return err
			}
			if err := all.Err(); err != nil {
				return err
			}
			return tx.Vouchers.IssueVoucher(ctx, out)
		})
	})
	if err != nil {
		return nil, err
	}
	return s.reread(ctx, code)
}

// issueOptions checks the options of an issue (each an option of the
// prototype's partner, once) and adds them to out.
func issueOptions(ctx context.Context, tx Stores, v *domain.Validator, in []IssueOptionInput, partnerID int64, out *AdminVoucher) error {
	if len(in) > MaxIssueOptions {
		v.Add(domain.VInvalid, fmt.Sprintf(domain.MsgTooManyElements, MaxIssueOptions), "options")
		return nil
	}
	ids := make([]int64, len(in))
	for i, o := range in {
		ids[i] = o.OptionID
	}
	owners, err := tx.Vouchers.OptionPartners(ctx, ids)
	if err != nil {
		return err
	}
	seen := map[int64]bool{}
	for i, o := range in {
		if owner, ok := owners[o.OptionID]; !ok || owner != partnerID {
			v.Add(domain.VNotFound, fmt.Sprintf(catalogue.MsgNoSuchRecord, o.OptionID), "options", i, "optionId")
		} else if seen[o.OptionID] {
			v.Add(domain.VUnique, "This option is given more than once.", "options", i, "optionId")
		}
		seen[o.OptionID] = true
		if o.Count < 1 {
			v.Add(domain.VMinValue, "Ensure this value is greater than or equal to 1.", "options", i, "count")
		}
		price := v.Money(o.TotalPrice, "options", i, "totalPrice")
		out.Options = append(out.Options, &AdminVoucherOption{Option: &VoucherOption{ID: o.OptionID}, Count: o.Count, TotalPrice: price})
	}
	return nil
}

func issueText(v *domain.Validator, s *string, max int, field string) string {
	if s == nil {
		return ""
	}
	t := strings.TrimSpace(*s)
	switch {
	case strings.ContainsRune(t, 0):
		v.Add(domain.VInvalid, domain.MsgNullCharacters, field)
	case utf8.RuneCountInString(t) > max:
		v.Add(domain.VMaxLength, fmt.Sprintf(domain.MsgMaxLength, max), field)
	}
	return t
}

func issueEmail(v *domain.Validator, s *string, field string) string {
	t := issueText(v, s, maxIssueEmail, field)
	if t != "" && !domain.ValidEmail(t) {
		v.Add(domain.VInvalid, domain.MsgEmail, field)
	}
	return t
}

// search reads a search string of a list's query.
func search(v *domain.Validator, s, field string) string {
	s = strings.TrimSpace(s)
	switch {
	case strings.ContainsRune(s, 0):
		v.Add(domain.VInvalid, domain.MsgNullCharacters, field)
	case utf8.RuneCountInString(s) > MaxSearchLength:
		v.Add(domain.VMaxLength, fmt.Sprintf(domain.MsgMaxLength, MaxSearchLength), field)
	}
	return s
}

// ordering reads an ordering parameter: comma-separated fields of allowed,
// each optionally prefixed with "-". The default is def descending; id
// (in the last key's direction) always ends the order, so pages are stable.
func ordering(v *domain.Validator, s string, allowed []string, def string) []AdminOrder {
	var out []AdminOrder
	if strings.TrimSpace(s) == "" {
		out = []AdminOrder{{Field: def, Desc: true}}
	} else {
		if len(s) > MaxSearchLength {
			v.Add(domain.VInvalid, fmt.Sprintf("Select a valid choice. %s is not one of the available choices.", s[:MaxSearchLength]), "ordering")
			return nil
		}
		for term := range strings.SplitSeq(s, ",") {
			term = strings.TrimSpace(term)
			field, desc := strings.CutPrefix(term, "-")
			if !slices.Contains(allowed, field) {
				v.Add(domain.VInvalid, fmt.Sprintf("Select a valid choice. %s is not one of the available choices.", term), "ordering")
				continue
			}
			out = append(out, AdminOrder{Field: field, Desc: desc})
		}
	}
	if len(out) > 0 && out[len(out)-1].Field != "id" {
		out = append(out, AdminOrder{Field: "id", Desc: out[len(out)-1].Desc})
	}
	return out
}

// callerLocation is the zone a caller's dates are read in: its partner's,
// UTC for staff without one.
func callerLocation(c *domain.Caller) *time.Location {
	if c.Partner == nil {
		return time.UTC
	}
	return gifts.GiftSellerLocation(c.Partner)
}
