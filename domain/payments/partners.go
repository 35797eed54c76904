package payments

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/webhooks"
)

// Payment-hub partners: their company record is domain.Company, shared
// with network partners; the hub adds its settings of their payouts and
// bank account.

// PartnerStatuses are the statuses a payment-hub partner is created or
// set with.
var PartnerStatuses = []string{domain.PartnerStatusActive, domain.PartnerStatusInactive, domain.PartnerStatusTest}

// PayoutFrequencies are how often a partner's payouts are built: weekly,
// twice a month, monthly.
var PayoutFrequencies = []string{"week", "bimth", "month"}

// DefaultPayoutFrequency is the frequency of a partner created without one.
const DefaultPayoutFrequency = "month"

// Limits where the contract gives none.
const (
	MaxCompanyFieldLength = 255
	MaxPostalCodeLength   = 10
	MaxReasonLength       = 1000
	maxBankFieldLength    = 64 // an IBAN or BIC as typed, spaces included
)

// Messages of refused payment-hub partner inputs.
const (
	MsgReferrerNotMarketplace = "The referrer must be a marketplace."
	MsgOwnReferrer            = "A partner cannot be its own referrer."
	MsgReferrerStaffOnly      = "Only staff may change a partner's referrer."
	MsgSettingsNotOwn         = "Only staff and the partner's referring marketplace may change this field."
	MsgPartnerUnknown         = "Object with uuid=%s does not exist."
)

// Partner is a payment-hub partner.
type Partner struct {
	ID     int64
	UUID   uuid.UUID
	Status string
	Name   string
	// Currency and TimeZone are its partner row's (its referrer's when it
	// was created): its payments' currency, and the zone of their days.
	Currency string
	TimeZone string
	domain.Company
	LegalRepresentativeEmail string
	PayoutFrequency          string // one of PayoutFrequencies
	AutoValidatePayout       bool
	// FreezePayout lets the partner date its payments for payouts (their
	// freeze date) in place of their creation date.
	FreezePayout          bool
	BlockPayoutValidation bool
	IBAN                  string // electronic form (NormalizeIBAN), "" when none
	BIC                   string // "" when none
	// Activation is the partner's latest payments activation, nil before
	// the first.
	Activation *Activation
	// StartingActivation is the id of an activation whose start at the
	// provider is reserved (ActivatePayments) until StartingUntil;
	// uuid.Nil when none is.
	StartingActivation uuid.UUID
	StartingUntil      time.Time
}

// MayTakePayments reports whether payments may be taken for the partner:
// it is active (status a) and its legal representative's identity was
// verified by the provider (a completed activation). Inactive (i) and
// test (t) partners take none.
func (p *Partner) MayTakePayments() bool {
	return p.Status == domain.PartnerStatusActive && p.Activation != nil && p.Activation.Status == ActivationCompleted
}

// Activation is the activation of a partner's payments at the provider.
type Activation struct {
	ID            uuid.UUID
	PartnerID     int64
	PartnerUUID   uuid.UUID
	Provider      string
	ProviderRef   string
	Status        string // one of the Activation statuses
	UserActionURL string
	CreatedOn     time.Time
	CompletedOn   *time.Time // when it left ActivationPendingUserAction
}

// Audit actions.
const (
	AuditCreate             = "create"
	AuditUpdate             = "update"
	AuditActivationStart    = "activation_start"
	AuditActivationComplete = "activation_complete"
	AuditActivationRefuse   = "activation_refuse"
)

// AuditEntry is one change of a partner's state: who, why, and the state
// before and after (JSON of auditState; Before is nil at the creation).
type AuditEntry struct {
	PartnerID   int64
	ActorUserID *int64 // nil: the provider
	Actor       string // the user's username, or "provider:<name>"
	Action      string // one of the Audit actions
	Reason      string
	Before      json.RawMessage
	After       json.RawMessage
}

