package checkout

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/cart"
	"salesplatform/domain/ecommerce"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
)

// Service runs the funnel's steps and the partner's orders.
//
// The funnel's pages have no caller: the site names the partner, the cart
// id (a secret of the customer's link) names the cart. The checkout then
// acts for the shop's partner with the hub (a card payment of the
// partner, as a payment request's page does) and with the network (a
// hold of the giftcard at the partner, in the order's transaction): the
// order it reserved vouches for both.
type Service struct {
	uow       domain.UnitOfWork[Stores]
	carts     *cart.Service
	cartStore cart.CartStore
	cartTTL   time.Duration
	partners  domain.PartnerStore
	hub       *payments.PaymentService
	giftcards *network.GiftcardService
	codes     *domain.ClientThrottle // ApplyCodes' refused codes, by client
	now       func() time.Time
}

// NewService returns the service. carts and cartStore are the cart
// area's (cartTTL its carts' life); hub takes the card payments: NewService
// sets its settle hook (WithSettled), so that the provider's word on a
// payment completes its order even when the customer never comes back.
func NewService(uow domain.UnitOfWork[Stores], carts *cart.Service, cartStore cart.CartStore, cartTTL time.Duration,
	partners domain.PartnerStore, hub *payments.PaymentService, giftcards *network.GiftcardService) *Service {
	s := &Service{uow: uow, carts: carts, cartStore: cartStore, cartTTL: cartTTL, partners: partners, hub: hub,
		giftcards: giftcards, codes: domain.NewClientThrottle(domain.DefaultGiftLookupBurst, domain.DefaultGiftLookupRefill),
		now: func() time.Time { return time.Now().Truncate(time.Microsecond) }}
	hub.WithSettled(s.PaymentSettled)
	return s
}

// WithCodeThrottle sets the throttle of the codes ApplyCodes refuses (by
// default one of this process, at the gift lookups' limits). It returns s.
func (s *Service) WithCodeThrottle(t *domain.ClientThrottle) *Service {
	s.codes = t
	return s
}

// Basket returns the cart the customer opened on the site, priced.
// Errors: CodeNotFound (cart.MsgCartNotFound) for an unknown, lapsed,
// deleted or foreign cart.
func (s *Service) Basket(ctx context.Context, site Site, cartID uuid.UUID) (*Basket, error) {
	v, p, err := s.carts.FunnelCart(ctx, site, cartID)
	if err != nil {
		return nil, err
	}
	pr, err := s.price(ctx, s.uow.Stores(), p, v.Cart, v.ReturnTo)
	if err != nil {
		return nil, err
	}
	return pr.Basket, nil
}

// update writes fn's change of the customer's cart (a new last_modified
// and revision), then fails the cart's pending order priced from the
// cart before (the customer went back from the payment: that payment
// must not buy a cart that is no more), and returns the basket. The
// order fails after the write, so that a Pay reserving meanwhile finds
// the new revision when it re-reads the cart (see Pay).
func (s *Service) update(ctx context.Context, site Site, cartID uuid.UUID, fn func(c *cart.Cart, p *domain.Partner) error) (*Basket, error) {
	v, p, err := s.carts.FunnelCart(ctx, site, cartID)
	if err != nil {
		return nil, err
	}
	var saved *cart.Cart
	err = s.cartStore.Update(ctx, cartID, s.cartTTL, func(cur *cart.Cart) (*cart.Cart, error) {
		if cur.PartnerID != p.ID {
			return nil, domain.ErrNotFound
		}
		next := *cur
		next.Items = slices.Clone(cur.Items)
		st := cart.FunnelState{}
		if cur.Funnel != nil {
			st = *cur.Funnel
		}
		next.Funnel = &st
		if err := fn(&next, p); err != nil {
			return nil, err
		}
		now := s.now().Truncate(time.Millisecond)
		if !now.After(cur.LastModified) {
			now = cur.LastModified.Add(time.Millisecond)
		}
		next.LastModified, next.Revision = now, cur.Revision+1
		saved = &next
		return saved, nil
	})
	if domain.IsCode(err, domain.CodeNotFound) {
		return nil, &domain.Error{Code: domain.CodeNotFound, Message: cart.MsgCartNotFound}
	}
	if err != nil {
		return nil, err
	}
	if _, err := s.failStale(ctx, cartID, saved.Revision); err != nil {
		return nil, err
	}
	pr, err := s.price(ctx, s.uow.Stores(), p, saved, v.ReturnTo)
	if err != nil {
		return nil, err
	}
	return pr.Basket, nil
}

