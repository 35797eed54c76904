package network

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
)

// Network partners: the partners where a marketplace's network giftcards
// and network vouchers are accepted (its acceptors), which the marketplace
// creates and updates itself through the administration API, with their
// company record. Decisions: docs/DECISIONS.md, "Network partners".

// CompanyTypes are the company types of a partner's company record.
var CompanyTypes = domain.CompanyTypes

// NetworkPartnerStatuses are the statuses an update may set; a created
// network partner has domain.PartnerStatusNetwork.
var NetworkPartnerStatuses = []string{domain.PartnerStatusInactive, domain.PartnerStatusNetwork}

// Limits where the contract gives none (but MaxPostalCodeLength).
const (
	MaxCompanyFieldLength = 255
	MaxPostalCodeLength   = 10
	MaxPartnerTags        = 20
	MaxPartnerTagLength   = 64
)

// Messages of refused network partner inputs.
const (
	MsgSourceID           = "Enter a whole number from 1 to 9223372036854775807."
	MsgSourceIDTaken      = "A partner of this network already has this source_id."
	MsgDefaultSourceTaken = "This partner's id, %d, is already the source_id of another partner of this network: give a source_id."
	MsgSiretTaken         = "A partner of this network already has this siret_number."
	MsgSiretAmbiguous     = "Several partners of this network have this siret_number: give source_id."
	MsgSourceOrSiret      = "Give source_id or siret_number."
	MsgNotMarketplace     = "This partner is not a marketplace."
	MsgOwnReferrer        = "A partner cannot be its own referrer."
)

// Company is a partner's company record, shared with the payment hub's
// partners.
type Company = domain.Company

// Partner is a partner as a marketplace's network shows it.
type Partner struct {
	ID            int64
	UUID          uuid.UUID
	MarketplaceID int64
	Status        string
	Name          string
	Company
	// SourceID is the marketplace's id of the partner (digits); nil for a
	// link made elsewhere whose default was taken.
	SourceID *string
	// CreatedHere: the partner was created in this marketplace's network,
	// which therefore manages its own settings (status, statistics,
	// referrer).
	CreatedHere         bool
	LinkedToNVSettings  bool // in the marketplace's network voucher settings
	LinkedToNGCSettings bool // in its network giftcard settings
	Tags                []string
}

// Acceptor is what a use of a network gift reads of the partner it is
// used at.
type Acceptor struct {
	PartnerID           int64
	MarketplaceID       int64
	SourceID            string // "" when it has none
	Status              string
	LinkedToNGCSettings bool
	LinkedToNVSettings  bool
}

// Active reports whether the partner may accept gifts: a network partner
// whose status is i is inactive.
func (a *Acceptor) Active() bool { return a.Status != domain.PartnerStatusInactive }

// SettingsLinks puts a partner in the marketplace's network voucher and
// network giftcard settings (true) or takes it out (false); nil leaves it.
type SettingsLinks struct {
	NetworkVouchers  *bool
	NetworkGiftcards *bool
}

