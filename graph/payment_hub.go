package graph

// Converters of the payment hub (payment_hub.graphqls). The mutations map
// their input onto the service's, the one REST decodes its body into; its
// field errors name the REST fields ("legal_representative_email"), which
// errors maps to the input's own.

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/mpcart"
	"salesplatform/domain/payments"
	"salesplatform/graph/model"
)

// paymentPartnerStatuses are the statuses of a payment-hub partner, by
// enum value.
var paymentPartnerStatuses = map[model.PaymentPartnerStatus]string{
	model.PaymentPartnerStatusActive:   domain.PartnerStatusActive,
	model.PaymentPartnerStatusInactive: domain.PartnerStatusInactive,
	model.PaymentPartnerStatusTest:     domain.PartnerStatusTest,
}

func paymentPartnerStatus(s string) model.PaymentPartnerStatus {
	return enumOf(paymentPartnerStatuses, s)
}

// codesOf is the domain's codes of enum values, as a REST list filter
// (status__in) takes them: comma-separated.
func codesOf[E ~string](codes map[E]string, values []E) string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = codes[v]
	}
	return strings.Join(out, ",")
}

// enumOf is the enum value of the domain's code s in values (by enum
// value); s in upper case when none has it.
func enumOf[E ~string](values map[E]string, s string) E {
	for k, v := range values {
		if v == s {
			return k
		}
	}
	return E(strings.ToUpper(s))
}

func toGraphPaymentPartner(p *payments.Partner) *model.PaymentPartner {
	out := &model.PaymentPartner{GlobalID: globalID("PaymentPartner", p.UUID.String()), ID: idString(p.ID), UUID: p.UUID,
		Status: paymentPartnerStatus(p.Status), Name: p.Name, CommercialName: p.CommercialName, ShortName: p.ShortName,
		CompanyType: p.CompanyType, SiretNumber: p.SiretNumber, LegalRepresentativeFirstName: p.LegalRepresentativeFirstName,
		LegalRepresentativeLastName: p.LegalRepresentativeLastName, LegalRepresentativeEmail: p.LegalRepresentativeEmail,
		HqAddressLine1: p.HQAddressLine1, HqAddressLine2: p.HQAddressLine2, HqPostalCode: p.HQPostalCode, HqCity: p.HQCity,
		HqCountry: p.HQCountry, Rcs: p.RCS, Ape: p.APE, VatID: p.VATID, AgencyEmail: p.AgencyEmail, AgencyPhone: p.AgencyPhone,
		Website: p.Website, HideFromStats: p.HideFromStats, ThirdPartySalesOnly: p.ThirdPartySalesOnly,
		ReferrerID: optIDString(p.ReferrerID), PayoutFrequency: model.PayoutFrequency(strings.ToUpper(p.PayoutFrequency)),
		AutoValidatePayout: p.AutoValidatePayout, FreezePayout: p.FreezePayout, BlockPayoutValidation: p.BlockPayoutValidation,
		Iban: p.IBAN, Bic: p.BIC, CanTakePayments: p.MayTakePayments()}
	if b := p.LegalRepresentativeBirthday; b != nil {
		day := b.Format(time.DateOnly)
		out.LegalRepresentativeBirthday = &day
	}
	if a := p.Activation; a != nil {
		out.Activation = toGraphActivation(a)
		out.PaymentActivationStatus = &out.Activation.Status
	}
	return out
}

// An activation's dates are in UTC, as REST's.
func toGraphActivation(a *payments.Activation) *model.PaymentActivation {
	return &model.PaymentActivation{UUID: a.ID, Status: model.PaymentActivationStatus(a.Status), PartnerUUID: a.PartnerUUID,
		UserActionURL: a.UserActionURL, CreatedOn: a.CreatedOn.UTC(), CompletedOn: inZone(a.CompletedOn, time.UTC)}
}

func toGraphKYCDocument(d *payments.KYCDocument) *model.KycDocument {
	return &model.KycDocument{GlobalID: numericGlobalID("KycDocument", d.ID), ID: idString(d.ID), PartnerID: idString(d.PartnerID),
		PartnerUUID: d.PartnerUUID, Comment: d.Comment, DocumentType: model.KycDocumentType(d.DocumentType),
		ContentType: d.ContentType, Size: int(d.Size), CreatedOn: d.CreatedOn.UTC()}
}

