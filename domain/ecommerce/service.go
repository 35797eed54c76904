package ecommerce

import (
	"context"

	"salesplatform/domain"
)

// Service is the partner's e-commerce catalogue: its products (with
// variants and attributes) and its delivery settings, written by the
// partner, read by its shop's pages. REST and graph call the same methods.
type Service struct {
	uow      domain.UnitOfWork[Stores]
	partners domain.PartnerStore
}

// NewService returns the service; partners finds the partner an
// X-Partner-Domain names (domain.CatalogPartner).
func NewService(uow domain.UnitOfWork[Stores], partners domain.PartnerStore) *Service {
	return &Service{uow: uow, partners: partners}
}

// ProductListInput filters a product list: active (true or false; absent
// lists both where the caller may see inactive products).
type ProductListInput struct {
	domain.Refusals
	Active domain.Optional[bool]
}

// shopScope is whose products a read shows, and whether the inactive
// ones: a member of the partner read (authorized for OpEcommerceRead)
// sees them all; anyone else, with or without a token, the active ones.
func (s *Service) shopScope(ctx context.Context) (partnerID int64, all bool, err error) {
	p, err := domain.CatalogPartner(ctx, s.partners)
	if err != nil {
		return 0, false, err
	}
	if c, _ := domain.CallerFrom(ctx); c != nil && c.Partner != nil && c.Partner.ID == p.ID {
		if _, err := domain.Authorize(ctx, domain.OpEcommerceRead); err == nil {
			return p.ID, true, nil
		}
	}
	return p.ID, false, nil
}

// Products returns a page of the shop's products, newest first: the
// partner X-Partner-Domain names, else the caller's partner
// (domain.CatalogPartner). The partner's own members see inactive
// products too and may filter on active; others see only active ones.
// Errors: those of domain.CatalogPartner; CodeNotFound "Invalid page."
// past the end.
func (s *Service) Products(ctx context.Context, in ProductListInput, page domain.PageRequest) (*domain.Page[*Product], error) {
	partnerID, all, err := s.shopScope(ctx)
	if err != nil {
		return nil, err
	}
	v := in.Validator()
	active := domain.Fields{V: v}.Bool("active", in.Active)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if !all {
		yes := true
		if active != nil && !*active {
			return domain.NewPage([]*Product{}, 0, page)
		}
		active = &yes
	}
	items, count, err := s.uow.Stores().Products.Products(ctx, ProductFilter{PartnerID: partnerID, Active: active}, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(items, count, page)
}

// Product returns one product of the shop (Products' scope and rule).
// Errors: those of domain.CatalogPartner; CodeNotFound for an unknown,
// foreign, or (to others than the partner's members) inactive product.
func (s *Service) Product(ctx context.Context, id int64) (*Product, error) {
	partnerID, all, err := s.shopScope(ctx)
	if err != nil {
		return nil, err
	}
	ps, err := s.uow.Stores().Products.ProductsOf(ctx, partnerID, []int64{id})
	if err != nil {
		return nil, err
	}
	if len(ps) == 0 || (!all && !ps[0].Active) {
		return nil, domain.ErrNotFound
	}
	return ps[0], nil
}

// ownPartner is the partner whose shop a write changes: the caller's.
// Errors: CodeUnauthenticated; CodeForbidden without op's permission or a
// partner (staff included: a shop is one partner's).
func ownPartner(ctx context.Context, op domain.AdminOp) (*domain.Partner, error) {
	if _, err := domain.Authorize(ctx, op); err != nil {
		return nil, err
	}
	return domain.PartnerFrom(ctx)
}

// CreateProduct adds a product to the caller's partner's shop.
// Errors: CodeUnauthenticated, CodeForbidden (OpEcommerceWrite); CodeInvalid
// with every field error.
func (s *Service) CreateProduct(ctx context.Context, in ProductInput) (*Product, error) {
	partner, err := ownPartner(ctx, domain.OpEcommerceWrite)
	if err != nil {
		return nil, err
	}
	p := &Product{PartnerID: partner.ID, Name: domain.Localized{}, Description: domain.Localized{}, Images: []string{},
		Active: true, Variants: []*Variant{}, Attributes: []*Attribute{}}
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		if err := applyProduct(ctx, tx.Products, in, false, p); err != nil {
			return err
		}
		return tx.Products.CreateProduct(ctx, p)
	})
	if err != nil {
		return nil, err
	}
	return s.ownProduct(ctx, partner.ID, p.ID)
}

// UpdateProduct changes a product of the caller's partner: PUT (partial
// false) asks for the fields creation requires, PATCH (partial true) for
// none; both change only the fields given. A given variants or attributes
// list replaces the product's: an element with the id of one of its
// variants (attributes) keeps that one, changed; one without an id is
// new; one left out is removed.
// Errors: those of CreateProduct; CodeNotFound for another partner's or
// an unknown product.
func (s *Service) UpdateProduct(ctx context.Context, id int64, in ProductInput, partial bool) (*Product, error) {
	partner, err := ownPartner(ctx, domain.OpEcommerceWrite)
	if err != nil {
		return nil, err
	}
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		if err := tx.Products.LockProduct(ctx, partner.ID, id); err != nil {
			return err
		}
		ps, err := tx.Products.ProductsOf(ctx, partner.ID, []int64{id})
		if err != nil {
			return err
		}
		if len(ps) == 0 {
			return domain.ErrNotFound
		}
		p := ps[0]
		if err := applyProduct(ctx, tx.Products, in, partial, p); err != nil {
			return err
		}
		return tx.Products.UpdateProduct(ctx, p)
	})
	if err != nil {
		return nil, err
	}
	return s.ownProduct(ctx, partner.ID, id)
}

// ownProduct reads back a product just written.
func (s *Service) ownProduct(ctx context.Context, partnerID, id int64) (*Product, error) {
	ps, err := s.uow.Stores().Products.ProductsOf(ctx, partnerID, []int64{id})
	if err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return nil, domain.ErrNotFound
	}
	return ps[0], nil
}

// DeliverySettings returns the caller's partner's delivery settings (none
// offered until it sets them).
// Errors: CodeUnauthenticated, CodeForbidden (OpEcommerceRead).
func (s *Service) DeliverySettings(ctx context.Context) (*DeliverySettings, error) {
	partner, err := ownPartner(ctx, domain.OpEcommerceRead)
	if err != nil {
		return nil, err
	}
	return s.uow.Stores().Products.DeliverySettingsOf(ctx, partner.ID)
}

// UpdateDeliverySettings replaces the caller's partner's delivery
// settings: a field left out is off, 0 or empty.
// Errors: CodeUnauthenticated, CodeForbidden (OpEcommerceWrite);
// CodeInvalid with every field error.
func (s *Service) UpdateDeliverySettings(ctx context.Context, in DeliverySettingsInput) (*DeliverySettings, error) {
	partner, err := ownPartner(ctx, domain.OpEcommerceWrite)
	if err != nil {
		return nil, err
	}
	d, err := in.settings(partner.ID)
	if err != nil {
		return nil, err
	}
	if err := s.uow.Stores().Products.SaveDeliverySettings(ctx, d); err != nil {
		return nil, err
	}
	return d, nil
}
