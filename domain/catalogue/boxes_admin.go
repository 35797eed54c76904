package catalogue

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"salesplatform/domain"
)

// Box administration: a marketplace (or staff for it) writes its network
// voucher boxes and reviews the offers its network partners propose in
// them. See admin.go for the shared rules.

// BoxOfferStatusRefused is an offer the marketplace turned down (or
// withdrew); the partner may propose it again.
const BoxOfferStatusRefused = "REFUSED"

// Box offer decisions of the marketplace.
const (
	BoxOfferValidate = "VALIDATE"
	BoxOfferRefuse   = "REFUSE"
	// BoxOfferPropose is the partner's (re-)proposal.
	BoxOfferPropose = "PROPOSE"
)

// BoxInput creates or changes a box; Name and Price are required on
// create. A non-nil UniverseIDs or Images replaces the links or images.
type BoxInput struct {
	PartnerID              *int64 // create only: the marketplace, for staff
	Name                   []domain.TextInput
	ShortDescription       []domain.TextInput
	LongDescription        []domain.TextInput
	IsActive               *bool
	IsHighlight            *bool
	DisplayNbOffers        *bool
	Price                  *string
	Ranking                *int
	PeopleIncluded         *int
	MaxNumberUsages        *int
	MaxDaysAfterFirstUsage *int
	UniverseIDs            []int64
	Images                 []string
}

// BoxAdminStore is what the box administration writes with.
type BoxAdminStore interface {
	// GetBox returns the box with that id, active or not, whoever owns it,
	// with its universe ids and images; ErrNotFound when there is none.
	GetBox(ctx context.Context, id int64) (*Box, error)
	// UpdateBox writes b's columns and replaces its universe links and
	// images when they are not nil: one transaction.
	UpdateBox(ctx context.Context, b *Box) error
	// MissingUniverses returns the ids among ids that name no universe.
	MissingUniverses(ctx context.Context, ids []int64) ([]int64, error)
	// GetBoxOffer returns the offer; ErrNotFound when none.
	GetBoxOffer(ctx context.Context, id int64) (*BoxOffer, error)
	// FindBoxOfferOf returns the partner's offer in the box; ErrNotFound
	// when it has none.
	FindBoxOfferOf(ctx context.Context, boxID, partnerID int64) (*BoxOffer, error)
	// SetBoxOfferStatus moves the offer from status from to status to; it
	// reports false when the offer no longer has status from.
	SetBoxOfferStatus(ctx context.Context, id int64, from, to string) (bool, error)
	// InNetwork reports whether the partner is in the marketplace's network.
	InNetwork(ctx context.Context, marketplaceID, partnerID int64) (bool, error)
	// FindManagedBoxOffers returns a page of the offers in the
	// marketplace's boxes (active or not), by id, of box boxID when set, of
	// status when not "", and how many there are.
	FindManagedBoxOffers(ctx context.Context, marketplaceID int64, boxID *int64, status string, page domain.PageRequest) ([]*BoxOffer, int, error)
}

// NextBoxOfferStatus is the status an offer in status current takes on
// action: a proposal is a draft (again, after a refusal); the marketplace
// validates or refuses a draft, may refuse (withdraw) a validated offer
// and may reverse a refusal.
// Errors: CodeInvalid (VInvalidState on "status") for any other move.
func NextBoxOfferStatus(current, action string) (string, error) {
	next := map[[2]string]string{
		{"", BoxOfferPropose}:                     BoxOfferStatusDraft,
		{BoxOfferStatusRefused, BoxOfferPropose}:  BoxOfferStatusDraft,
		{BoxOfferStatusDraft, BoxOfferValidate}:   BoxOfferStatusValidated,
		{BoxOfferStatusDraft, BoxOfferRefuse}:     BoxOfferStatusRefused,
		{BoxOfferStatusValidated, BoxOfferRefuse}: BoxOfferStatusRefused,
		{BoxOfferStatusRefused, BoxOfferValidate}: BoxOfferStatusValidated,
	}[[2]string{current, action}]
	if next == "" {
		var v domain.Validator
		msg := fmt.Sprintf("An offer with status %s cannot be %s.", current, pastTense(action))
		if current == "" {
			msg = fmt.Sprintf("There is no offer to %s.", strings.ToLower(action))
		}
		v.Add(domain.VInvalidState, msg, "status")
		return "", v.Err()
	}
	return next, nil
}