// auditState is what the audit trail records of a partner's state.
type auditState struct {
	Status                      string  `json:"status"`
	HideFromStats               bool    `json:"hide_from_stats"`
	ThirdPartySalesOnly         bool    `json:"third_party_sales_only"`
	Referrer                    *int64  `json:"referrer"`
	BlockPayoutValidation       bool    `json:"block_payout_validation"`
	LegalRepresentativeEmail    string  `json:"legal_representative_email"`
	LegalRepresentativeBirthday *string `json:"legal_representative_birthday"`
	ActivationID                *string `json:"payments_activation_id"`
	ActivationStatus            *string `json:"payments_activation_status"`
	MayTakePayments             bool    `json:"can_take_payments"`
}

func stateOf(p *Partner) json.RawMessage {
	s := auditState{Status: p.Status, HideFromStats: p.HideFromStats, ThirdPartySalesOnly: p.ThirdPartySalesOnly,
		Referrer: p.ReferrerID, BlockPayoutValidation: p.BlockPayoutValidation,
		LegalRepresentativeEmail: p.LegalRepresentativeEmail, MayTakePayments: p.MayTakePayments()}
	if b := p.LegalRepresentativeBirthday; b != nil {
		day := b.Format(time.DateOnly)
		s.LegalRepresentativeBirthday = &day
	}
	if a := p.Activation; a != nil {
		id := a.ID.String()
		s.ActivationID, s.ActivationStatus = &id, &a.Status
	}
	b, _ := json.Marshal(s) // a struct of strings and booleans always encodes
	return b
}

// PartnerStore reads and writes payment-hub partners, their activations
// and their audit trail. It is a domain.PartnerStore too: the referrer is
// found by id.
type PartnerStore interface {
	domain.PartnerStore
	// CreateCompany writes the company record of partner, which has none.
	CreateCompany(ctx context.Context, partnerID int64, c *domain.Company) error
	// CreateHubPartner writes the hub's record of p (payouts, bank
	// account, legal representative's e-mail); p's partner row and company
	// record exist.
	CreateHubPartner(ctx context.Context, p *Partner) error
	// FindHubPartner returns the payment-hub partner with that uuid and
	// its latest activation; with lock, its partner row is locked (FOR NO
	// KEY UPDATE) until the transaction ends.
	// Errors: domain.ErrNotFound when no payment-hub partner has it.
	FindHubPartner(ctx context.Context, id uuid.UUID, lock bool) (*Partner, error)
	// FindHubPartners returns the payment-hub partners with those uuids
	// as FindHubPartner does, in ids order, nil for an unknown one.
	FindHubPartners(ctx context.Context, ids []uuid.UUID) ([]*Partner, error)
	// SaveHubPartner writes p's Status, HideFromStats,
	// ThirdPartySalesOnly, ReferrerID, LegalRepresentativeBirthday,
	// LegalRepresentativeEmail and BlockPayoutValidation.
	SaveHubPartner(ctx context.Context, p *Partner) error
	// CreateActivation writes a (its CreatedOn is set).
	CreateActivation(ctx context.Context, a *Activation) error
	// ActivationByProviderRef returns the activation provider knows as ref.
	// Errors: domain.ErrNotFound when there is none.
	ActivationByProviderRef(ctx context.Context, provider, ref string) (*Activation, error)
	// ActivationByID returns the activation with that id.
	// Errors: domain.ErrNotFound when there is none.
	ActivationByID(ctx context.Context, id uuid.UUID) (*Activation, error)
	// ReserveActivation reserves the start of the activation id of the
	// partner until until (Partner.StartingActivation).
	ReserveActivation(ctx context.Context, partnerID int64, id uuid.UUID, until time.Time) error
	// EndActivationReservation clears the partner's reservation if it is
	// still id's.
	EndActivationReservation(ctx context.Context, partnerID int64, id uuid.UUID) error
	// ExpireActivationReservation ends the lease of the partner's
	// reservation now if it is still id's, keeping id: the next request
	// takes it over at once.
	ExpireActivationReservation(ctx context.Context, partnerID int64, id uuid.UUID) error
	// FinishActivation writes a's Status and CompletedOn if it is still
	// pending; applied reports whether it was (a concurrent finish may
	// have been first).
	FinishActivation(ctx context.Context, a *Activation) (applied bool, err error)
	// AddAudit appends e to the partner's audit trail.
	AddAudit(ctx context.Context, e *AuditEntry) error
}