// PartnerStore reads and writes network partners. It is a
// domain.PartnerStore too: the marketplace a body names is found by uuid.
type PartnerStore interface {
	domain.PartnerStore
	// LockPartner locks the partner's row until the transaction ends (FOR
	// NO KEY UPDATE).
	LockPartner(ctx context.Context, id int64) error
	// CreateCompany writes the company record of partner, which has none.
	CreateCompany(ctx context.Context, partnerID int64, c *Company) error
	// AddTags gives partner, which has none, its tags in order.
	AddTags(ctx context.Context, partnerID int64, tags []string) error
	// AddToNetwork puts partner in marketplace's network under sourceID.
	// Errors: CodeInvalid on "source_id" (MsgSourceIDTaken) when the
	// network has that source id.
	AddToNetwork(ctx context.Context, marketplaceID, partnerID int64, sourceID string) error
	// SetSourceID changes partner's source id in marketplace's network.
	// Errors: CodeInvalid on "source_id" (MsgSourceIDTaken) when another
	// partner of the network has it.
	SetSourceID(ctx context.Context, marketplaceID, partnerID int64, sourceID string) error
	// LinkSettings adds partner to, or removes it from, marketplace's
	// network voucher and network giftcard settings as links says.
	LinkSettings(ctx context.Context, marketplaceID, partnerID int64, links SettingsLinks) error
	// NetworkPartnerBySourceID returns the id of the partner of
	// marketplace's network with that source id; domain.ErrNotFound when
	// there is none.
	NetworkPartnerBySourceID(ctx context.Context, marketplaceID int64, sourceID string) (int64, error)
	// NetworkPartnersBySiret returns the ids, ascending, of at most two
	// partners of marketplace's network with that siret number: enough to
	// tell none, one and several.
	NetworkPartnersBySiret(ctx context.Context, marketplaceID int64, siret string) ([]int64, error)
	// FindNetworkPartner returns partner as marketplace's network shows
	// it; domain.ErrNotFound when it is not in that network.
	FindNetworkPartner(ctx context.Context, marketplaceID, partnerID int64) (*Partner, error)
	// SavePartnerSettings writes p's Status, HideFromStats,
	// ThirdPartySalesOnly and ReferrerID.
	SavePartnerSettings(ctx context.Context, p *Partner) error
	// CheckPartner returns the lowest id of a partner whose siret number
	// is siret and whose commercial name is commercialName, compared
	// case-insensitively, in network's network (nil: any partner);
	// domain.ErrNotFound when there is none.
	CheckPartner(ctx context.Context, network *int64, siret, commercialName string) (int64, error)
	// Acceptor returns the partner of marketplace's network with that
	// source id; domain.ErrNotFound when there is none.
	Acceptor(ctx context.Context, marketplaceID int64, sourceID string) (*Acceptor, error)
	// AcceptorByPartnerID returns partner when it is in marketplace's
	// network; domain.ErrNotFound otherwise.
	AcceptorByPartnerID(ctx context.Context, marketplaceID, partnerID int64) (*Acceptor, error)
}

// PartnerInput is the creation of a network partner; see
// CreateNetworkPartner for its fields.
type PartnerInput struct {
	domain.Refusals
	MarketplaceUUID              domain.Optional[uuid.UUID]
	SourceID                     domain.Optional[string]
	Name                         domain.Optional[string]
	CommercialName               domain.Optional[string]
	ShortName                    domain.Optional[string]
	CompanyType                  domain.Optional[string]
	SiretNumber                  domain.Optional[string]
	LegalRepresentativeFirstName domain.Optional[string]
	LegalRepresentativeLastName  domain.Optional[string]
	LegalRepresentativeBirthday  domain.Optional[time.Time]
	HQAddressLine1               domain.Optional[string]
	HQAddressLine2               domain.Optional[string]
	HQPostalCode                 domain.Optional[string]
	HQCity                       domain.Optional[string]
	HQCountry                    domain.Optional[string]
	RCS                          domain.Optional[string]
	APE                          domain.Optional[string]
	VATID                        domain.Optional[string]
	AgencyEmail                  domain.Optional[string]
	AgencyPhone                  domain.Optional[string]
	Website                      domain.Optional[string]
	Links
	// PartnerTags are the {"tag"} objects of partner_tags, in order; an
	// element the surface refused is kept (its Tag absent) so that the
	// errors name its index.
	PartnerTags domain.Optional[[]TagInput]
}

// TagInput is one element of partner_tags.
type TagInput struct{ Tag domain.Optional[string] }

// Links are link_to_nv_settings and link_to_ngc_settings.
type Links struct {
	LinkToNVSettings  domain.Optional[bool]
	LinkToNGCSettings domain.Optional[bool]
}

// PartnerUpdate is the change of a network partner; see
// UpdateNetworkPartner for its fields. The referrer is named by its
// record id (referrer) or, from the graph, by its uuid (ReferrerUUID).
type PartnerUpdate struct {
	domain.Refusals
	MarketplaceUUID     domain.Optional[uuid.UUID]
	SourceID            domain.Optional[string]
	SiretNumber         domain.Optional[string]
	Status              domain.Optional[string]
	HideFromStats       domain.Optional[bool]
	ThirdPartySalesOnly domain.Optional[bool]
	Referrer            domain.Optional[int64]
	ReferrerUUID        *uuid.UUID
	Links
}

