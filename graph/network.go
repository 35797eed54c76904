package graph

// Converters of the network area (network.graphqls). The mutations build
// the REST body (domain.Doc) from their typed input, as the prototypes'
// do, so that the service reads both surfaces the same way; its field
// errors name the REST fields ("partner_source_id"), which errors maps to
// the input's own (partnerSourceId).

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/network"
	"salesplatform/graph/model"
)

// A NetworkPartner's global id carries its marketplace's and its own
// record ids, "M:P": a partner may be in several networks.

func networkPartnerKey(k network.PartnerKey) string {
	return strconv.FormatInt(k.MarketplaceID, 10) + ":" + strconv.FormatInt(k.PartnerID, 10)
}

// parsePartnerKey reads a NetworkPartner's key; ok is false for anything
// but two canonical record ids.
func parsePartnerKey(key string) (k network.PartnerKey, ok bool) {
	m, p, found := strings.Cut(key, ":")
	if !found || !validKey(numericKey, m) || !validKey(numericKey, p) {
		return k, false
	}
	k.MarketplaceID, _ = strconv.ParseInt(m, 10, 64)
	k.PartnerID, _ = strconv.ParseInt(p, 10, 64)
	return k, true
}

// optText is a text of a record, nil when empty.
func optText(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func toGraphNetworkCustomer(c *network.Customer) *model.NetworkGiftcardCustomer {
	if c == nil {
		return nil
	}
	return &model.NetworkGiftcardCustomer{FirstName: c.FirstName, LastName: c.LastName, Email: c.Email}
}

func toGraphNetworkGiftcard(g *network.Giftcard) *model.NetworkGiftcard {
	if g == nil {
		return nil
	}
	loc := g.Location()
	return &model.NetworkGiftcard{GlobalID: numericGlobalID("NetworkGiftcard", g.ID), ID: idString(g.ID), UUID: g.UUID,
		Code: g.Code, Status: model.NetworkGiftStatus(strings.ToUpper(g.Status)), Value: g.Value,
		RemainingValue: g.RemainingValue, CurrencyCode: model.CurrencyCode(g.Currency), Language: languageOf(g.Language),
		CreationDate: g.CreationDate.In(loc), ActivationDate: inZone(g.ActivationDate, loc),
		ExpirationDate: inZone(g.ExpirationDate, loc), IsActive: g.IsActive, IsSplittable: g.IsSplittable,
		Gifter: toGraphNetworkCustomer(&g.Gifter), Giftee: toGraphNetworkCustomer(g.Giftee), FromGifter: g.FromGifter,
		Theme: g.Theme, MarketplaceID: idString(g.MarketplaceID), MarketplaceUUID: g.MarketplaceUUID,
		OrderUUID: g.OrderUUID, OrderCreationDate: inZone(g.OrderCreationDate, loc), Description: g.Description,
		ShortDescription: g.ShortDescription}
}

func toGraphNetworkUsage(u *network.Usage) *model.NetworkGiftcardUsage {
	loc := u.Location()
	return &model.NetworkGiftcardUsage{GlobalID: numericGlobalID("NetworkGiftcardUsage", u.ID), ID: idString(u.ID),
		NetworkGiftcardID: idString(u.CardID), PartnerID: idString(u.PartnerID), PartnerSourceID: optText(u.PartnerSourceID),
		Value: u.Value, IsActive: u.IsActive, Comment: u.Comment, ReservationID: u.ReservationID,
		CreationDate: u.CreationDate.In(loc), FreezePayoutDate: inZone(u.FreezePayoutDate, loc), MarketplaceID: u.MarketplaceID}
}

func toGraphNetworkHold(h *network.Hold) *model.NetworkGiftcardHold {
	loc := h.Location()
	return &model.NetworkGiftcardHold{GlobalID: numericGlobalID("NetworkGiftcardHold", h.ID), ID: idString(h.ID),
		NetworkGiftcardID: idString(h.CardID), PartnerID: idString(h.PartnerID), PartnerSourceID: optText(h.PartnerSourceID),
		ReservationID: h.ReservationID, Amount: h.Amount, Status: model.NetworkGiftcardHoldStatus(strings.ToUpper(h.Status)),
		ExpiresAt: h.ExpiresAt.In(loc), CreatedAt: h.CreatedAt.In(loc), EndedAt: inZone(h.EndedAt, loc),
		UsageID: optIDString(h.UsageID), MarketplaceID: h.MarketplaceID}
}

// A movement's date is in UTC: the ledger keeps no zone of its own.
func toGraphNetworkMovement(m *network.Movement) *model.NetworkGiftcardMovement {
	return &model.NetworkGiftcardMovement{GlobalID: numericGlobalID("NetworkGiftcardMovement", m.ID), ID: idString(m.ID),
		NetworkGiftcardID: idString(m.CardID), Kind: model.NetworkGiftcardMovementKind(strings.ToUpper(m.Kind)),
		Amount: m.Amount, BalanceAfter: m.BalanceAfter, UsageID: optIDString(m.UsageID), HoldID: optIDString(m.HoldID),
		PartnerID: optIDString(m.PartnerID), ActorID: optIDString(m.ActorID), ReservationID: m.ReservationID,
		Comment: m.Comment, PayoutID: optIDString(m.PayoutID), CreatedAt: m.CreatedAt.UTC()}
}

func toGraphNetworkPartner(p *network.NetworkPartner) *model.NetworkPartner {
	if p == nil {
		return nil
	}
	out := &model.NetworkPartner{GlobalID: globalID("NetworkPartner", networkPartnerKey(network.PartnerKey{MarketplaceID: p.MarketplaceID, PartnerID: p.ID})),
		ID: idString(p.ID), UUID: p.UUID, MarketplaceID: idString(p.MarketplaceID), Status: p.Status, Name: p.Name,
		CommercialName: p.CommercialName, ShortName: p.ShortName, CompanyType: p.CompanyType, SiretNumber: p.SiretNumber,
		LegalRepresentativeFirstName: p.LegalRepresentativeFirstName, LegalRepresentativeLastName: p.LegalRepresentativeLastName,
		HqAddressLine1: p.HQAddressLine1, HqAddressLine2: p.HQAddressLine2, HqPostalCode: p.HQPostalCode, HqCity: p.HQCity,
		HqCountry: p.HQCountry, Rcs: p.RCS, Ape: p.APE, VatID: p.VATID, AgencyEmail: p.AgencyEmail, AgencyPhone: p.AgencyPhone,
		Website: p.Website, HideFromStats: p.HideFromStats, ThirdPartySalesOnly: p.ThirdPartySalesOnly,
		ReferrerID: optIDString(p.ReferrerID), SourceID: p.SourceID, LinkedToNvSettings: p.LinkedToNVSettings,
		LinkedToNgcSettings: p.LinkedToNGCSettings, Tags: p.Tags}
	if out.Tags == nil {
		out.Tags = []string{}
	}
	if b := p.LegalRepresentativeBirthday; b != nil {
		day := b.Format(time.DateOnly)
		out.LegalRepresentativeBirthday = &day
	}
	return out
}

// The network voucher records' dates are in UTC, as their REST twins'.

func toGraphNetworkBox(b *network.Box) *model.NetworkVoucherBox {
	out := &model.NetworkVoucherBox{GlobalID: numericGlobalID("NetworkVoucherBox", b.ID), ID: idString(b.ID),
		MarketplaceID: idString(b.MarketplaceID), Name: toGraphLocalized(b.Name), ShortDescription: toGraphLocalized(b.ShortDescription),
		LongDescription: toGraphLocalized(b.LongDescription), CreationDate: b.CreationDate.UTC(), IsActive: b.IsActive,
		IsHighlight: b.IsHighlight, Price: b.Price, Weight: b.Weight, PriceScope: b.PriceScope, MaxUsages: b.MaxUsages,
		MaxDaysAfterFirstUsage: b.MaxDaysAfterFirstUsage, NbMpoOrders: b.NbMPOOrders,
		Images:          make([]*model.NetworkVoucherBoxImage, len(b.Images)),
		AllowedPartners: make([]*model.NetworkVoucherAllowedPartner, len(b.AllowedPartners)),
		Products:        make([]*model.NetworkVoucherBoxProduct, len(b.Products))}
	if pr := b.PriceRange; pr != nil {
		out.PriceRange = &model.NetworkVoucherPriceRange{GlobalID: numericGlobalID("NetworkVoucherPriceRange", pr.ID), ID: idString(pr.ID), Name: toGraphLocalized(pr.Name)}
	}
	for i, im := range b.Images {
		m := im.Media
		out.Images[i] = &model.NetworkVoucherBoxImage{GlobalID: numericGlobalID("NetworkVoucherBoxImage", im.ID), ID: idString(im.ID), Cover: im.Cover, MediaID: idString(m.ID),
			MediaUUID: m.UUID, Name: m.Name, Size: m.Size, CreatedOn: m.CreatedOn.UTC(), ArchivedOn: inZone(m.ArchivedOn, time.UTC)}
	}
	for i, p := range b.AllowedPartners {
		out.AllowedPartners[i] = &model.NetworkVoucherAllowedPartner{PartnerID: idString(p.ID), SourceID: p.SourceID, AgencyName: p.AgencyName}
	}
	for i, p := range b.Products {
		out.Products[i] = &model.NetworkVoucherBoxProduct{GlobalID: numericGlobalID("NetworkVoucherBoxProduct", p.ID), ID: idString(p.ID), Name: toGraphLocalized(p.Name), PriceRangeID: optIDString(p.PriceRangeID)}
	}
	return out
}

// toGraphNetworkOffer is an offer of a box of marketplace.
func toGraphNetworkOffer(o *network.Offer, marketplace int64) *model.NetworkVoucherBoxOffer {
	return &model.NetworkVoucherBoxOffer{GlobalID: numericGlobalID("NetworkVoucherBoxOffer", o.ID), ID: idString(o.ID),
		BoxID: idString(o.BoxID), PartnerID: idString(o.PartnerID), ProductID: optIDString(o.ProductID),
		Name: toGraphLocalized(o.Name), Description: toGraphLocalized(o.Description), TermsOfUse: toGraphLocalized(o.TermsOfUse),
		EditionDate: o.EditionDate.UTC(), RejectionDate: inZone(o.RejectionDate, time.UTC), IsActive: o.IsActive, Status: model.BoxOfferStatus(o.Status),
		Ranking: o.Ranking, MarketplaceID: marketplace}
}

func toGraphNetworkVoucher(v *network.Voucher) *model.NetworkVoucher {
	out := &model.NetworkVoucher{GlobalID: globalID("NetworkVoucher", v.Code), ID: idString(v.ID), UUID: v.UUID, Code: v.Code,
		Status: model.NetworkGiftStatus(strings.ToUpper(v.Status)), CreationDate: v.CreationDate.UTC(), ExpirationDate: inZone(v.ExpirationDate, time.UTC),
		MaxUsages: v.MaxUsages, UsageCount: v.UsageCount, Language: v.Language, BoxID: idString(v.BoxID),
		MarketplaceID: idString(v.MarketplaceID), BoxName: v.Text(v.Box.Name), BoxPrice: v.Box.Price,
		IsBoxActive: v.Box.IsActive, Description: v.Text(v.Box.LongDescription), ShortDescription: v.Text(v.Box.ShortDescription),
		Universes: make([][]string, len(v.Box.Universes))}
	for i, path := range v.Box.Universes {
		out.Universes[i] = make([]string, len(path))
		for j, name := range path {
			out.Universes[i][j] = v.Text(name)
		}
	}
	return out
}

func toGraphNetworkVoucherUsage(u *network.VoucherUsage) *model.NetworkVoucherUsage {
	return &model.NetworkVoucherUsage{GlobalID: numericGlobalID("NetworkVoucherUsage", u.ID), ID: idString(u.ID),
		NetworkVoucherID: idString(u.VoucherID), PartnerID: idString(u.PartnerID), PartnerAgencyName: u.PartnerAgencyName,
		PartnerSourceID: optIDString(u.PartnerSourceID), IsActive: u.IsActive, Comment: u.Comment,
		ManagementFees: u.ManagementFees, CommissionRate: u.CommissionRate, CreationDate: u.CreationDate.UTC(),
		MarketplaceID: u.MarketplaceID}
}

// The connections of the area.

func networkGiftcardConnection(w window, page *domain.Page[*network.Giftcard]) *model.NetworkGiftcardConnection {
	edges, info := connect(w, page, func(c string, g *network.Giftcard) *model.NetworkGiftcardEdge {
		return &model.NetworkGiftcardEdge{Cursor: c, Node: toGraphNetworkGiftcard(g)}
	})
	return &model.NetworkGiftcardConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

func networkUsageConnection(w window, page *domain.Page[*network.Usage]) *model.NetworkGiftcardUsageConnection {
	edges, info := connect(w, page, func(c string, u *network.Usage) *model.NetworkGiftcardUsageEdge {
		return &model.NetworkGiftcardUsageEdge{Cursor: c, Node: toGraphNetworkUsage(u)}
	})
	return &model.NetworkGiftcardUsageConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

func networkMovementConnection(w window, page *domain.Page[*network.Movement]) *model.NetworkGiftcardMovementConnection {
	edges, info := connect(w, page, func(c string, m *network.Movement) *model.NetworkGiftcardMovementEdge {
		return &model.NetworkGiftcardMovementEdge{Cursor: c, Node: toGraphNetworkMovement(m)}
	})
	return &model.NetworkGiftcardMovementConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

func networkHoldConnection(w window, page *domain.Page[*network.Hold]) *model.NetworkGiftcardHoldConnection {
	edges, info := connect(w, page, func(c string, h *network.Hold) *model.NetworkGiftcardHoldEdge {
		return &model.NetworkGiftcardHoldEdge{Cursor: c, Node: toGraphNetworkHold(h)}
	})
	return &model.NetworkGiftcardHoldConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

func networkPartnerConnection(w window, page *domain.Page[*network.NetworkPartner]) *model.NetworkPartnerConnection {
	edges, info := connect(w, page, func(c string, p *network.NetworkPartner) *model.NetworkPartnerEdge {
		return &model.NetworkPartnerEdge{Cursor: c, Node: toGraphNetworkPartner(p)}
	})
	return &model.NetworkPartnerConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

func networkBoxConnection(w window, page *domain.Page[*network.Box]) *model.NetworkVoucherBoxConnection {
	edges, info := connect(w, page, func(c string, b *network.Box) *model.NetworkVoucherBoxEdge {
		return &model.NetworkVoucherBoxEdge{Cursor: c, Node: toGraphNetworkBox(b)}
	})
	return &model.NetworkVoucherBoxConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

func networkOfferConnection(w window, page *domain.Page[*network.Offer], marketplace int64) *model.NetworkVoucherBoxOfferConnection {
	edges, info := connect(w, page, func(c string, o *network.Offer) *model.NetworkVoucherBoxOfferEdge {
		return &model.NetworkVoucherBoxOfferEdge{Cursor: c, Node: toGraphNetworkOffer(o, marketplace)}
	})
	return &model.NetworkVoucherBoxOfferConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

func networkVoucherConnection(w window, page *domain.Page[*network.Voucher]) *model.NetworkVoucherConnection {
	edges, info := connect(w, page, func(c string, v *network.Voucher) *model.NetworkVoucherEdge {
		return &model.NetworkVoucherEdge{Cursor: c, Node: toGraphNetworkVoucher(v)}
	})
	return &model.NetworkVoucherConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

func networkVoucherUsageConnection(w window, page *domain.Page[*network.VoucherUsage]) *model.NetworkVoucherUsageConnection {
	edges, info := connect(w, page, func(c string, u *network.VoucherUsage) *model.NetworkVoucherUsageEdge {
		return &model.NetworkVoucherUsageEdge{Cursor: c, Node: toGraphNetworkVoucherUsage(u)}
	})
	return &model.NetworkVoucherUsageConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

// networkGiftcardID is the id keyset cursors of the card lists carry.
func networkGiftcardID(g *network.Giftcard) int64 { return g.ID }

// loadNetworkPartner is a partner as marketplace's network shows it,
// through the request's loader; null when the caller does not see it.
func (r *Resolver) loadNetworkPartner(ctx context.Context, marketplace int64, partnerID string) (*model.NetworkPartner, error) {
	p, err := loadersFrom(ctx).networkPartners.Load(ctx, network.PartnerKey{MarketplaceID: marketplace, PartnerID: lenientID(partnerID)})
	return toGraphNetworkPartner(p), err
}

// loadNetworkGiftcard is a card by its record id, through the request's
// loader; null when the caller does not see it.
func (r *Resolver) loadNetworkGiftcard(ctx context.Context, id string) (*model.NetworkGiftcard, error) {
	g, err := loadersFrom(ctx).networkGiftcards.Load(ctx, lenientID(id))
	return toGraphNetworkGiftcard(g), err
}

// networkPartnerID reads an input's partner of a network (partnerId,
// referrerId): a NetworkPartner's global id names its partner; anything
// else is read as partnerRecordID reads it.
// Errors: those of partnerRecordID.
func (r *Resolver) networkPartnerID(ctx context.Context, ref *string) (*int64, error) {
	if ref == nil {
		return nil, nil
	}
	typ, key, ok := decodeGlobalID(*ref)
	switch {
	case ok && typ == "NetworkPartner":
		k, valid := parsePartnerKey(key)
		if !valid {
			return nil, domain.ErrNotFound
		}
		return &k.PartnerID, nil
	case ok && typ == "Partner":
		// Any partner's: whether it is in the network is the service's
		// to say, not the caller's view of partners'.
		id, err := uuid.Parse(key)
		if err != nil {
			return nil, domain.ErrNotFound
		}
		n, err := r.NetworkPartners.PartnerID(ctx, id)
		return &n, err
	}
	return r.partnerRecordID(ctx, ref)
}

// msgOnePartner refuses a use that names its partner both ways.
const msgOnePartner = "Give partnerSourceId or partnerId, not both."

// partnerField sets the partner of a use (of a card or a voucher) in d,
// by source id or by id, and returns the field the service reads it from
// (the REST route's): by source id when the input names it so or names
// none, which the service then reports as required.
// Errors: CodeInvalid on the input when it names the partner both ways.
func partnerField(d adminDoc, sourceID *string, partnerID *int64) (string, error) {
	switch {
	case sourceID != nil && partnerID != nil:
		return "", &domain.Error{Code: domain.CodeInvalid, Message: "Invalid input.",
			Fields: []domain.FieldError{{Code: domain.VInvalid, Message: msgOnePartner}}}
	case partnerID != nil:
		d[network.PartnerByID] = recordNumber(*partnerID)
		return network.PartnerByID, nil
	case sourceID != nil:
		d[network.PartnerBySourceID] = *sourceID
	}
	return network.PartnerBySourceID, nil
}

// recordNumber is a record id as a JSON body's number.
func recordNumber(id int64) json.Number { return json.Number(strconv.FormatInt(id, 10)) }

func networkCustomerDoc(c *model.NetworkGiftcardCustomerInput) map[string]any {
	return map[string]any{"first_name": c.FirstName, "last_name": c.LastName, "email": c.Email}
}

func createNetworkGiftcardDoc(in model.CreateNetworkGiftcardInput, marketplace *uuid.UUID) domain.Doc {
	d := adminDoc{"status": strings.ToLower(string(in.Status)), "value": in.Value, "gifter": networkCustomerDoc(in.Gifter),
		"from_gifter": in.FromGifter, "activation_date": in.ActivationDate, "expiration_date": in.ExpirationDate}
	if marketplace != nil {
		d["marketplace_uuid"] = marketplace.String()
	}
	if giftee, ok := in.Giftee.ValueOK(); ok {
		d["giftee"] = nil
		if giftee != nil {
			d["giftee"] = networkCustomerDoc(giftee)
		}
	}
	set(d, "is_splittable", in.IsSplittable, same[bool])
	set(d, "is_active", in.IsActive, same[bool])
	set(d, "language", in.Language, func(l model.Language) any { return strings.ToLower(string(l)) })
	set(d, "theme", in.Theme, same[string])
	return domain.Doc(d)
}

func useNetworkGiftcardDoc(in model.UseNetworkGiftcardInput, partnerID *int64) (domain.Doc, string, error) {
	d := adminDoc{"value": in.Value, "creation_date": in.CreationDate}
	field, err := partnerField(d, opt(in.PartnerSourceID), partnerID)
	set(d, "comment", in.Comment, same[string])
	set(d, "reservation_id", in.ReservationID, same[string])
	set(d, "freeze_payout_date", in.FreezePayoutDate, same[string])
	set(d, "send_usage_notification_email", in.SendUsageNotificationEmail, same[bool])
	set(d, "giftee_email", in.GifteeEmail, same[string])
	return domain.Doc(d), field, err
}

func holdNetworkGiftcardDoc(in model.HoldNetworkGiftcardInput, partnerID *int64) domain.Doc {
	d := adminDoc{"amount": in.Amount, "reservation_id": in.ReservationID}
	set(d, "partner_source_id", in.PartnerSourceID, same[string])
	if partnerID != nil {
		d["partner_id"] = recordNumber(*partnerID)
	}
	set(d, "expires_in", in.ExpiresIn, same[int])
	return domain.Doc(d)
}

func captureNetworkGiftcardDoc(in model.CaptureNetworkGiftcardHoldInput) domain.Doc {
	d := adminDoc{}
	set(d, "value", in.Value, same[string])
	set(d, "creation_date", in.CreationDate, same[string])
	set(d, "comment", in.Comment, same[string])
	set(d, "freeze_payout_date", in.FreezePayoutDate, same[string])
	set(d, "send_usage_notification_email", in.SendUsageNotificationEmail, same[bool])
	set(d, "giftee_email", in.GifteeEmail, same[string])
	return domain.Doc(d)
}

func createNetworkPartnerDoc(in model.CreateNetworkPartnerInput, marketplace *uuid.UUID) domain.Doc {
	d := adminDoc{"name": in.Name, "commercial_name": in.CommercialName, "short_name": in.ShortName,
		"siret_number": in.SiretNumber, "legal_representative_first_name": in.LegalRepresentativeFirstName,
		"legal_representative_last_name": in.LegalRepresentativeLastName, "hq_address_line_1": in.HqAddressLine1,
		"hq_postal_code": in.HqPostalCode, "hq_city": in.HqCity, "hq_country": in.HqCountry, "rcs": in.Rcs, "ape": in.Ape,
		"vat_id": in.VatID, "agency_email": in.AgencyEmail, "website": in.Website}
	if marketplace != nil {
		d["marketplace_uuid"] = marketplace.String()
	}
	set(d, "source_id", in.SourceID, same[string])
	set(d, "company_type", in.CompanyType, func(t model.NetworkCompanyType) any { return strings.ToLower(string(t)) })
	set(d, "legal_representative_birthday", in.LegalRepresentativeBirthday, same[string])
	set(d, "hq_address_line_2", in.HqAddressLine2, same[string])
	set(d, "agency_phone", in.AgencyPhone, same[string])
	set(d, "link_to_nv_settings", in.LinkToNvSettings, same[bool])
	set(d, "link_to_ngc_settings", in.LinkToNgcSettings, same[bool])
	if tags, ok := in.PartnerTags.ValueOK(); ok {
		d["partner_tags"] = nil
		if tags != nil {
			list := make([]any, len(tags))
			for i, t := range tags {
				list[i] = map[string]any{"tag": t}
			}
			d["partner_tags"] = list
		}
	}
	return domain.Doc(d)
}

// networkPartnerStatuses are the statuses an update sets, by enum value.
var networkPartnerStatuses = map[model.NetworkPartnerStatus]string{
	model.NetworkPartnerStatusInactive: domain.PartnerStatusInactive,
	model.NetworkPartnerStatusNetwork:  domain.PartnerStatusNetwork,
}

// updateNetworkPartnerDoc is the update's body; referrer is set when the
// input names one (nil: cleared).
func updateNetworkPartnerDoc(in model.UpdateNetworkPartnerInput, marketplace *uuid.UUID, referrer *int64) domain.Doc {
	d := adminDoc{}
	if marketplace != nil {
		d["marketplace_uuid"] = marketplace.String()
	}
	set(d, "source_id", in.SourceID, same[string])
	set(d, "siret_number", in.SiretNumber, same[string])
	set(d, "status", in.Status, func(s model.NetworkPartnerStatus) any { return networkPartnerStatuses[s] })
	set(d, "hide_from_stats", in.HideFromStats, same[bool])
	set(d, "third_party_sales_only", in.ThirdPartySalesOnly, same[bool])
	set(d, "link_to_nv_settings", in.LinkToNvSettings, same[bool])
	set(d, "link_to_ngc_settings", in.LinkToNgcSettings, same[bool])
	if _, ok := in.ReferrerID.ValueOK(); ok {
		d["referrer"] = nil
		if referrer != nil {
			d["referrer"] = recordNumber(*referrer)
		}
	}
	return domain.Doc(d)
}

// commentDoc is the body of a cancel: its optional comment.
func commentDoc(comment graphql.Omittable[*string]) domain.Doc {
	d := adminDoc{}
	set(d, "comment", comment, same[string])
	return domain.Doc(d)
}

// The lookups of the area's Node types (graph/node.go), shared by
// node(id:) and the types' own root fields.

func (r *Resolver) networkGiftcard(ctx context.Context, key string) (*model.NetworkGiftcard, error) {
	id, err := parseID(key)
	if err != nil {
		return nil, err
	}
	return converted(toGraphNetworkGiftcard)(r.NetworkGiftcards.Giftcard(ctx, id))
}

func (r *Resolver) networkGiftcardUsage(ctx context.Context, key string) (*model.NetworkGiftcardUsage, error) {
	id, err := parseID(key)
	if err != nil {
		return nil, err
	}
	return converted(toGraphNetworkUsage)(r.NetworkGiftcards.Usage(ctx, id))
}

func (r *Resolver) networkGiftcardHold(ctx context.Context, key string) (*model.NetworkGiftcardHold, error) {
	id, err := parseID(key)
	if err != nil {
		return nil, err
	}
	return converted(toGraphNetworkHold)(r.NetworkGiftcards.HoldByID(ctx, id))
}

func (r *Resolver) networkGiftcardMovement(ctx context.Context, key string) (*model.NetworkGiftcardMovement, error) {
	id, err := parseID(key)
	if err != nil {
		return nil, err
	}
	return converted(toGraphNetworkMovement)(r.NetworkGiftcards.Movement(ctx, id))
}

func (r *Resolver) networkPartner(ctx context.Context, key string) (*model.NetworkPartner, error) {
	k, ok := parsePartnerKey(key)
	if !ok {
		return nil, domain.ErrNotFound
	}
	return converted(toGraphNetworkPartner)(r.NetworkPartners.NetworkPartner(ctx, k))
}

func (r *Resolver) networkVoucherBox(ctx context.Context, key string) (*model.NetworkVoucherBox, error) {
	id, err := parseID(key)
	if err != nil {
		return nil, err
	}
	return converted(toGraphNetworkBox)(r.NetworkVouchers.Box(ctx, id))
}

func (r *Resolver) networkVoucherBoxOffer(ctx context.Context, key string) (*model.NetworkVoucherBoxOffer, error) {
	id, err := parseID(key)
	if err != nil {
		return nil, err
	}
	o, marketplace, err := r.NetworkVouchers.BoxOffer(ctx, id)
	if err != nil {
		return nil, err
	}
	return toGraphNetworkOffer(o, marketplace), nil
}

func (r *Resolver) networkVoucher(ctx context.Context, code string) (*model.NetworkVoucher, error) {
	return converted(toGraphNetworkVoucher)(r.NetworkVouchers.NetworkVoucherByCode(ctx, code))
}

func (r *Resolver) networkVoucherUsage(ctx context.Context, key string) (*model.NetworkVoucherUsage, error) {
	id, err := parseID(key)
	if err != nil {
		return nil, err
	}
	return converted(toGraphNetworkVoucherUsage)(r.NetworkVouchers.Usage(ctx, id))
}

func networkUsagePayload(u *network.Usage, err error) (*model.NetworkGiftcardUsagePayload, error) {
	out, ue, err := payloadOf(u, err, toGraphNetworkUsage)
	return &model.NetworkGiftcardUsagePayload{Usage: out, UserErrors: ue, Errors: ue}, err
}

func networkHoldPayload(h *network.Hold, err error) (*model.NetworkGiftcardHoldPayload, error) {
	out, ue, err := payloadOf(h, err, toGraphNetworkHold)
	return &model.NetworkGiftcardHoldPayload{Hold: out, UserErrors: ue, Errors: ue}, err
}

func networkPartnerPayload(p *network.NetworkPartner, err error) (*model.NetworkPartnerPayload, error) {
	out, ue, err := payloadOf(p, err, toGraphNetworkPartner)
	return &model.NetworkPartnerPayload{NetworkPartner: out, UserErrors: ue, Errors: ue}, err
}

func networkVoucherUsagePayload(u *network.VoucherUsage, err error) (*model.NetworkVoucherUsagePayload, error) {
	out, ue, err := payloadOf(u, err, toGraphNetworkVoucherUsage)
	return &model.NetworkVoucherUsagePayload{Usage: out, UserErrors: ue, Errors: ue}, err
}
