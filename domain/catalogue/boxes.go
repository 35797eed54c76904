package catalogue

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/l10n"
)

// Box is a network voucher box: a marketplace's product whose vouchers are
// used at the partners that offer in it (box offers).
type Box struct {
	ID                     int64
	MarketplaceID          int64
	Name                   domain.Localized
	ShortDescription       domain.Localized
	LongDescription        domain.Localized
	IsActive               bool
	IsHighlight            bool
	DisplayNbOffers        bool // whether sites show NbOffers
	Price                  decimal.Decimal
	Ranking                int // display priority: lower first
	PeopleIncluded         int
	MaxNumberUsages        int
	MaxDaysAfterFirstUsage int
	UniverseIDs            []int64  // ascending
	Images                 []string // image URLs, in display order
	// NbOffers is read, never written: the number of the box's offers with
	// status BoxOfferStatusValidated.
	NbOffers int
	// Offers are read along with a list's boxes when it asks
	// (BoxFilter.Offers): the window of the box's validated offers, by id.
	Offers []*BoxOffer
}

// Box offer statuses. Only validated offers are live: they count in a box's
// nb_offers and name the partners a network voucher can be used at.
const (
	BoxOfferStatusDraft     = "DRAFT"
	BoxOfferStatusValidated = "VALIDATED"
)

// BoxOffer is a partner's offer in a box.
type BoxOffer struct {
	ID        int64
	BoxID     int64
	PartnerID int64
	Status    string
	// Partner is its partner's listing as PartnerNamesByID answers it,
	// when a list read it along (BoxList.OfferPartners); nil otherwise, or
	// when the catalogue does not list that partner.
	Partner *PartnerListing
}

// BoxOrder is one key of a box list's order.
type BoxOrder struct {
	Field string // one of BoxOrderFields
	Desc  bool
}

// BoxOrderFields are the values network_vouchers_boxes_list's ordering
// accepts, each optionally prefixed with "-" for descending.
var BoxOrderFields = []string{"id", "ranking", "price"}

// DefaultBoxOrder is the order of a box list without ordering.
var DefaultBoxOrder = []BoxOrder{{Field: "ranking"}, {Field: "id"}}

// ParseBoxOrdering reads an ordering's terms: fields of BoxOrderFields,
// "-" for descending; the first term of a field wins. None means
// DefaultBoxOrder; id is appended as the last key when absent so that
// pages are stable.
// Errors: CodeInvalid on "ordering" for any other term.
func ParseBoxOrdering(terms []string) ([]BoxOrder, error) {
	var order []BoxOrder
	seen := map[string]bool{}
	for _, term := range terms {
		o := BoxOrder{Field: strings.TrimPrefix(term, "-"), Desc: strings.HasPrefix(term, "-")}
		if !isBoxOrderField(o.Field) {
			var v domain.Validator
			v.Add(domain.VInvalid, fmt.Sprintf("Select a valid choice. %s is not one of the available choices.", term), "ordering")
			return nil, v.Err()
		}
		if !seen[o.Field] {
			seen[o.Field] = true
			order = append(order, o)
		}
	}
	if len(order) == 0 {
		return DefaultBoxOrder, nil
	}
	if !seen["id"] {
		order = append(order, BoxOrder{Field: "id"})
	}
	return order, nil
}

func isBoxOrderField(f string) bool {
	for _, ok := range BoxOrderFields {
		if f == ok {
			return true
		}
	}
	return false
}

// BoxFilter selects the boxes of one marketplace.
type BoxFilter struct {
	MarketplaceID int64
	ActiveOnly    bool
	Order         []BoxOrder // FindBoxes only; never empty there
	Page          domain.PageRequest
	Texts         BoxTexts // FindBoxes only: the descriptions it reads
	// Offers, when set, has FindBoxes read each box's validated offers in
	// this window (Box.Offers) in the boxes' own statement.
	Offers *domain.PageRequest
	// OfferPartners, with Offers, has each offer read along carry its
	// partner's listing without profile (BoxOffer.Partner) when one of
	// these filters selects the partner (catalogueScopes).
	OfferPartners []PartnerFilter
}

