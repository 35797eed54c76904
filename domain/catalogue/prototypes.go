package catalogue

import (
	"context"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/l10n"
)

// VoucherPrototype is a voucher a partner sells, filed under one universe
// and tagged with themes.
type VoucherPrototype struct {
	ID         int64
	PartnerID  int64
	Name       domain.Localized
	UniverseID *int64
	ThemeIDs   []int64
}

// Validity units of a giftcard prototype's validity period.
const (
	ValidityDay   = "day"
	ValidityWeek  = "week"
	ValidityMonth = "month"
	ValidityYear  = "year"
)

// GiftcardPrototype is a partner's giftcard settings: which amounts a buyer
// may choose and how long the giftcard is valid.
type GiftcardPrototype struct {
	ID                int64
	PartnerID         int64
	Title             domain.Localized
	Description       domain.Localized
	TermsOfUse        domain.Localized
	CustomizedAmount  bool // the buyer may type an amount of at least MinimumAmount
	MinimumAmount     decimal.Decimal
	PredefinedAmounts []decimal.Decimal // in display order
	MoneyPotActivated bool
	MoneyPotLogo      string // image URL; "" when there is none
	ValidityPeriod    int
	ValidityUnit      string // ValidityDay, ValidityWeek, ValidityMonth or ValidityYear

	// Read, never written: the owning partner's name and currency.
	PartnerName     string
	PartnerCurrency string
}

// GiftcardPrototypeFilter selects giftcard prototypes.
type GiftcardPrototypeFilter struct {
	// ScopePartnerID's own prototypes are selected.
	ScopePartnerID int64
	// WithNetwork adds the prototypes of ScopePartnerID's network (it is a
	// marketplace): the partners its catalogue lists.
	WithNetwork bool
	// PartnerID, when set, keeps only that partner's prototypes.
	PartnerID *int64
	Page      domain.PageRequest
}

// PrototypeStore reads and writes what PrototypeService serves, and the
// universes and themes prototypes and boxes are filed under.
type PrototypeStore interface {
	PrototypeAdminStore
	// CreateUniverse inserts u and sets its ID.
	CreateUniverse(ctx context.Context, u *Universe) error
	// CreateTheme inserts t and sets its ID.
	CreateTheme(ctx context.Context, t *Theme) error
	// CreateVoucherPrototype inserts p with its theme links (run it in a
	// transaction) and sets its ID.
	CreateVoucherPrototype(ctx context.Context, p *VoucherPrototype) error
	// CreateGiftcardPrototype inserts p and sets its ID, PartnerName and
	// PartnerCurrency.
	CreateGiftcardPrototype(ctx context.Context, p *GiftcardPrototype) error
	// FindPrototypeUniverses returns the universes of the partner's voucher
	// prototypes together with all their ancestors, each once, in no
	// particular order.
	FindPrototypeUniverses(ctx context.Context, partnerID int64) ([]*Universe, error)
	// FindPrototypeThemes returns the distinct themes of the partner's voucher
	// prototypes, by id.
	FindPrototypeThemes(ctx context.Context, partnerID int64) ([]*Theme, error)
	// FindGiftcardPrototypes returns one page of the prototypes f selects, by
	// id, and how many it selects in all.
	FindGiftcardPrototypes(ctx context.Context, f GiftcardPrototypeFilter) ([]*GiftcardPrototype, int, error)
	// FindGiftcardPrototype returns the prototype with that id among those f
	// selects (Page is ignored); ErrNotFound when there is none.
	FindGiftcardPrototype(ctx context.Context, f GiftcardPrototypeFilter, id int64) (*GiftcardPrototype, error)
}

// PrototypeService serves the catalogue's (API v2) giftcard prototypes and
// the universes and themes of a partner's voucher prototypes.
type PrototypeService struct {
	uow domain.UnitOfWork[PrototypeStores]
}

// PrototypeStores are the stores the prototype service reads and writes
// with.
type PrototypeStores struct {
	Prototypes PrototypeStore
	Partners   domain.PartnerStore
}

// NewPrototypeService returns the service.
func NewPrototypeService(uow domain.UnitOfWork[PrototypeStores]) *PrototypeService {
	return &PrototypeService{uow: uow}
}