// PartnerStores are the stores the payment-hub partner service reads and
// writes with.
type PartnerStores struct {
	Partners PartnerStore
	KYC      KYCStore
	Keys     idempotency.Store
	// Events keeps the webhook events of a change in its transaction.
	Events webhooks.Publisher
}

// HubPartnerService creates, reads and updates payment-hub partners,
// activates their payments at the provider and keeps their KYC documents.
type HubPartnerService struct {
	uow      domain.UnitOfWork[PartnerStores]
	keys     *idempotency.Guard
	provider Provider
	blobs    domain.BlobStore
}

// NewHubPartnerService returns the service: its writes that create value run
// under keys (nil: without idempotency keys), payments are activated at
// provider, KYC documents are kept in blobs.
func NewHubPartnerService(uow domain.UnitOfWork[PartnerStores], keys *idempotency.Guard, provider Provider, blobs domain.BlobStore) *HubPartnerService {
	return &HubPartnerService{uow: uow, keys: keys, provider: provider, blobs: blobs}
}

// partnerGuarded runs write, the transaction of the operation op on input
// that sets *result, once per idempotency key of the request
// (domain/idempotency): *result is recorded as the key's outcome in the
// same transaction, and a repeat of the request answers it again.
func partnerGuarded[T any](ctx context.Context, s *HubPartnerService, op string, input any, result *T, write func(ctx context.Context, tx PartnerStores) error) (T, error) {
	return idempotency.Run(ctx, s.keys, op, input, func(ctx context.Context, complete idempotency.Complete[T]) (idempotency.Done[T], error) {
		var done idempotency.Done[T]
		err := s.uow.RunInTx(ctx, func(ctx context.Context, tx PartnerStores) error {
			if err := write(ctx, tx); err != nil {
				return err
			}
			var err error
			done, err = complete(ctx, tx.Keys, *result)
			return err
		})
		return done, err
	})
}

// CreatePartner creates a payment-hub partner with its company record and
// the hub's settings, and the first entry of its audit trail, in one
// transaction (once per idempotency key). A marketplace's member creates
// the partners it refers: referrer is its marketplace (given or not);
// staff name any marketplace or none. Body: status (PartnerStatuses),
// commercial_name, short_name, legal_representative_email and
// agency_email (e-mails) required; name (default: commercial_name),
// company_type (domain.CompanyTypes), siret_number,
// legal_representative_first_name and _last_name,
// legal_representative_birthday (a date or date-time), hq_address_line_1
// and _2, hq_postal_code (at most 10 characters), hq_city, hq_country,
// rcs, ape, vat_id, agency_phone, website (URL), payout_frequency
// (PayoutFrequencies, default month), auto_validate_payout, freeze_payout,
// block_payout_validation, hide_from_stats, third_party_sales_only
// (booleans), iban (CheckIBAN), bic (ValidBIC), referrer. The IBAN is
// masked unless the caller is staff.
// Errors: those of Authorize(OpPaymentPartnerCreate); CodeForbidden for a
// partner that is not a marketplace; CodeInvalid with every field error.
func (s *HubPartnerService) CreatePartner(ctx context.Context, in PartnerInput) (*Partner, error) {
	c, err := domain.Authorize(ctx, domain.OpPaymentPartnerCreate)
	if err != nil {
		return nil, err
	}
	if !c.User.IsStaff && (c.Partner == nil || !c.Partner.IsMarketplace) {
		return nil, &domain.Error{Code: domain.CodeForbidden, Message: domain.MsgPermissionDenied}
	}
	v := in.Refusals.Validator()
	f := domain.Fields{V: v}
	p := in.partner(f)
	referrer, _ := f.PK("referrer", in.Referrer, false, true)
	if err := v.Err(); err != nil {
		return nil, err
	}
	var created *Partner
	return partnerGuarded(ctx, s, "payments.partner.create", in, &created, func(ctx context.Context, tx PartnerStores) error {
		m, err := createReferrer(ctx, tx, f, c, referrer)
		if err != nil {
			return err
		}
		if err := v.Err(); err != nil {
			return err
		}
		partner := &domain.Partner{Name: p.Name, Status: p.Status}
		if m != nil {
			p.ReferrerID = &m.ID
			partner.Currency, partner.TimeZone = m.Currency, m.TimeZone
		}
		if err := tx.Partners.CreatePartner(ctx, partner); err != nil {
			return err
		}
		p.ID, p.UUID = partner.ID, partner.UUID
		if err := tx.Partners.CreateCompany(ctx, p.ID, &p.Company); err != nil {
			return err
		}
		if err := tx.Partners.CreateHubPartner(ctx, p); err != nil {
			return err
		}
		if err := tx.Partners.AddAudit(ctx, audit(c, p.ID, AuditCreate, "created", nil, p)); err != nil {
			return err
		}
		created, err = tx.Partners.FindHubPartner(ctx, p.UUID, false)
		if err == nil {
			created = shown(c, created)
		}
		return err
	})
}