// BoxTexts are the descriptions a list of boxes reads, each in every
// language: a reader that shows neither need not pay for them. An unread
// description is nil.
type BoxTexts uint8

// The descriptions of BoxTexts.
const (
	BoxShortDescription BoxTexts = 1 << iota
	BoxLongDescription
)

// BoxStore reads and writes what BoxService serves.
type BoxStore interface {
	BoxAdminStore
	// CreateBox inserts b with its universe links and images and sets its ID.
	CreateBox(ctx context.Context, b *Box) error
	// CreateBoxOffer inserts o and sets its ID.
	CreateBoxOffer(ctx context.Context, o *BoxOffer) error
	// FindBoxes returns one page of the boxes f selects, in f.Order, and how
	// many boxes it selects in all, with the descriptions f.Texts names.
	// Images are not loaded.
	FindBoxes(ctx context.Context, f BoxFilter) ([]*Box, int, error)
	// FindBox returns the box with that id among those f selects (Order and
	// Page are ignored), with its images; ErrNotFound when there is none.
	FindBox(ctx context.Context, f BoxFilter, id int64) (*Box, error)
	// FindBoxUniverses returns the universes linked to the boxes f selects
	// together with all their ancestors, each once, in no particular order.
	FindBoxUniverses(ctx context.Context, f BoxFilter) ([]*Universe, error)
	// UniversesByID returns the universes in ids order, nil when missing.
	UniversesByID(ctx context.Context, ids []int64) ([]*Universe, error)
	// FindBoxOffers returns the window f.Page of the offers of each box of
	// f.BoxIDs that f.Boxes selects, by box then offer id, and how many
	// offers each such box has: a batch read.
	FindBoxOffers(ctx context.Context, f BoxOfferFilter) ([]*BoxOffer, map[int64]int, error)
	// FindBoxImages returns the image URLs of each box of ids that f selects
	// (Order and Page are ignored), in display order: a batch read.
	FindBoxImages(ctx context.Context, f BoxFilter, ids []int64) (map[int64][]string, error)
}

// BoxOfferFilter selects the offers of some boxes, a page of each.
type BoxOfferFilter struct {
	Boxes  BoxFilter // the boxes whose offers may be read; Order and Page are ignored
	BoxIDs []int64
	Status string             // only offers with this status
	Page   domain.PageRequest // the window of each box's offers, by id
}

// BoxService serves the network voucher boxes of the public catalogue (API
// v2). Boxes belong to marketplaces: a catalogue whose partner is not a
// marketplace has none. Inactive boxes are not shown.
type BoxService struct {
	uow domain.UnitOfWork[BoxStores]
}

// BoxStores are the stores the box service reads and writes with.
type BoxStores struct {
	Boxes    BoxStore
	Partners domain.PartnerStore
}

// NewBoxService returns the service.
func NewBoxService(uow domain.UnitOfWork[BoxStores]) *BoxService {
	return &BoxService{uow: uow}
}

// BoxView is a box as the catalogue shows it, priced in the marketplace's
// currency.
type BoxView struct {
	*Box
	CurrencyCode string
	// Offers is the page of its offers BoxOffers would answer, when the
	// list was asked to read them along (BoxList.Offers); nil otherwise.
	Offers *domain.Page[*BoxOffer]
}

// BoxList is a list of boxes as Boxes reads it.
type BoxList struct {
	Ordering []string // the ordering's terms, as ParseBoxOrdering reads them
	Page     domain.PageRequest
	Texts    BoxTexts // the descriptions to read
	// Offers, when set, reads each box's page of validated offers along
	// with the boxes, in their statement (BoxView.Offers): a reader that
	// shows them saves BoxOffers' round trip.
	Offers *domain.PageRequest
	// OfferPartners, with Offers, also reads each offer's partner as
	// PartnerNamesByID would (BoxOffer.Partner), in the same statement: a
	// reader that shows the partners' names and labels saves that round
	// trip too.
	OfferPartners bool
}