func toGraphWallet(w *payments.WalletRecord) *model.Wallet {
	out := &model.Wallet{GlobalID: globalID("Wallet", w.UUID.String()), UUID: w.UUID, Kind: model.WalletKind(strings.ToUpper(w.Kind)),
		CurrencyCode: model.CurrencyCode(w.Currency), Balance: w.Balance, PartnerID: optIDString(w.PartnerID)}
	if w.ID != 0 { // a card's wallet that no movement opened has no row yet
		id := idString(w.ID)
		out.ID = &id
		created := w.CreatedAt.UTC()
		out.CreatedOn = &created
	}
	if w.PartnerUUID != nil {
		out.PartnerUUID = w.PartnerUUID.String()
	}
	if w.Card != nil {
		out.CardID = w.Card.ID
	}
	return out
}

func toGraphWalletMovement(m *payments.Movement) *model.WalletMovement {
	return &model.WalletMovement{UUID: m.UUID, CreatedOn: m.CreatedOn.UTC(), Amount: m.Amount,
		CurrencyCode: model.CurrencyCode(m.Currency), Status: model.WalletMovementStatus(strings.ToUpper(m.Status)),
		Type: model.WalletMovementType(strings.ToUpper(m.Type)), PaymentUUID: m.PaymentUUID, DebitedWalletUUID: m.Debited,
		CreditedWalletUUID: m.Credited, Reason: m.Reason}
}