// createReferrer is the marketplace that refers a new partner: the
// caller's own for a member (another id reads as unknown), any
// marketplace or none for staff. A refusal is a field error recorded in f.
func createReferrer(ctx context.Context, tx PartnerStores, f domain.Fields, c *domain.Caller, referrer *int64) (*domain.Partner, error) {
	switch {
	case !c.User.IsStaff && referrer != nil && *referrer != c.Partner.ID:
		f.MissingPK("referrer", *referrer)
		return nil, nil
	case !c.User.IsStaff:
		return c.Partner, nil
	case referrer == nil:
		return nil, nil
	}
	return referrerMarketplace(ctx, tx, f, *referrer)
}

// referrerMarketplace returns the marketplace id names; a partner that
// does not exist or is not a marketplace is a field error recorded in f.
func referrerMarketplace(ctx context.Context, tx PartnerStores, f domain.Fields, id int64) (*domain.Partner, error) {
	m, err := tx.Partners.FindPartnerByID(ctx, id)
	switch {
	case domain.IsCode(err, domain.CodeNotFound):
		f.MissingPK("referrer", id)
		return nil, nil
	case err != nil:
		return nil, err
	case !m.IsMarketplace:
		f.V.Add(domain.VInvalid, MsgReferrerNotMarketplace, "referrer")
		return nil, nil
	}
	return m, nil
}

// PartnerInput is the creation of a payment-hub partner; see
// CreatePartner for its fields.
type PartnerInput struct {
	domain.Refusals
	Status, CommercialName, Name, ShortName, CompanyType, SiretNumber domain.Optional[string]
	LegalRepresentativeFirstName, LegalRepresentativeLastName         domain.Optional[string]
	LegalRepresentativeBirthday                                       domain.Optional[time.Time]
	LegalRepresentativeEmail, AgencyEmail, AgencyPhone, Website       domain.Optional[string]
	HQAddressLine1, HQAddressLine2, HQPostalCode, HQCity, HQCountry   domain.Optional[string]
	RCS, APE, VATID, PayoutFrequency, IBAN, BIC                       domain.Optional[string]
	AutoValidatePayout, FreezePayout, BlockPayoutValidation           domain.Optional[bool]
	HideFromStats, ThirdPartySalesOnly                                domain.Optional[bool]
	Referrer                                                          domain.Optional[int64]
}