func pastTense(action string) string {
	switch action {
	case BoxOfferValidate:
		return "validated"
	case BoxOfferRefuse:
		return "refused"
	}
	return "proposed again"
}

// marketplacePartner is adminPartner for marketplace-only operations.
// Errors: those of adminPartner; CodeForbidden when the partner is not a
// marketplace.
func marketplacePartner(ctx context.Context, partners domain.PartnerStore, partnerID *int64) (*domain.Partner, error) {
	p, _, err := domain.AdminPartner(ctx, partners, partnerID)
	if err != nil {
		return nil, err
	}
	if !p.IsMarketplace {
		return nil, &domain.Error{Code: domain.CodeForbidden, Message: domain.MsgMarketplaceOnly}
	}
	return p, nil
}

// managedMarketplace returns the marketplace ownerID when the caller may
// manage its boxes: the marketplace itself, or staff.
// Errors: those of Authorize(OpCatalogueWrite); CodeForbidden for a
// caller whose partner is not a marketplace; CodeNotFound for another
// marketplace's.
func managedMarketplace(ctx context.Context, partners domain.PartnerStore, ownerID int64) (*domain.Partner, error) {
	c, err := domain.Authorize(ctx, domain.OpCatalogueWrite)
	if err != nil {
		return nil, err
	}
	if !c.User.IsStaff && (c.Partner == nil || !c.Partner.IsMarketplace) {
		return nil, &domain.Error{Code: domain.CodeForbidden, Message: domain.MsgMarketplaceOnly}
	}
	return domain.OwnerPartner(ctx, partners, ownerID)
}

func (in *BoxInput) apply(v *domain.Validator, b *Box) {
	create := b.ID == 0
	b.Name = v.OptLocalized(in.Name, b.Name, domain.MaxNameLength, create || in.Name != nil, "name")
	b.ShortDescription = v.OptLocalized(in.ShortDescription, b.ShortDescription, domain.MaxDescriptionLength, false, "shortDescription")
	b.LongDescription = v.OptLocalized(in.LongDescription, b.LongDescription, domain.MaxDescriptionLength, false, "longDescription")
	b.IsActive = domain.Pick(in.IsActive, b.IsActive)
	b.IsHighlight = domain.Pick(in.IsHighlight, b.IsHighlight)
	b.DisplayNbOffers = domain.Pick(in.DisplayNbOffers, b.DisplayNbOffers)
	if create && in.Price == nil {
		v.Add(domain.VRequired, domain.MsgRequired, "price")
	}
	b.Price = v.OptMoney(in.Price, b.Price, "price")
	b.Ranking = v.OptInt(in.Ranking, b.Ranking, "ranking")
	b.PeopleIncluded = v.OptInt(in.PeopleIncluded, b.PeopleIncluded, "peopleIncluded")
	b.MaxNumberUsages = v.OptInt(in.MaxNumberUsages, b.MaxNumberUsages, "maxNumberUsages")
	b.MaxDaysAfterFirstUsage = v.OptInt(in.MaxDaysAfterFirstUsage, b.MaxDaysAfterFirstUsage, "maxDaysAfterFirstUsage")
	b.Images = v.ImageURLs(in.Images, b.Images, "images")
	if !create && in.Images == nil {
		b.Images = nil // keep the stored images
	}
	b.UniverseIDs = in.UniverseIDs
}

func checkUniverses(ctx context.Context, tx BoxStores, v *domain.Validator, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	missing, err := tx.Boxes.MissingUniverses(ctx, ids)
	if err != nil {
		return err
	}
	for i, id := range ids {
		if slices.Contains(missing, id) {
			v.Add(domain.VNotFound, fmt.Sprintf(MsgNoSuchRecord, id), "universeIds", i)
		}
	}
	return nil
}

// applyBox applies in to b, checks its universes through tx and, with
// every field right, writes it with write.
func applyBox(ctx context.Context, tx BoxStores, in *BoxInput, b *Box, write func(context.Context, *Box) error) error {
	var v domain.Validator
	in.apply(&v, b)
	if err := checkUniverses(ctx, tx, &v, in.UniverseIDs); err != nil {
		return err
	}
	if err := v.Err(); err != nil {
		return err
	}
	return write(ctx, b)
}