// PriceFormatted is the price as each language writes it, formatted when
// asked: a reader that asks for one language (the graph) need not pay for
// the others.
func (v *BoxView) PriceFormatted() domain.Localized {
	return domain.Localized(l10n.Money(v.Price, v.CurrencyCode))
}

// Boxes lists the active boxes of the catalogue's marketplace as l asks.
// Errors: those of CatalogPartner; CodeInvalid on "ordering"; CodeNotFound
// "Invalid page." past the last page.
func (s *BoxService) Boxes(ctx context.Context, l BoxList) (*domain.Page[*BoxView], error) {
	page := l.Page
	marketplace, err := domain.CatalogPartner(ctx, s.uow.Stores().Partners)
	if err != nil {
		return nil, err
	}
	order, err := ParseBoxOrdering(l.Ordering)
	if err != nil {
		return nil, err
	}
	if !marketplace.IsMarketplace {
		return domain.NewPage([]*BoxView{}, 0, page)
	}
	f := BoxFilter{MarketplaceID: marketplace.ID, ActiveOnly: true, Order: order, Page: page, Texts: l.Texts, Offers: l.Offers}
	if l.Offers != nil && l.OfferPartners {
		f.OfferPartners = catalogueScopes(marketplace, true)
	}
	boxes, count, err := s.uow.Stores().Boxes.FindBoxes(ctx, f)
	if err != nil {
		return nil, err
	}
	views := make([]*BoxView, len(boxes))
	for i, b := range boxes {
		views[i] = boxView(b, marketplace)
		if l.Offers != nil {
			// BoxOffers' page: the count of a box's validated offers is
			// its NbOffers.
			views[i].Offers = &domain.Page[*BoxOffer]{Items: b.Offers, Count: b.NbOffers, Request: *l.Offers}
			if b.Offers == nil {
				views[i].Offers.Items = []*BoxOffer{}
			}
		}
	}
	return domain.NewPage(views, count, page)
}

// Box returns an active box of the catalogue's marketplace by its id as
// given in a path.
// Errors: those of CatalogPartner; CodeNotFound when the id is not an
// integer or names no active box of the marketplace.
func (s *BoxService) Box(ctx context.Context, id string) (*BoxView, error) {
	marketplace, err := domain.CatalogPartner(ctx, s.uow.Stores().Partners)
	if err != nil {
		return nil, err
	}
	boxID, err := strconv.ParseInt(id, 10, 64)
	if err != nil || !marketplace.IsMarketplace {
		return nil, domain.ErrNotFound
	}
	b, err := s.uow.Stores().Boxes.FindBox(ctx, BoxFilter{MarketplaceID: marketplace.ID, ActiveOnly: true}, boxID)
	if err != nil {
		return nil, err
	}
	return boxView(b, marketplace), nil
}

// BoxUniverses returns the tree of the universes the active boxes of the
// catalogue's marketplace are filed under: each linked universe with its
// ancestors. Universes no box is linked to, below or beside them, are not
// shown.
// Errors: those of CatalogPartner.
func (s *BoxService) BoxUniverses(ctx context.Context) ([]*UniverseNode, error) {
	marketplace, err := domain.CatalogPartner(ctx, s.uow.Stores().Partners)
	if err != nil {
		return nil, err
	}
	if !marketplace.IsMarketplace {
		return []*UniverseNode{}, nil
	}
	universes, err := s.uow.Stores().Boxes.FindBoxUniverses(ctx, BoxFilter{MarketplaceID: marketplace.ID, ActiveOnly: true})
	if err != nil {
		return nil, err
	}
	return UniverseTree(universes), nil
}