func walletMovementConnection(w window, page *domain.Page[*payments.Movement]) *model.WalletMovementConnection {
	edges, info := connect(w, page, func(c string, m *payments.Movement) *model.WalletMovementEdge {
		return &model.WalletMovementEdge{Cursor: c, Node: toGraphWalletMovement(m)}
	})
	return &model.WalletMovementConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

func toGraphMultiProductCart(c *mpcart.Cart) *model.MultiProductCart {
	out := &model.MultiProductCart{GlobalID: globalID("MultiProductCart", c.ID.String()), ID: c.ID, PartnerUUID: c.PartnerUUID,
		MarketplaceID: idString(c.MarketplaceID), CreatedAt: c.CreatedAt.UTC(), ExpiresAt: c.ExpiresAt.UTC(), PartnerID: c.PartnerID,
		NetworkGiftcards: make([]*model.MultiProductCartGiftcardLine, len(c.Giftcards)),
		NetworkVouchers:  make([]*model.MultiProductCartVoucherLine, len(c.Vouchers))}
	for i, g := range c.Giftcards {
		out.NetworkGiftcards[i] = &model.MultiProductCartGiftcardLine{Amount: g.Amount, Quantity: g.Quantity,
			ThemedPDFID: idString(g.ThemedPDFID)}
	}
	for i, v := range c.Vouchers {
		out.NetworkVouchers[i] = &model.MultiProductCartVoucherLine{BoxID: idString(v.BoxID), Quantity: v.Quantity}
	}
	return out
}

// paymentPartnerUUID reads an input's partnerId of a payment-hub partner:
// its PaymentPartner global id, or its uuid.
// Errors: NOT_FOUND for a global id of another type or a string that is
// neither, as REST answers a path that names no partner.
func paymentPartnerUUID(id string) (uuid.UUID, error) {
	key, err := lookupKey("PaymentPartner", id)
	if err != nil {
		return uuid.Nil, err
	}
	u, err := uuid.Parse(key)
	if err != nil || u.String() != strings.ToLower(key) {
		return uuid.Nil, domain.ErrNotFound
	}
	return u, nil
}

// createPaymentPartnerInput is the creation's input; referrer is the
// record id the input's referrerId names (nil: none given).
func createPaymentPartnerInput(in model.CreatePaymentPartnerInput, referrer *int64) payments.PartnerInput {
	out := payments.PartnerInput{Status: domain.Some(paymentPartnerStatuses[in.Status]),
		CommercialName: domain.Some(in.CommercialName), ShortName: domain.Some(in.ShortName),
		LegalRepresentativeEmail: domain.Some(in.LegalRepresentativeEmail), AgencyEmail: domain.Some(in.AgencyEmail),
		Name: optional(in.Name), SiretNumber: optional(in.SiretNumber),
		LegalRepresentativeFirstName: optional(in.LegalRepresentativeFirstName),
		LegalRepresentativeLastName:  optional(in.LegalRepresentativeLastName),
		HQAddressLine1:               optional(in.HqAddressLine1), HQAddressLine2: optional(in.HqAddressLine2),
		HQPostalCode: optional(in.HqPostalCode), HQCity: optional(in.HqCity), HQCountry: optional(in.HqCountry),
		RCS: optional(in.Rcs), APE: optional(in.Ape), VATID: optional(in.VatID), AgencyPhone: optional(in.AgencyPhone),
		Website: optional(in.Website), IBAN: optional(in.Iban), BIC: optional(in.Bic),
		CompanyType:        optionalOf(in.CompanyType, func(t model.NetworkCompanyType) string { return strings.ToLower(string(t)) }),
		PayoutFrequency:    optionalOf(in.PayoutFrequency, func(f model.PayoutFrequency) string { return strings.ToLower(string(f)) }),
		AutoValidatePayout: optional(in.AutoValidatePayout), FreezePayout: optional(in.FreezePayout),
		BlockPayoutValidation: optional(in.BlockPayoutValidation), HideFromStats: optional(in.HideFromStats),
		ThirdPartySalesOnly: optional(in.ThirdPartySalesOnly), Referrer: domain.FromPtr(referrer)}
	out.LegalRepresentativeBirthday = optDay(in.LegalRepresentativeBirthday, "legal_representative_birthday", &out.Refusals)
	return out
}

// updatePaymentPartnerInput is the update's input; referrer is set when
// the input names one (nil: cleared).
func updatePaymentPartnerInput(in model.UpdatePaymentPartnerInput, referrer *int64) payments.PartnerUpdate {
	out := payments.PartnerUpdate{LegalRepresentativeEmail: optional(in.LegalRepresentativeEmail),
		Status:                optionalOf(in.Status, func(s model.PaymentPartnerStatus) string { return paymentPartnerStatuses[s] }),
		BlockPayoutValidation: optional(in.BlockPayoutValidation), HideFromStats: optional(in.HideFromStats),
		ThirdPartySalesOnly: optional(in.ThirdPartySalesOnly), Reason: optional(in.Reason)}
	out.LegalRepresentativeBirthday = optDay(in.LegalRepresentativeBirthday, "legal_representative_birthday", &out.Refusals)
	if _, ok := in.ReferrerID.ValueOK(); ok {
		out.Referrer = domain.Null[int64]()
		if referrer != nil {
			out.Referrer = domain.Some(*referrer)
		}
	}
	return out
}

// multiProductCartPayload answers createMultiProductCart. userErrors keep
// REST's paths; errors name the input, whose lines are the body's data
// and whose voucher line names its box boxId (REST's id).
func multiProductCartPayload(c *mpcart.Cart, err error) (*model.MultiProductCartPayload, error) {
	out, ue, err := payloadOf(c, err, toGraphMultiProductCart)
	typed := make([]*model.UserError, len(ue))
	for i, e := range ue {
		path := slices.Clone(e.Field)
		if len(path) > 0 && path[0] == "data" {
			path = path[1:]
		}
		if len(path) == 3 && path[0] == "network_vouchers" && path[2] == "id" {
			path[2] = "box_id"
		}
		typed[i] = &model.UserError{Field: path, Code: e.Code, Message: e.Message}
	}
	return &model.MultiProductCartPayload{MultiProductCart: out, UserErrors: ue, Errors: typed}, err
}

func paymentPartnerPayload(p *payments.Partner, err error) (*model.PaymentPartnerPayload, error) {
	out, ue, err := payloadOf(p, err, toGraphPaymentPartner)
	return &model.PaymentPartnerPayload{PaymentPartner: out, UserErrors: ue, Errors: ue}, err
}

// The lookups of the area's Node types (graph/node.go), shared by
// node(id:) and the types' own root fields.

func (r *Resolver) paymentPartner(ctx context.Context, id uuid.UUID) (*model.PaymentPartner, error) {
	return converted(toGraphPaymentPartner)(r.PaymentPartners.GetPartner(ctx, id))
}

func (r *Resolver) kycDocument(ctx context.Context, key string) (*model.KycDocument, error) {
	id, err := parseID(key)
	if err != nil {
		return nil, err
	}
	return converted(toGraphKYCDocument)(r.PaymentPartners.KYCDocument(ctx, id))
}

func (r *Resolver) wallet(ctx context.Context, id uuid.UUID) (*model.Wallet, error) {
	return converted(toGraphWallet)(r.Wallets.Wallet(ctx, id))
}

func (r *Resolver) multiProductCart(ctx context.Context, key string) (*model.MultiProductCart, error) {
	return converted(toGraphMultiProductCart)(r.MultiProductCarts.Cart(ctx, key))
}

// relatedPaymentPartner is a relation to a payment-hub partner: null, not
// an error, when the caller does not see it.
func (r *Resolver) relatedPaymentPartner(ctx context.Context, id uuid.UUID) (*model.PaymentPartner, error) {
	p, err := loadersFrom(ctx).paymentPartners.Load(ctx, id)
	if err != nil || p == nil {
		return nil, err
	}
	return toGraphPaymentPartner(p), nil
}
