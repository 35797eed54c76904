package checkout

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/cart"
	"salesplatform/domain/ecommerce"
	"salesplatform/domain/network"
)

// Refusals of the codes, shown beside their fields.
const (
	MsgCouponUnknown     = "This coupon does not exist."
	MsgCouponInactive    = "This coupon is no longer valid."
	MsgCouponDates       = "This coupon is not valid today."
	MsgCouponUsedUp      = "This coupon has been used as many times as it may be."
	MsgCouponProducts    = "This coupon does not apply to these products."
	MsgCouponMinimum     = "This coupon applies from %s."
	MsgGiftcardUnknown   = "This gift card does not exist or is not accepted here."
	MsgGiftcardNotUsable = "This gift card cannot be used now."
	MsgGiftcardEmpty     = "This gift card has nothing left."
	MsgCodeTooLong       = "Ensure this field has no more than 64 characters."
	maxCodeLength        = 64
	giftcardHoldTTL      = 24 * time.Hour // beyond any pending order's life (LapsePendingOrders)
)

// pricing is a basket with what Pay needs beside it: the coupon and the
// giftcard accepted.
type pricing struct {
	*Basket
	coupon   *Coupon
	card     *network.Card
	delivery *ecommerce.DeliverySettings
}

// price prices cart c of partner p (Basket's rules): tx are stores on the
// pool or on a transaction.
func (s *Service) price(ctx context.Context, tx Stores, p *domain.Partner, c *cart.Cart, returnTo string) (*pricing, error) {
	b := &Basket{CartID: c.ID, Partner: p, ReturnTo: returnTo, LastModified: c.LastModified, Lines: []*Line{}}
	st := c.Funnel
	if st == nil {
		st = &cart.FunnelState{}
	}
	b.Coupon, b.Giftcard = st.Coupon, st.Giftcard
	b.Information = informationOf(st.Buyer)
	ids := make([]int64, 0, len(c.Items))
	for _, it := range c.Items {
		ids = append(ids, it.ProductID)
	}
	products, err := tx.Catalogue.ProductsOf(ctx, p.ID, ids)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*ecommerce.Product, len(products))
	for _, pr := range products {
		byID[pr.ID] = pr
	}
	currency := p.Currency
	lines := decimal.Zero
	for i, it := range c.Items {
		l := &Line{Index: i, ProductID: it.ProductID, VariantID: it.VariantID, AttributeValues: it.AttributeValues,
			Quantity: it.Quantity, Product: byID[it.ProductID]}
		priceLine(l)
		lines = lines.Add(l.Total)
		b.Lines = append(b.Lines, l)
	}
	settings, err := tx.Catalogue.DeliverySettingsOf(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	for _, m := range settings.Modes() {
		cost, _ := settings.Cost(m)
		ch := DeliveryChoice{Mode: m, Cost: cost}
		switch m {
		case ecommerce.DeliveryPostal:
			ch.Days = settings.PostalDays
		case ecommerce.DeliveryPickup:
			ch.Address = settings.PickupAddress
		}
		b.Delivery = append(b.Delivery, ch)
	}
	delivery := decimal.Zero
	if cost, ok := settings.Cost(st.DeliveryMode); ok {
		b.DeliveryMode, delivery = st.DeliveryMode, cost
	}
	out := &pricing{Basket: b, delivery: settings}
	b.Totals = Totals{Currency: currency, Lines: lines, Delivery: delivery}
	if b.Coupon != "" {
		out.coupon, b.CouponProblem, err = s.applyCoupon(ctx, tx, p.ID, b)
		if err != nil {
			return nil, err
		}
	}
	rest := lines.Add(delivery).Sub(b.Totals.Discount)
	if b.Giftcard != "" {
		out.card, b.GiftcardProblem, err = s.acceptedCard(ctx, tx, p, b.Giftcard)
		if err != nil {
			return nil, err
		}
		if out.card != nil {
			b.Totals.Giftcard = decimal.Min(out.card.RemainingValue, rest)
			if !out.card.IsSplittable && !b.Totals.Giftcard.Equal(out.card.RemainingValue) {
				// A card spent whole only: it cannot pay less than it holds.
				out.card, b.Totals.Giftcard, b.GiftcardProblem = nil, decimal.Zero, MsgGiftcardNotUsable
			}
		}
	}
	b.Totals.ToPay = decimal.Max(rest.Sub(b.Totals.Giftcard), decimal.Zero)
	return out, nil
}

// priceLine prices l from its product: the variant's price when it names
// one, else the product's. A product with variants must be bought as one
// of them.
func priceLine(l *Line) {
	p := l.Product
	if p == nil {
		return
	}
	l.UnitPrice = p.Price
	stock := p.Stock
	l.Available = p.Active
	switch {
	case l.VariantID != nil:
		l.Available = false
		for _, v := range p.Variants {
			if v.ID == *l.VariantID {
				l.Variant, l.UnitPrice, stock, l.Available = v, v.Price, v.Stock, p.Active && v.Active
			}
		}
	case len(p.Variants) > 0:
		l.Available = false
	}
	l.Total = l.UnitPrice.Mul(decimal.NewFromInt(l.Quantity))
	if stock != nil && l.Quantity > *stock {
		left := *stock
		l.StockLeft = &left
	}
}

