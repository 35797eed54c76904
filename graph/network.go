package graph

// Converters of the network area (network.graphqls). The mutations' inputs
// are mapped in network_input.go; the service's field errors name the REST
// fields ("partner_source_id"), which errors maps to the input's own
// (partnerSourceId).

import (
	"context"
	"strconv"
	"strings"
	"time"

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

func toGraphNetworkPartner(p *network.Partner) *model.NetworkPartner {
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

func toGraphNetworkBox(b *network.BoxRecord) *model.NetworkVoucherBox {
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

func networkPartnerConnection(w window, page *domain.Page[*network.Partner]) *model.NetworkPartnerConnection {
	edges, info := connect(w, page, func(c string, p *network.Partner) *model.NetworkPartnerEdge {
		return &model.NetworkPartnerEdge{Cursor: c, Node: toGraphNetworkPartner(p)}
	})
	return &model.NetworkPartnerConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

func networkBoxConnection(w window, page *domain.Page[*network.BoxRecord]) *model.NetworkVoucherBoxConnection {
	edges, info := connect(w, page, func(c string, b *network.BoxRecord) *model.NetworkVoucherBoxEdge {
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

func networkPartnerPayload(p *network.Partner, err error) (*model.NetworkPartnerPayload, error) {
	out, ue, err := payloadOf(p, err, toGraphNetworkPartner)
	return &model.NetworkPartnerPayload{NetworkPartner: out, UserErrors: ue, Errors: ue}, err
}

func networkVoucherUsagePayload(u *network.VoucherUsage, err error) (*model.NetworkVoucherUsagePayload, error) {
	out, ue, err := payloadOf(u, err, toGraphNetworkVoucherUsage)
	return &model.NetworkVoucherUsagePayload{Usage: out, UserErrors: ue, Errors: ue}, err
}