// Universes returns the tree of the universes of the catalogue partner's
// voucher prototypes, each with its ancestors.
// Errors: those of CatalogPartner.
func (s *PrototypeService) Universes(ctx context.Context) ([]*UniverseNode, error) {
	partner, err := domain.CatalogPartner(ctx, s.uow.Stores().Partners)
	if err != nil {
		return nil, err
	}
	universes, err := s.uow.Stores().Prototypes.FindPrototypeUniverses(ctx, partner.ID)
	if err != nil {
		return nil, err
	}
	return UniverseTree(universes), nil
}

// Themes returns the distinct themes of the catalogue partner's voucher
// prototypes, by id.
// Errors: those of CatalogPartner.
func (s *PrototypeService) Themes(ctx context.Context) ([]*Theme, error) {
	partner, err := domain.CatalogPartner(ctx, s.uow.Stores().Partners)
	if err != nil {
		return nil, err
	}
	return s.uow.Stores().Prototypes.FindPrototypeThemes(ctx, partner.ID)
}

// GiftcardPrototypeView is a giftcard prototype as the catalogue shows it,
// with its amounts formatted in its partner's currency.
type GiftcardPrototypeView struct {
	*GiftcardPrototype
	MinimumAmountFormatted     domain.Localized
	PredefinedAmountsFormatted []domain.Localized
}

// GiftcardPrototypes lists the giftcard prototypes the catalogue partner
// sells, by id: its own and, for a marketplace, those of its network (the
// partners its catalogue lists). partner, the query
// parameter, keeps one partner's; a partner outside that set gives an empty
// list.
// Errors: those of CatalogPartner; CodeInvalid on "partner" when it is not a
// positive integer; CodeNotFound "Invalid page." past the last page.
func (s *PrototypeService) GiftcardPrototypes(ctx context.Context, partner string, page domain.PageRequest) (*domain.Page[*GiftcardPrototypeView], error) {
	scope, err := domain.CatalogPartner(ctx, s.uow.Stores().Partners)
	if err != nil {
		return nil, err
	}
	f := GiftcardPrototypeFilter{ScopePartnerID: scope.ID, WithNetwork: scope.IsMarketplace, Page: page}
	if partner = strings.TrimSpace(partner); partner != "" {
		id, err := strconv.ParseInt(partner, 10, 64)
		if err != nil {
			var v domain.Validator
			v.Add(domain.VInvalid, domain.MsgInteger, "partner")
			return nil, v.Err()
		}
		f.PartnerID = &id // outside the scope (0 and negatives too): nothing listed, as on the other lists
	}
	protos, count, err := s.uow.Stores().Prototypes.FindGiftcardPrototypes(ctx, f)
	if err != nil {
		return nil, err
	}
	views := make([]*GiftcardPrototypeView, len(protos))
	for i, p := range protos {
		views[i] = giftcardPrototypeView(p)
	}
	return domain.NewPage(views, count, page)
}

// GiftcardPrototype returns a giftcard prototype the catalogue partner
// sells (as GiftcardPrototypes selects them) by its id as given in a path.
// Errors: those of CatalogPartner; CodeNotFound when the id is not an
// integer or names no such prototype.
func (s *PrototypeService) GiftcardPrototype(ctx context.Context, id string) (*GiftcardPrototypeView, error) {
	scope, err := domain.CatalogPartner(ctx, s.uow.Stores().Partners)
	if err != nil {
		return nil, err
	}
	protoID, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return nil, domain.ErrNotFound
	}
	p, err := s.uow.Stores().Prototypes.FindGiftcardPrototype(ctx, GiftcardPrototypeFilter{ScopePartnerID: scope.ID, WithNetwork: scope.IsMarketplace}, protoID)
	if err != nil {
		return nil, err
	}
	return giftcardPrototypeView(p), nil
}

func giftcardPrototypeView(p *GiftcardPrototype) *GiftcardPrototypeView {
	v := &GiftcardPrototypeView{
		GiftcardPrototype:          p,
		MinimumAmountFormatted:     domain.Localized(l10n.Money(p.MinimumAmount, p.PartnerCurrency)),
		PredefinedAmountsFormatted: make([]domain.Localized, len(p.PredefinedAmounts)),
	}
	for i, a := range p.PredefinedAmounts {
		v.PredefinedAmountsFormatted[i] = domain.Localized(l10n.Money(a, p.PartnerCurrency))
	}
	return v
}