// CreateBox creates a box of the caller's marketplace (staff: of
// in.PartnerID, a marketplace), with its universes and images in one
// transaction.
// Errors: those of marketplacePartner; CodeInvalid with every field error.
func (s *BoxService) CreateBox(ctx context.Context, in BoxInput) (*BoxView, error) {
	m, err := marketplacePartner(ctx, s.uow.Stores().Partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	b := &Box{MarketplaceID: m.ID, Ranking: 1, PeopleIncluded: 1, MaxNumberUsages: 1}
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx BoxStores) error {
		return applyBox(ctx, tx, &in, b, tx.Boxes.CreateBox)
	})
	if err != nil {
		return nil, err
	}
	return s.adminBoxView(ctx, m, b.ID)
}

// UpdateBox changes a box of the caller's marketplace.
// Errors: those of managedMarketplace; CodeNotFound for an unknown box;
// CodeInvalid with every field error.
func (s *BoxService) UpdateBox(ctx context.Context, id int64, in BoxInput) (*BoxView, error) {
	if _, err := domain.Authorize(ctx, domain.OpCatalogueWrite); err != nil {
		return nil, err
	}
	var m *domain.Partner
	var b *Box
	err := s.uow.RunInTx(ctx, func(ctx context.Context, tx BoxStores) error {
		var err error
		if b, err = tx.Boxes.GetBox(ctx, id); err != nil {
			return err
		}
		if m, err = managedMarketplace(ctx, tx.Partners, b.MarketplaceID); err != nil {
			return err
		}
		return applyBox(ctx, tx, &in, b, tx.Boxes.UpdateBox)
	})
	if err != nil {
		return nil, err
	}
	return s.adminBoxView(ctx, m, b.ID)
}

// ManagedBoxes lists the boxes of the caller's marketplace (staff:
// partnerID's), active or not, by ranking then id, with their images: what
// the marketplace manages, where the catalogue shows only active boxes.
// Errors: those of marketplacePartner; CodeNotFound "Invalid page." past
// the end.
func (s *BoxService) ManagedBoxes(ctx context.Context, partnerID *int64, page domain.PageRequest) (*domain.Page[*BoxView], error) {
	m, err := marketplacePartner(ctx, s.uow.Stores().Partners, partnerID)
	if err != nil {
		return nil, err
	}
	f := BoxFilter{MarketplaceID: m.ID, Order: DefaultBoxOrder, Page: page}
	boxes, count, err := s.uow.Stores().Boxes.FindBoxes(ctx, f)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(boxes))
	for i, b := range boxes {
		ids[i] = b.ID
	}
	images, err := s.uow.Stores().Boxes.FindBoxImages(ctx, f, ids)
	if err != nil {
		return nil, err
	}
	views := make([]*BoxView, len(boxes))
	for i, b := range boxes {
		b.Images = images[b.ID]
		if b.Images == nil {
			b.Images = []string{}
		}
		views[i] = boxView(b, m)
	}
	return domain.NewPage(views, count, page)
}