// partner checks the fields of a payment-hub partner's creation.
func (in *PartnerInput) partner(f domain.Fields) *Partner {
	text := func(field string, o domain.Optional[string], required bool, max int) string {
		return domain.Pick(f.String(field, o, required, !required, max), "")
	}
	choice := func(field string, o domain.Optional[string], required bool, choices []string, def string) string {
		return domain.Pick(f.Choice(field, o, required, choices), def)
	}
	email := func(field string, o domain.Optional[string]) string {
		return domain.Pick(f.Email(field, o, true), "")
	}
	flag := func(field string, o domain.Optional[bool]) bool {
		return domain.Pick(f.Bool(field, o), false)
	}
	p := &Partner{Status: choice("status", in.Status, true, PartnerStatuses, "")}
	p.CommercialName = text("commercial_name", in.CommercialName, true, MaxCompanyFieldLength)
	p.Name = domain.Pick(f.String("name", in.Name, false, false, MaxCompanyFieldLength), p.CommercialName)
	p.ShortName = text("short_name", in.ShortName, true, MaxCompanyFieldLength)
	p.CompanyType = choice("company_type", in.CompanyType, false, domain.CompanyTypes, "")
	p.SiretNumber = text("siret_number", in.SiretNumber, false, MaxCompanyFieldLength)
	p.LegalRepresentativeFirstName = text("legal_representative_first_name", in.LegalRepresentativeFirstName, false, MaxCompanyFieldLength)
	p.LegalRepresentativeLastName = text("legal_representative_last_name", in.LegalRepresentativeLastName, false, MaxCompanyFieldLength)
	p.LegalRepresentativeBirthday, _ = f.Date("legal_representative_birthday", in.LegalRepresentativeBirthday, domain.MsgDayFormat)
	p.LegalRepresentativeEmail = email("legal_representative_email", in.LegalRepresentativeEmail)
	p.HQAddressLine1 = text("hq_address_line_1", in.HQAddressLine1, false, MaxCompanyFieldLength)
	p.HQAddressLine2 = text("hq_address_line_2", in.HQAddressLine2, false, MaxCompanyFieldLength)
	p.HQPostalCode = text("hq_postal_code", in.HQPostalCode, false, MaxPostalCodeLength)
	p.HQCity = text("hq_city", in.HQCity, false, MaxCompanyFieldLength)
	p.HQCountry = text("hq_country", in.HQCountry, false, MaxCompanyFieldLength)
	p.RCS = text("rcs", in.RCS, false, MaxCompanyFieldLength)
	p.APE = text("ape", in.APE, false, MaxCompanyFieldLength)
	p.VATID = text("vat_id", in.VATID, false, MaxCompanyFieldLength)
	p.AgencyEmail = email("agency_email", in.AgencyEmail)
	p.AgencyPhone = text("agency_phone", in.AgencyPhone, false, domain.MaxPhoneLength)
	p.Website = domain.Pick(f.URL("website", in.Website, false), "")
	p.PayoutFrequency = choice("payout_frequency", in.PayoutFrequency, false, PayoutFrequencies, DefaultPayoutFrequency)
	p.AutoValidatePayout = flag("auto_validate_payout", in.AutoValidatePayout)
	p.FreezePayout = flag("freeze_payout", in.FreezePayout)
	p.BlockPayoutValidation = flag("block_payout_validation", in.BlockPayoutValidation)
	p.HideFromStats = flag("hide_from_stats", in.HideFromStats)
	p.ThirdPartySalesOnly = flag("third_party_sales_only", in.ThirdPartySalesOnly)
	if s := f.String("iban", in.IBAN, false, true, maxBankFieldLength); s != nil && *s != "" {
		p.IBAN = NormalizeIBAN(*s)
		if problem := CheckIBAN(p.IBAN); problem != "" {
			f.V.Add(domain.VInvalid, problem, "iban")
		}
	}
	if s := f.String("bic", in.BIC, false, true, maxBankFieldLength); s != nil && *s != "" {
		p.BIC = NormalizeBIC(*s)
		if !ValidBIC(p.BIC) {
			f.V.Add(domain.VInvalid, MsgBIC, "bic")
		}
	}
	return p
}

// relation is how a caller stands to a payment-hub partner.
type relation int

const (
	unrelated relation = iota
	asStaff
	asOwn      // a member of the partner
	asReferrer // a member of the marketplace that refers it
)

func relationOf(c *domain.Caller, p *Partner) relation {
	switch {
	case c.User.IsStaff:
		return asStaff
	case c.Partner == nil:
		return unrelated
	case c.Partner.ID == p.ID:
		return asOwn
	case p.ReferrerID != nil && *p.ReferrerID == c.Partner.ID:
		return asReferrer
	}
	return unrelated
}