// UniversesByID returns universes (a shared list) in ids order, nil when
// missing: the graph's Box.universes batch, open to whoever reads the
// catalogue.
// Errors: those of CatalogPartner.
func (s *BoxService) UniversesByID(ctx context.Context, ids []int64) ([]*Universe, error) {
	if _, err := domain.CatalogPartner(ctx, s.uow.Stores().Partners); err != nil {
		return nil, err
	}
	return s.uow.Stores().Boxes.UniversesByID(ctx, ids)
}

// BoxOffers returns, for each box id in order, the page of its validated
// offers (the ones nb_offers counts), by id. A box that is not an active box
// of the catalogue's marketplace has none. A batch read: one statement for
// all the boxes.
// Errors: those of CatalogPartner.
func (s *BoxService) BoxOffers(ctx context.Context, boxIDs []int64, page domain.PageRequest) ([]*domain.Page[*BoxOffer], error) {
	marketplace, err := domain.CatalogPartner(ctx, s.uow.Stores().Partners)
	if err != nil {
		return nil, err
	}
	if !marketplace.IsMarketplace {
		return domain.PagesByParent(boxIDs, page, nil, boxOfferBox, nil), nil
	}
	offers, counts, err := s.uow.Stores().Boxes.FindBoxOffers(ctx, BoxOfferFilter{
		Boxes:  BoxFilter{MarketplaceID: marketplace.ID, ActiveOnly: true},
		BoxIDs: boxIDs, Status: BoxOfferStatusValidated, Page: page})
	if err != nil {
		return nil, err
	}
	return domain.PagesByParent(boxIDs, page, offers, boxOfferBox, counts), nil
}

func boxOfferBox(o *BoxOffer) int64 { return o.BoxID }

// BoxOffer returns one of the offers BoxOffers lists, by its id as given:
// a validated offer of an active box of the catalogue's marketplace.
// Errors: those of CatalogPartner; CodeNotFound for any other id.
func (s *BoxService) BoxOffer(ctx context.Context, id string) (*BoxOffer, error) {
	marketplace, err := domain.CatalogPartner(ctx, s.uow.Stores().Partners)
	if err != nil {
		return nil, err
	}
	offerID, err := strconv.ParseInt(id, 10, 64)
	if err != nil || !marketplace.IsMarketplace {
		return nil, domain.ErrNotFound
	}
	st := s.uow.Stores().Boxes
	o, err := st.GetBoxOffer(ctx, offerID)
	if err != nil {
		return nil, err
	}
	if o.Status != BoxOfferStatusValidated {
		return nil, domain.ErrNotFound
	}
	if _, err := st.FindBox(ctx, BoxFilter{MarketplaceID: marketplace.ID, ActiveOnly: true}, o.BoxID); err != nil {
		return nil, err
	}
	return o, nil
}

// BoxImages returns, for each box id in order, its image URLs in display
// order; none for a box that is not an active box of the catalogue's
// marketplace. A batch read: one statement for all the boxes.
// Errors: those of CatalogPartner.
func (s *BoxService) BoxImages(ctx context.Context, boxIDs []int64) ([][]string, error) {
	marketplace, err := domain.CatalogPartner(ctx, s.uow.Stores().Partners)
	if err != nil {
		return nil, err
	}
	var images map[int64][]string
	if marketplace.IsMarketplace {
		images, err = s.uow.Stores().Boxes.FindBoxImages(ctx, BoxFilter{MarketplaceID: marketplace.ID, ActiveOnly: true}, boxIDs)
		if err != nil {
			return nil, err
		}
	}
	out := make([][]string, len(boxIDs))
	for i, id := range boxIDs {
		out[i] = images[id]
		if out[i] == nil {
			out[i] = []string{}
		}
	}
	return out, nil
}

func boxView(b *Box, marketplace *domain.Partner) *BoxView {
	return &BoxView{Box: b, CurrencyCode: marketplace.Currency}
}