// ManagedBoxOffers lists the offers in the boxes of the caller's
// marketplace (staff: partnerID's), by id: those of box boxID when set,
// those of status when set (DRAFT: the proposals to review).
// Errors: those of marketplacePartner; CodeInvalid on "status" for an
// unknown status; CodeNotFound "Invalid page." past the end.
func (s *BoxService) ManagedBoxOffers(ctx context.Context, partnerID, boxID *int64, status string, page domain.PageRequest) (*domain.Page[*BoxOffer], error) {
	m, err := marketplacePartner(ctx, s.uow.Stores().Partners, partnerID)
	if err != nil {
		return nil, err
	}
	switch status {
	case "", BoxOfferStatusDraft, BoxOfferStatusValidated, BoxOfferStatusRefused:
	default:
		var v domain.Validator
		v.Add(domain.VInvalid, fmt.Sprintf("%q is not a valid choice.", status), "status")
		return nil, v.Err()
	}
	offers, count, err := s.uow.Stores().Boxes.FindManagedBoxOffers(ctx, m.ID, boxID, status, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(offers, count, page)
}

func (s *BoxService) adminBoxView(ctx context.Context, m *domain.Partner, id int64) (*BoxView, error) {
	b, err := s.uow.Stores().Boxes.GetBox(ctx, id)
	if err != nil {
		return nil, err
	}
	return boxView(b, m), nil
}

// ProposeBoxOffer proposes the caller's partner (staff: partnerID's) in a
// box of a marketplace whose network it is in: a draft, which the
// marketplace reviews. A refused offer may be proposed again.
// Errors: those of adminPartner; CodeNotFound for a box of a marketplace
// whose network the partner is not in; CodeInvalid (VInvalidState) when
// the partner already has a draft or validated offer in the box.
func (s *BoxService) ProposeBoxOffer(ctx context.Context, boxID int64, partnerID *int64) (*BoxOffer, error) {
	p, _, err := domain.AdminPartner(ctx, s.uow.Stores().Partners, partnerID)
	if err != nil {
		return nil, err
	}
	b, err := s.uow.Stores().Boxes.GetBox(ctx, boxID)
	if err != nil {
		return nil, err
	}
	in, err := s.uow.Stores().Boxes.InNetwork(ctx, b.MarketplaceID, p.ID)
	if err != nil {
		return nil, err
	}
	if !in {
		return nil, domain.ErrNotFound
	}
	o, err := s.uow.Stores().Boxes.FindBoxOfferOf(ctx, b.ID, p.ID)
	switch {
	case domain.IsCode(err, domain.CodeNotFound):
		o = &BoxOffer{BoxID: b.ID, PartnerID: p.ID}
	case err != nil:
		return nil, err
	}
	next, err := NextBoxOfferStatus(o.Status, BoxOfferPropose)
	if err != nil {
		return nil, err
	}
	if o.ID == 0 {
		o.Status = next
		if err := s.uow.Stores().Boxes.CreateBoxOffer(ctx, o); err != nil {
			return nil, err
		}
		return o, nil
	}
	return s.moveBoxOffer(ctx, o, next)
}

// ReviewBoxOffer validates or refuses (decision BoxOfferValidate or
// BoxOfferRefuse) an offer in a box of the caller's marketplace; staff
// review any.
// Errors: those of managedMarketplace; CodeNotFound for an unknown offer;
// CodeInvalid (VInvalidState on "status") for a move NextBoxOfferStatus
// refuses, or when the offer changed meanwhile.
func (s *BoxService) ReviewBoxOffer(ctx context.Context, id int64, decision string) (*BoxOffer, error) {
	if _, err := domain.Authorize(ctx, domain.OpCatalogueWrite); err != nil {
		return nil, err
	}
	o, err := s.uow.Stores().Boxes.GetBoxOffer(ctx, id)
	if err != nil {
		return nil, err
	}
	b, err := s.uow.Stores().Boxes.GetBox(ctx, o.BoxID)
	if err != nil {
		return nil, err
	}
	if _, err := managedMarketplace(ctx, s.uow.Stores().Partners, b.MarketplaceID); err != nil {
		return nil, err
	}
	if decision != BoxOfferValidate && decision != BoxOfferRefuse {
		var v domain.Validator
		v.Add(domain.VInvalid, fmt.Sprintf(domain.MsgLanguageChoice, decision), "decision")
		return nil, v.Err()
	}
	next, err := NextBoxOfferStatus(o.Status, decision)
	if err != nil {
		return nil, err
	}
	return s.moveBoxOffer(ctx, o, next)
}

// moveBoxOffer sets the offer's status if no one changed it since it was
// read.
func (s *BoxService) moveBoxOffer(ctx context.Context, o *BoxOffer, next string) (*BoxOffer, error) {
	ok, err := s.uow.Stores().Boxes.SetBoxOfferStatus(ctx, o.ID, o.Status, next)
	if err != nil {
		return nil, err
	}
	if !ok {
		var v domain.Validator
		v.Add(domain.VInvalidState, "The offer changed meanwhile; read it again.", "status")
		return nil, v.Err()
	}
	o.Status = next
	return o, nil
}