// authorizeWrite checks that a caller of relation rel to a partner may
// change it: a partner's own members with OpPaymentPartnerSelfManage's
// permission, its referrer's with OpPaymentPartnerManage's.
// Errors: CodeNotFound for an unrelated caller; those of Authorize.
func authorizeWrite(ctx context.Context, rel relation) error {
	var op domain.AdminOp
	switch rel {
	case unrelated:
		return domain.ErrNotFound
	case asOwn:
		op = domain.OpPaymentPartnerSelfManage
	default:
		op = domain.OpPaymentPartnerManage
	}
	_, err := domain.Authorize(ctx, op)
	return err
}

// shown is p as c may see it: the IBAN masked but for staff.
func shown(c *domain.Caller, p *Partner) *Partner {
	if c.User.IsStaff {
		return p
	}
	masked := *p
	masked.IBAN = MaskIBAN(p.IBAN)
	return &masked
}

// audit is the entry of c's change of partner from before (nil: none) to
// after.
func audit(c *domain.Caller, partnerID int64, action, reason string, before, after *Partner) *AuditEntry {
	e := &AuditEntry{PartnerID: partnerID, ActorUserID: &c.User.ID, Actor: c.User.Username, Action: action,
		Reason: reason, After: stateOf(after)}
	if before != nil {
		e.Before = stateOf(before)
	}
	return e
}

// GetPartner returns the payment-hub partner with that uuid: staff see
// any, a partner's members their own and the partners their marketplace
// refers. The IBAN is masked unless the caller is staff.
// Errors: those of Authorize(OpPaymentPartnerRead); CodeNotFound for a
// partner the caller does not see or that is not in the payment hub.
func (s *HubPartnerService) GetPartner(ctx context.Context, id uuid.UUID) (*Partner, error) {
	c, err := domain.Authorize(ctx, domain.OpPaymentPartnerRead)
	if err != nil {
		return nil, err
	}
	p, err := s.uow.Stores().Partners.FindHubPartner(ctx, id, false)
	if err != nil {
		return nil, err
	}
	if relationOf(c, p) == unrelated {
		return nil, domain.ErrNotFound
	}
	return shown(c, p), nil
}