// PartnerService creates, updates and checks the partners of
// marketplaces' networks.
type PartnerService struct {
	uow  domain.UnitOfWork[Stores]
	keys *idempotency.Guard
}

// NewPartnerService returns the service; keys guards the creations'
// idempotency keys.
func NewPartnerService(uow domain.UnitOfWork[Stores], keys *idempotency.Guard) *PartnerService {
	return &PartnerService{uow: uow, keys: keys}
}

// CreateNetworkPartner creates a partner of status n in the network of the
// caller's marketplace (staff name it with marketplace_uuid), with its
// company record, its tags and its links to the marketplace's settings, in
// one transaction. Body: name, commercial_name, short_name,
// siret_number, legal_representative_first_name and _last_name,
// hq_address_line_1, hq_postal_code (at most 10 characters), hq_city,
// hq_country, rcs, ape, vat_id, agency_email (e-mail), website (URL), all
// required; company_type (CompanyTypes), legal_representative_birthday (a
// date or date-time), hq_address_line_2, agency_phone, link_to_nv_settings,
// link_to_ngc_settings, partner_tags ([{"tag"}]), and the additions
// source_id (digits; default: the new partner's id) and marketplace_uuid.
// siret_number and source_id are unique within the network; creations of
// one marketplace run one at a time (its row is locked), so that holds.
// Once per idempotency key: a repeat answers the partner created first.
// Errors: those of Authorize(OpNetworkPartnerWrite); CodeForbidden for a
// partner that is not a marketplace; CodeInvalid with every field error.
func (s *PartnerService) CreateNetworkPartner(ctx context.Context, in PartnerInput) (*Partner, error) {
	c, err := authorizeMarketplace(ctx, domain.OpNetworkPartnerWrite)
	if err != nil {
		return nil, err
	}
	return idempotency.Run(ctx, s.keys, "network.partner.create", in, func(ctx context.Context, complete idempotency.Complete[*Partner]) (idempotency.Done[*Partner], error) {
		var done idempotency.Done[*Partner]
		err := s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
			created, err := s.create(ctx, tx, c, in)
			if err != nil {
				return err
			}
			done, err = complete(ctx, tx.Keys, created)
			return err
		})
		return done, err
	})
}

// create is CreateNetworkPartner's work in tx.
func (s *PartnerService) create(ctx context.Context, tx Stores, c *domain.Caller, in PartnerInput) (*Partner, error) {
	v := in.Refusals.Validator()
	f := domain.Fields{V: v}
	m, err := networkOwner(ctx, f, in.MarketplaceUUID, tx.Partners, c)
	if err != nil {
		return nil, err
	}
	p := checkNetworkPartner(f, &in)
	links := in.Links.check(f)
	sourceID := checkSourceID(f, in.SourceID)
	inReadingOrder(v, "marketplace_uuid", "name", "commercial_name", "short_name", "company_type", "siret_number",
		"legal_representative_first_name", "legal_representative_last_name", "legal_representative_birthday",
		"hq_address_line_1", "hq_address_line_2", "hq_postal_code", "hq_city", "hq_country", "rcs", "ape", "vat_id",
		"agency_email", "agency_phone", "website", "partner_tags", "link_to_nv_settings", "link_to_ngc_settings", "source_id")
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := tx.Partners.LockPartner(ctx, m.ID); err != nil {
		return nil, err
	}
	if err := checkUnique(ctx, tx.Partners, v, m.ID, p.SiretNumber, sourceID); err != nil {
		return nil, err
	}
	partner := &domain.Partner{Name: p.Name, Status: domain.PartnerStatusNetwork, Currency: m.Currency, TimeZone: m.TimeZone}
	if err := tx.Partners.CreatePartner(ctx, partner); err != nil {
		return nil, err
	}
	if sourceID == nil {
		id := strconv.FormatInt(partner.ID, 10)
		switch _, err := tx.Partners.NetworkPartnerBySourceID(ctx, m.ID, id); {
		case err == nil:
			v.Add(domain.VUnique, fmt.Sprintf(MsgDefaultSourceTaken, partner.ID), "source_id")
			return nil, v.Err()
		case !domain.IsCode(err, domain.CodeNotFound):
			return nil, err
		}
		sourceID = &id
	}
	if err := tx.Partners.CreateCompany(ctx, partner.ID, &p.Company); err != nil {
		return nil, err
	}
	if err := tx.Partners.AddTags(ctx, partner.ID, p.Tags); err != nil {
		return nil, err
	}
	if err := tx.Partners.AddToNetwork(ctx, m.ID, partner.ID, *sourceID); err != nil {
		return nil, err
	}
	if err := tx.Partners.LinkSettings(ctx, m.ID, partner.ID, links); err != nil {
		return nil, err
	}
	return tx.Partners.FindNetworkPartner(ctx, m.ID, partner.ID)
}