// Messages of the customization step.
const (
	MsgNoSuchLine      = "This cart has no such line."
	MsgVariantInvalid  = "Select a valid variant of this product."
	MsgAttributeValue  = "Select one of this attribute's values."
	MsgAttributeNone   = "This product has no such attribute."
	MsgDeliveryInvalid = "Select one of the delivery modes offered."
)

// Customize writes the customization step's changes to the cart (a new
// last_modified) and returns the basket.
// Errors: those of Basket; CodeInvalid with field errors ("lines.0.quantity",
// "lines.0.variant_id", "lines.0.attribute_values.3", "delivery_mode").
func (s *Service) Customize(ctx context.Context, site Site, cartID uuid.UUID, in CustomizationInput) (*Basket, error) {
	if len(in.Lines) > cart.MaxCartItems {
		v := in.Refusals.Validator()
		v.Add(domain.VMaxLength, fmt.Sprintf("Ensure this field has no more than %d elements.", cart.MaxCartItems), "lines")
		return nil, v.Err()
	}
	return s.update(ctx, site, cartID, func(c *cart.Cart, p *domain.Partner) error {
		v := in.Refusals.Validator()
		ids := make([]int64, 0, len(c.Items))
		for _, it := range c.Items {
			ids = append(ids, it.ProductID)
		}
		products, err := s.uow.Stores().Catalogue.ProductsOf(ctx, p.ID, ids)
		if err != nil {
			return err
		}
		for i, l := range in.Lines {
			if l.Index < 0 || l.Index >= len(c.Items) {
				v.Add(domain.VInvalid, MsgNoSuchLine, "lines", i, "index")
				continue
			}
			item := &c.Items[l.Index]
			var product *productRef
			for _, pr := range products {
				if pr.ID == item.ProductID {
					product = &productRef{pr}
				}
			}
			if q, ok := l.Quantity.Get(); ok {
				switch {
				case q < 0:
					v.Add(domain.VMinValue, "Ensure this value is greater than or equal to 0.", "lines", i, "quantity")
				case q > cart.MaxCartQuantity:
					v.Add(domain.VMaxValue, fmt.Sprintf(MsgMaxQuantity, cart.MaxCartQuantity), "lines", i, "quantity")
				default:
					item.Quantity = q
				}
			} else if l.Quantity.Null {
				v.Add(domain.VNull, domain.MsgNull, "lines", i, "quantity")
			}
			if id, ok := l.VariantID.Get(); ok {
				if product == nil || !product.activeVariant(id) {
					v.Add(domain.VInvalid, MsgVariantInvalid, "lines", i, "variant_id")
				} else {
					item.VariantID = &id
				}
			}
			if l.AttributeValues != nil {
				values := make(map[int64]string, len(l.AttributeValues))
				for id, val := range l.AttributeValues {
					switch ok, known := product.attributeValue(id, val); {
					case !known:
						v.Add(domain.VInvalid, MsgAttributeNone, "lines", i, "attribute_values", id)
					case !ok:
						v.Add(domain.VInvalid, MsgAttributeValue, "lines", i, "attribute_values", id)
					default:
						values[id] = val
					}
				}
				item.AttributeValues = values
			}
		}
		if m, ok := in.DeliveryMode.Get(); ok {
			settings, err := s.uow.Stores().Catalogue.DeliverySettingsOf(ctx, p.ID)
			if err != nil {
				return err
			}
			if _, offered := settings.Cost(m); !offered {
				v.Add(domain.VInvalid, MsgDeliveryInvalid, "delivery_mode")
			} else {
				c.Funnel.DeliveryMode = m
			}
		}
		if err := v.Err(); err != nil {
			return err
		}
		kept := c.Items[:0]
		for _, it := range c.Items {
			if it.Quantity > 0 { // 0 removes the line
				kept = append(kept, it)
			}
		}
		c.Items = kept
		return nil
	})
}

// Limits of the information step.
const (
	maxNameLength       = 100
	maxPhoneLength      = 32
	maxStreetLength     = 255
	maxPostalCodeLength = 10
	maxCityLength       = 100
	MsgCountry          = "Enter a country code of two letters (ISO 3166-1 alpha-2)."
)