// applyCoupon checks the basket's coupon and sets its discount; problem
// is why it does not apply ("" when it does).
func (s *Service) applyCoupon(ctx context.Context, tx Stores, partnerID int64, b *Basket) (*Coupon, string, error) {
	c, err := tx.Coupons.CouponByCode(ctx, partnerID, b.Coupon)
	if domain.IsCode(err, domain.CodeNotFound) {
		return nil, MsgCouponUnknown, nil
	}
	if err != nil {
		return nil, "", err
	}
	now := s.now()
	switch {
	case !c.Valid || !c.IsActivated || !c.ForEcommerce:
		return nil, MsgCouponInactive, nil
	case c.StartDate != nil && now.Before(*c.StartDate), c.EndDate != nil && now.After(*c.EndDate):
		return nil, MsgCouponDates, nil
	case c.MaxUsage > 0 && c.NumberOfUsage >= c.MaxUsage:
		return nil, MsgCouponUsedUp, nil
	}
	base := decimal.Zero
	eligible := false
	for _, l := range b.Lines {
		if len(c.ProductIDs) == 0 || slices.Contains(c.ProductIDs, l.ProductID) {
			base, eligible = base.Add(l.Total), true
		}
	}
	if !eligible {
		return nil, MsgCouponProducts, nil
	}
	for _, m := range []struct {
		min   string
		total decimal.Decimal
	}{{c.PriceMin, b.Totals.Lines}, {c.PaymentMin, b.Totals.Lines.Add(b.Totals.Delivery)}} {
		if min, err := decimal.NewFromString(m.min); err == nil && m.total.LessThan(min) {
			return nil, fmt.Sprintf(MsgCouponMinimum, min.StringFixed(2)+" "+b.Totals.Currency), nil
		}
	}
	discount := c.Discount
	if c.DiscountType == DiscountPercentage {
		discount = base.Mul(decimal.Min(c.Discount, decimal.NewFromInt(100))).Div(decimal.NewFromInt(100)).Round(2)
	}
	discount = decimal.Min(discount, base)
	if c.FreePickup && b.DeliveryMode == ecommerce.DeliveryPickup {
		discount = discount.Add(b.Totals.Delivery)
	}
	b.Totals.Discount = discount
	return c, "", nil
}

// acceptedCard reads the basket's network giftcard, accepted at p.
func (s *Service) acceptedCard(ctx context.Context, tx Stores, p *domain.Partner, code string) (*network.Card, string, error) {
	card, err := s.giftcards.AcceptedCard(ctx, tx.Network, code, p.ID, p.Currency)
	switch {
	case domain.IsCode(err, domain.CodeNotFound):
		return nil, MsgGiftcardUnknown, nil
	case domain.IsCode(err, domain.CodeConflict):
		return nil, MsgGiftcardNotUsable, nil
	case err != nil:
		return nil, "", err
	case !card.RemainingValue.IsPositive():
		return nil, MsgGiftcardEmpty, nil
	}
	return card, "", nil
}

// blocker is why the basket cannot be paid yet ("" when it can): the
// first step left incomplete.
func (b *pricing) blocker() string {
	for _, l := range b.Lines {
		switch {
		case l.Quantity == 0:
			continue
		case !l.Available:
			return fmt.Sprintf(MsgProductUnavailable, l.Index+1)
		case l.StockLeft != nil:
			return fmt.Sprintf(MsgStockShort, l.Index+1, *l.StockLeft)
		}
	}
	if _, why := b.Reached(); why != "" {
		return why
	}
	switch {
	case b.CouponProblem != "":
		return b.CouponProblem
	case b.GiftcardProblem != "":
		return b.GiftcardProblem
	}
	return ""
}

// Refusals of Pay.
const (
	MsgCartEmpty             = "Your cart is empty."
	MsgChooseDelivery        = "Choose a delivery mode."
	MsgInformationIncomplete = "Complete your information."
)

// complete reports whether the information step is done for the
// delivery mode: the buyer always, the address for postal delivery.
func (in Information) complete(mode string) bool {
	if in.FirstName == "" || in.LastName == "" || in.Email == "" || in.Phone == "" {
		return false
	}
	return mode != ecommerce.DeliveryPostal || in.Street != "" && in.PostalCode != "" && in.City != "" && in.Country != ""
}

func informationOf(b *cart.FunnelBuyer) Information {
	if b == nil {
		return Information{}
	}
	return Information{FirstName: b.FirstName, LastName: b.LastName, Email: b.Email, Phone: b.Phone,
		Street: b.Street, PostalCode: b.PostalCode, City: b.City, Country: b.Country,
		BeneficiaryFirstName: b.BeneficiaryFirstName, BeneficiaryLastName: b.BeneficiaryLastName,
		BeneficiaryEmail: b.BeneficiaryEmail, Language: b.Language}
}

func buyerOf(in Information) *cart.FunnelBuyer {
	return &cart.FunnelBuyer{FirstName: in.FirstName, LastName: in.LastName, Email: in.Email, Phone: in.Phone,
		Street: in.Street, PostalCode: in.PostalCode, City: in.City, Country: in.Country,
		BeneficiaryFirstName: in.BeneficiaryFirstName, BeneficiaryLastName: in.BeneficiaryLastName,
		BeneficiaryEmail: in.BeneficiaryEmail, Language: in.Language}
}