// UpdateNetworkPartner changes a partner of the caller's marketplace's
// network (staff name the marketplace with marketplace_uuid), found by
// siret_number when given, else by source_id; beside siret_number,
// source_id is the partner's new source id (unique in the network, as at
// creation). Body (all optional): status (NetworkPartnerStatuses),
// hide_from_stats, third_party_sales_only, referrer (the marketplace or a
// partner of its network; null clears it), link_to_nv_settings,
// link_to_ngc_settings.
// Errors: those of Authorize(OpNetworkPartnerWrite); CodeForbidden for a
// partner that is not a marketplace; CodeInvalid with every field error
// (non_field_errors: neither source_id nor siret_number, a siret_number
// several partners have; source_id: one another partner of the network
// has);
// CodeNotFound when no partner of the network has that source_id or
// siret_number.
func (s *PartnerService) UpdateNetworkPartner(ctx context.Context, in PartnerUpdate) (*Partner, error) {
	c, err := authorizeMarketplace(ctx, domain.OpNetworkPartnerWrite)
	if err != nil {
		return nil, err
	}
	var updated *Partner
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		v := in.Refusals.Validator()
		f := domain.Fields{V: v, Partial: true}
		m, err := networkOwner(ctx, f, in.MarketplaceUUID, tx.Partners, c)
		if err != nil {
			return err
		}
		sourceID := checkSourceID(f, in.SourceID)
		siret := f.String("siret_number", in.SiretNumber, false, false, MaxCompanyFieldLength)
		status := f.Choice("status", in.Status, false, NetworkPartnerStatuses)
		hide, thirdParty := f.Bool("hide_from_stats", in.HideFromStats), f.Bool("third_party_sales_only", in.ThirdPartySalesOnly)
		referrer, referrerSet, err := referrerOf(ctx, tx, f, in)
		if err != nil {
			return err
		}
		links := in.Links.check(f)
		if sourceID == nil && siret == nil && !domain.HasFieldError(v, "source_id") && !domain.HasFieldError(v, "siret_number") {
			v.Add(domain.VRequired, MsgSourceOrSiret)
		}
		if err := v.Err(); err != nil {
			return err
		}
		// The siret names the partner when given: a source_id beside it is
		// the id the marketplace's own system knows the partner by, to set.
		locator, newSourceID := sourceID, (*string)(nil)
		if siret != nil {
			locator, newSourceID = nil, sourceID
		}
		id, err := locate(ctx, tx.Partners, m.ID, locator, siret)
		if err != nil {
			return err
		}
		if err := tx.Partners.LockPartner(ctx, id); err != nil {
			return err
		}
		p, err := tx.Partners.FindNetworkPartner(ctx, m.ID, id)
		if err != nil {
			return err
		}
		if newSourceID != nil && (p.SourceID == nil || *p.SourceID != *newSourceID) {
			switch holder, err := tx.Partners.NetworkPartnerBySourceID(ctx, m.ID, *newSourceID); {
			case err == nil && holder != p.ID:
				v.Add(domain.VUnique, MsgSourceIDTaken, "source_id")
			case err != nil && !domain.IsCode(err, domain.CodeNotFound):
				return err
			}
		} else {
			newSourceID = nil
		}
		// A partner's own settings are its creator's: another network may
		// change only its links (and a status a or t is no network's).
		ownSettings := status != nil || hide != nil || thirdParty != nil || referrerSet
		if ownSettings && (!p.CreatedHere || !slices.Contains(NetworkPartnerStatuses, p.Status)) {
			v.Add(domain.VInvalid, MsgNotCreatedHere)
			return v.Err()
		}
		p.Status = domain.Pick(status, p.Status)
		p.HideFromStats = domain.Pick(hide, p.HideFromStats)
		p.ThirdPartySalesOnly = domain.Pick(thirdParty, p.ThirdPartySalesOnly)
		if referrerSet {
			if err := checkReferrer(ctx, tx, f, m.ID, p.ID, referrer); err != nil {
				return err
			}
			p.ReferrerID = referrer
		}
		if err := v.Err(); err != nil {
			return err
		}
		if err := tx.Partners.SavePartnerSettings(ctx, p); err != nil {
			return err
		}
		if newSourceID != nil {
			if err := tx.Partners.SetSourceID(ctx, m.ID, p.ID, *newSourceID); err != nil {
				return err
			}
		}
		if err := tx.Partners.LinkSettings(ctx, m.ID, p.ID, links); err != nil {
			return err
		}
		updated, err = tx.Partners.FindNetworkPartner(ctx, m.ID, p.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return updated, nil
}

// referrerOf reads the update's referrer: set reports a value or null;
// a uuid names any partner (whether it may refer is checkReferrer's).
// Errors: CodeNotFound for an unknown uuid; a failed lookup.
func referrerOf(ctx context.Context, tx Stores, f domain.Fields, in PartnerUpdate) (id *int64, set bool, err error) {
	if in.ReferrerUUID == nil {
		id, set = f.PK("referrer", in.Referrer, false, true)
		return id, set, nil
	}
	p, err := tx.Partners.FindPartnerByUUID(ctx, *in.ReferrerUUID)
	if err != nil {
		return nil, false, err
	}
	return &p.ID, true, nil
}

// MsgNotCreatedHere refuses a change of a partner's own settings by a
// network that did not create it.
const MsgNotCreatedHere = "This partner was not created in this marketplace's network: only its links to the network settings can change."

// CheckPartner returns the id of the partner with that siret number and
// commercial name (case-insensitive), among the partners of the caller's
// marketplace's network; staff find any partner.
// Errors: those of Authorize(OpNetworkPartnerRead); CodeForbidden for a
// partner that is not a marketplace; CodeInvalid on "siret_number" and
// "commercial_name" when blank or too long; CodeNotFound when there is
// no such partner.
func (s *PartnerService) CheckPartner(ctx context.Context, siret, commercialName string) (int64, error) {
	c, err := authorizeMarketplace(ctx, domain.OpNetworkPartnerRead)
	if err != nil {
		return 0, err
	}
	var v domain.Validator
	for field, value := range map[string]*string{"siret_number": &siret, "commercial_name": &commercialName} {
		*value = strings.TrimSpace(*value)
		switch {
		case *value == "":
			v.Add(domain.VRequired, domain.MsgRequired, field)
		default:
			v.PlainText(*value, MaxCompanyFieldLength, []any{field})
		}
	}
	if err := v.Err(); err != nil {
		return 0, err
	}
	var network *int64
	if !c.User.IsStaff {
		network = &c.Partner.ID
	}
	return s.uow.Stores().Partners.CheckPartner(ctx, network, siret, commercialName)
}

// authorizeMarketplace is Authorize for the operations on a marketplace's
// network: a partner that is not a marketplace has none.
func authorizeMarketplace(ctx context.Context, op domain.AdminOp) (*domain.Caller, error) {
	c, err := domain.Authorize(ctx, op)
	if err != nil {
		return nil, err
	}
	if !c.User.IsStaff && (c.Partner == nil || !c.Partner.IsMarketplace) {
		return nil, &domain.Error{Code: domain.CodeForbidden, Message: domain.MsgPermissionDenied}
	}
	return c, nil
}

// networkOwner returns the marketplace whose network the input changes:
// the caller's own (which marketplace_uuid may name), or the marketplace
// staff name with marketplace_uuid. A refusal is a field error on
// marketplace_uuid, recorded in f, and a nil marketplace.
// Errors: a failed lookup.
func networkOwner(ctx context.Context, f domain.Fields, o domain.Optional[uuid.UUID], partners domain.PartnerStore, c *domain.Caller) (*domain.Partner, error) {
	const field = "marketplace_uuid"
	u := f.UUID(field, o, false)
	if u == nil && domain.HasFieldError(f.V, field) {
		return nil, nil
	}
	m, err := domain.WritePartner(ctx, partners, c, u, field)
	var e *domain.Error
	switch {
	case errors.As(err, &e) && e.Code == domain.CodeInvalid:
		f.V.Fields = append(f.V.Fields, e.Fields...)
		return nil, nil
	case err != nil:
		return nil, err
	case !m.IsMarketplace:
		f.V.Add(domain.VInvalid, MsgNotMarketplace, field)
		return nil, nil
	}
	return m, nil
}

// checkNetworkPartner reads the fields of a network partner's creation.
func checkNetworkPartner(f domain.Fields, in *PartnerInput) *Partner {
	text := func(field string, o domain.Optional[string], required bool) string {
		return domain.Pick(f.String(field, o, required, !required, MaxCompanyFieldLength), "")
	}
	p := &Partner{Name: text("name", in.Name, true)}
	p.CommercialName = text("commercial_name", in.CommercialName, true)
	p.ShortName = text("short_name", in.ShortName, true)
	p.CompanyType = domain.Pick(f.Choice("company_type", in.CompanyType, false, CompanyTypes), "")
	p.SiretNumber = text("siret_number", in.SiretNumber, true)
	p.LegalRepresentativeFirstName = text("legal_representative_first_name", in.LegalRepresentativeFirstName, true)
	p.LegalRepresentativeLastName = text("legal_representative_last_name", in.LegalRepresentativeLastName, true)
	p.LegalRepresentativeBirthday, _ = f.Date("legal_representative_birthday", in.LegalRepresentativeBirthday, domain.MsgDayFormat)
	p.HQAddressLine1 = text("hq_address_line_1", in.HQAddressLine1, true)
	p.HQAddressLine2 = text("hq_address_line_2", in.HQAddressLine2, false)
	p.HQPostalCode = domain.Pick(f.String("hq_postal_code", in.HQPostalCode, true, false, MaxPostalCodeLength), "")
	p.HQCity = text("hq_city", in.HQCity, true)
	p.HQCountry = text("hq_country", in.HQCountry, true)
	p.RCS = text("rcs", in.RCS, true)
	p.APE = text("ape", in.APE, true)
	p.VATID = text("vat_id", in.VATID, true)
	p.AgencyEmail = domain.Pick(f.Email("agency_email", in.AgencyEmail, true), "")
	p.AgencyPhone = domain.Pick(f.String("agency_phone", in.AgencyPhone, false, true, domain.MaxPhoneLength), "")
	p.Website = domain.Pick(f.URL("website", in.Website, true), "")
	p.Tags = checkTags(f, "partner_tags", in.PartnerTags)
	return p
}

func (l Links) check(f domain.Fields) SettingsLinks {
	return SettingsLinks{NetworkVouchers: f.Bool("link_to_nv_settings", l.LinkToNVSettings),
		NetworkGiftcards: f.Bool("link_to_ngc_settings", l.LinkToNGCSettings)}
}

// checkTags reads at most MaxPartnerTags tags; a tag given twice is kept
// once, where it first appears.
func checkTags(f domain.Fields, field string, o domain.Optional[[]TagInput]) []string {
	list, ok, _ := domain.Present(f, field, o, false, false)
	if !ok {
		return nil
	}
	if len(list) > MaxPartnerTags {
		f.V.Add(domain.VMaxElements, fmt.Sprintf(domain.MsgTooManyElements, MaxPartnerTags), field)
		return nil
	}
	f.V.ListLength(len(list), field)
	tags := make([]string, 0, len(list))
	seen := map[string]bool{}
	for i, e := range list {
		if domain.HasFieldError(f.V, field, i, "non_field_errors") || domain.HasFieldError(f.V, field, i, "tag") {
			continue
		}
		inner := domain.Fields{V: &domain.Validator{}}
		tag := inner.String("tag", e.Tag, true, false, MaxPartnerTagLength)
		for _, fe := range inner.V.Fields {
			f.V.Add(fe.Code, fe.Message, append([]any{field, i}, fe.Path...)...)
		}
		if tag != nil && !seen[*tag] {
			seen[*tag] = true
			tags = append(tags, *tag)
		}
	}
	return tags
}

// checkSourceID reads source_id, a whole number from 1 to 2^63-1 given as
// digits, as its canonical text (no leading zeros): the use of a network
// giftcard names the partner by that int64. nil when absent, null or
// invalid.
func checkSourceID(f domain.Fields, o domain.Optional[string]) *string {
	const field = "source_id"
	s, ok, _ := domain.Present(f, field, o, false, true)
	if !ok {
		return nil
	}
	s = strings.TrimSpace(s)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 || strings.Trim(s, "0123456789") != "" {
		f.V.Add(domain.VInvalid, MsgSourceID, field)
		return nil
	}
	canonical := strconv.FormatInt(n, 10)
	return &canonical
}

// checkUnique records a field error when marketplace's network has a
// partner with siret or with sourceID (nil: none given).
func checkUnique(ctx context.Context, partners PartnerStore, v *domain.Validator, marketplaceID int64, siret string, sourceID *string) error {
	ids, err := partners.NetworkPartnersBySiret(ctx, marketplaceID, siret)
	if err != nil {
		return err
	}
	if len(ids) > 0 {
		v.Add(domain.VUnique, MsgSiretTaken, "siret_number")
	}
	if sourceID != nil {
		switch _, err := partners.NetworkPartnerBySourceID(ctx, marketplaceID, *sourceID); {
		case err == nil:
			v.Add(domain.VUnique, MsgSourceIDTaken, "source_id")
		case !domain.IsCode(err, domain.CodeNotFound):
			return err
		}
	}
	return v.Err()
}

// locate returns the id of the partner of marketplace's network that
// sourceID names, else the one siret names.
// Errors: domain.ErrNotFound when none does; CodeInvalid (MsgSiretAmbiguous)
// for a siret of several partners.
func locate(ctx context.Context, partners PartnerStore, marketplaceID int64, sourceID, siret *string) (int64, error) {
	if sourceID != nil {
		return partners.NetworkPartnerBySourceID(ctx, marketplaceID, *sourceID)
	}
	ids, err := partners.NetworkPartnersBySiret(ctx, marketplaceID, *siret)
	switch {
	case err != nil:
		return 0, err
	case len(ids) == 0:
		return 0, domain.ErrNotFound
	case len(ids) > 1:
		var v domain.Validator
		v.Add(domain.VInvalid, MsgSiretAmbiguous)
		return 0, v.Err()
	}
	return ids[0], nil
}

// checkReferrer records a field error on referrer unless it is nil, the
// marketplace or another partner of its network.
func checkReferrer(ctx context.Context, tx Stores, f domain.Fields, marketplaceID, partnerID int64, referrer *int64) error {
	switch {
	case referrer == nil || *referrer == marketplaceID:
		return nil
	case *referrer == partnerID:
		f.V.Add(domain.VInvalid, MsgOwnReferrer, "referrer")
		return nil
	}
	_, err := tx.Partners.AcceptorByPartnerID(ctx, marketplaceID, *referrer)
	if domain.IsCode(err, domain.CodeNotFound) {
		f.MissingPK("referrer", *referrer)
		return nil
	}
	return err
}