// PartnersByUUID is GetPartner of many partners at once (the graph's
// relations to a partner): in ids order, nil for a partner the caller
// does not see or that is not in the payment hub.
// Errors: those of Authorize(OpPaymentPartnerRead).
func (s *HubPartnerService) PartnersByUUID(ctx context.Context, ids []uuid.UUID) ([]*Partner, error) {
	c, err := domain.Authorize(ctx, domain.OpPaymentPartnerRead)
	if err != nil {
		return nil, err
	}
	ps, err := s.uow.Stores().Partners.FindHubPartners(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i, p := range ps {
		if p != nil {
			if relationOf(c, p) == unrelated {
				ps[i] = nil
			} else {
				ps[i] = shown(c, p)
			}
		}
	}
	return ps, nil
}

// UpdatePartner changes a payment-hub partner and records the change in
// its audit trail, in one transaction. Body (all optional):
// legal_representative_birthday (a date or date-time, null clears it) and
// legal_representative_email, which the partner's own members may change;
// block_payout_validation, hide_from_stats, third_party_sales_only and the
// additions status (PartnerStatuses), which only staff and its referrer
// may change; referrer (a marketplace, or null), staff only; reason (at
// most 1000 characters, kept in the audit trail). The IBAN is masked
// unless the caller is staff.
// Errors: those of Authorize(OpPaymentPartnerRead); CodeNotFound as
// GetPartner; those of Authorize of the caller's write operation
// (authorizeWrite); CodeInvalid with every field error.
func (s *HubPartnerService) UpdatePartner(ctx context.Context, id uuid.UUID, in PartnerUpdate) (*Partner, error) {
	c, err := domain.Authorize(ctx, domain.OpPaymentPartnerRead)
	if err != nil {
		return nil, err
	}
	var updated *Partner
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx PartnerStores) error {
		p, err := tx.Partners.FindHubPartner(ctx, id, true)
		if err != nil {
			return err
		}
		rel := relationOf(c, p)
		if err := authorizeWrite(ctx, rel); err != nil {
			return err
		}
		v := in.Refusals.Validator()
		f := domain.Fields{V: v, Partial: true}
		birthday, birthdaySet := f.Date("legal_representative_birthday", in.LegalRepresentativeBirthday, domain.MsgDayFormat)
		email := f.Email("legal_representative_email", in.LegalRepresentativeEmail, false)
		status := f.Choice("status", in.Status, false, PartnerStatuses)
		block, hide := f.Bool("block_payout_validation", in.BlockPayoutValidation), f.Bool("hide_from_stats", in.HideFromStats)
		thirdParty := f.Bool("third_party_sales_only", in.ThirdPartySalesOnly)
		referrer, referrerSet := f.PK("referrer", in.Referrer, false, true)
		reason := "updated"
		if s := f.String("reason", in.Reason, false, true, MaxReasonLength); s != nil && *s != "" {
			reason = *s
		}
		if rel == asOwn {
			for field, given := range map[string]bool{"status": status != nil, "block_payout_validation": block != nil,
				"hide_from_stats": hide != nil, "third_party_sales_only": thirdParty != nil, "referrer": referrerSet} {
				if given {
					v.Add(domain.VInvalid, MsgSettingsNotOwn, field)
				}
			}
		}
		if referrerSet && rel != asOwn {
			if err := checkNewReferrer(ctx, tx, f, c, p, referrer); err != nil {
				return err
			}
		}
		if err := v.Err(); err != nil {
			return err
		}
		before := *p
		if birthdaySet {
			p.LegalRepresentativeBirthday = birthday
		}
		p.LegalRepresentativeEmail = domain.Pick(email, p.LegalRepresentativeEmail)
		p.Status = domain.Pick(status, p.Status)
		p.BlockPayoutValidation = domain.Pick(block, p.BlockPayoutValidation)
		p.HideFromStats = domain.Pick(hide, p.HideFromStats)
		p.ThirdPartySalesOnly = domain.Pick(thirdParty, p.ThirdPartySalesOnly)
		if referrerSet {
			p.ReferrerID = referrer
		}
		if string(stateOf(&before)) != string(stateOf(p)) {
			if err := tx.Partners.SaveHubPartner(ctx, p); err != nil {
				return err
			}
			if err := tx.Partners.AddAudit(ctx, audit(c, p.ID, AuditUpdate, reason, &before, p)); err != nil {
				return err
			}
		}
		updated = shown(c, p)
		return nil
	})
	return updated, err
}

// PartnerUpdate is the change of a payment-hub partner; see UpdatePartner
// for its fields.
type PartnerUpdate struct {
	domain.Refusals
	LegalRepresentativeBirthday                               domain.Optional[time.Time]
	LegalRepresentativeEmail, Status, Reason                  domain.Optional[string]
	BlockPayoutValidation, HideFromStats, ThirdPartySalesOnly domain.Optional[bool]
	Referrer                                                  domain.Optional[int64]
}

// checkNewReferrer records a field error unless referrer may become p's:
// staff set a marketplace other than p, or null; its referrer may only
// leave it as it is.
func checkNewReferrer(ctx context.Context, tx PartnerStores, f domain.Fields, c *domain.Caller, p *Partner, referrer *int64) error {
	switch {
	case !c.User.IsStaff && !slices.Equal(ptrSlice(referrer), ptrSlice(p.ReferrerID)):
		f.V.Add(domain.VInvalid, MsgReferrerStaffOnly, "referrer")
	case referrer == nil || !c.User.IsStaff:
	case *referrer == p.ID:
		f.V.Add(domain.VInvalid, MsgOwnReferrer, "referrer")
	default:
		_, err := referrerMarketplace(ctx, tx, f, *referrer)
		return err
	}
	return nil
}

func ptrSlice(p *int64) []int64 {
	if p == nil {
		return nil
	}
	return []int64{*p}
}

// partnerNotFound is the field error of a partner_uuid naming no
// payment-hub partner the caller sees.
func partnerNotFound(v *domain.Validator, id uuid.UUID) {
	v.Add(domain.VNotFound, fmt.Sprintf(MsgPartnerUnknown, id), "partner_uuid")
}