// Inform writes the information step's answers.
// Errors: those of Basket; CodeInvalid with field errors by form field
// name ("first_name", "email", "postal_code", …).
func (s *Service) Inform(ctx context.Context, site Site, cartID uuid.UUID, in InformationInput) (*Basket, error) {
	v := in.Refusals.Validator()
	f := domain.Fields{V: v}
	str := func(field string, o domain.Optional[string], required bool, max int) string {
		return domain.Pick(f.String(field, o, required, !required, max), "")
	}
	info := Information{
		FirstName:            str("first_name", in.FirstName, true, maxNameLength),
		LastName:             str("last_name", in.LastName, true, maxNameLength),
		Email:                domain.Pick(f.Email("email", in.Email, true), ""),
		Phone:                str("phone", in.Phone, true, maxPhoneLength),
		Street:               str("street", in.Street, false, maxStreetLength),
		PostalCode:           str("postal_code", in.PostalCode, false, maxPostalCodeLength),
		City:                 str("city", in.City, false, maxCityLength),
		Country:              strings.ToUpper(str("country", in.Country, false, 2)),
		BeneficiaryFirstName: str("beneficiary_first_name", in.BeneficiaryFirstName, false, maxNameLength),
		BeneficiaryLastName:  str("beneficiary_last_name", in.BeneficiaryLastName, false, maxNameLength),
		Language:             in.Language,
	}
	if in.BeneficiaryMail.Set && strings.TrimSpace(in.BeneficiaryMail.Value) != "" {
		info.BeneficiaryEmail = domain.Pick(f.Email("beneficiary_email", in.BeneficiaryMail, false), "")
	}
	if info.Country != "" && !isCountry(info.Country) {
		v.Add(domain.VInvalid, MsgCountry, "country")
	}
	if !domain.IsLanguage(info.Language) {
		info.Language = "en"
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return s.update(ctx, site, cartID, func(c *cart.Cart, _ *domain.Partner) error {
		if c.Funnel.DeliveryMode == "postal" {
			var pv domain.Validator
			for field, val := range map[string]string{"street": info.Street, "postal_code": info.PostalCode, "city": info.City, "country": info.Country} {
				if val == "" {
					pv.Add(domain.VRequired, domain.MsgRequired, field)
				}
			}
			if err := pv.Err(); err != nil {
				return err
			}
		}
		c.Funnel.Buyer = buyerOf(info)
		return nil
	})
}

// isCountry reports an ISO 3166-1 alpha-2 shape: two letters A-Z.
func isCountry(s string) bool {
	return len(s) == 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z'
}

// ApplyCodes applies or removes the coupon and the giftcard codes.
// Codes are secrets worth guessing: a request sending one takes an
// attempt of the client's throttle before any is looked up, given back
// unless a code is refused.
// Errors: those of Basket; CodeInvalid on "coupon" or "giftcard";
// CodeThrottled.
func (s *Service) ApplyCodes(ctx context.Context, site Site, cartID uuid.UUID, in CodesInput) (_ *Basket, err error) {
	v := in.Refusals.Validator()
	f := domain.Fields{V: v}
	coupon := f.String("coupon", in.Coupon, false, true, maxCodeLength)
	giftcard := f.String("giftcard", in.Giftcard, false, true, maxCodeLength)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if coupon != nil && *coupon != "" || giftcard != nil && *giftcard != "" {
		a, rerr := s.codes.Reserve(ctx, domain.ClientAddr(ctx), s.now())
		if rerr != nil {
			return nil, rerr
		}
		defer func() { // err is the answer's
			if !domain.IsCode(err, domain.CodeInvalid) {
				a.GiveBack(s.now())
			}
		}()
	}
	return s.update(ctx, site, cartID, func(c *cart.Cart, p *domain.Partner) error {
		if coupon != nil {
			c.Funnel.Coupon = *coupon
		}
		if giftcard != nil {
			c.Funnel.Giftcard = *giftcard
		}
		// A code sent that does not apply is its field's error, and the
		// cart is left as it was.
		pr, err := s.price(ctx, s.uow.Stores(), p, c, "")
		if err != nil {
			return err
		}
		if coupon != nil && *coupon != "" && pr.CouponProblem != "" {
			v.Add(domain.VInvalid, pr.CouponProblem, "coupon")
		}
		if giftcard != nil && *giftcard != "" && pr.GiftcardProblem != "" {
			v.Add(domain.VInvalid, pr.GiftcardProblem, "giftcard")
		}
		return v.Err()
	})
}

// productRef answers the customization's questions about a product (nil
// for an unknown one).
type productRef struct{ p *ecommerce.Product }

func (r *productRef) activeVariant(id int64) bool {
	if r == nil {
		return false
	}
	for _, v := range r.p.Variants {
		if v.ID == id && v.Active {
			return true
		}
	}
	return false
}

func (r *productRef) attributeValue(id int64, value string) (ok, known bool) {
	if r == nil {
		return false, false
	}
	for _, a := range r.p.Attributes {
		if a.ID == id {
			return slices.Contains(a.Values, value), true
		}
	}
	return false, false
}
