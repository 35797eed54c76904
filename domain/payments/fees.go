package payments

import (
	"fmt"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/network"
)

// Products a payment may be for: its `product`, which chooses its fee rule.
const (
	ProductVoucher         = "voucher"
	ProductGiftcard        = "giftcard"
	ProductEvent           = "event"
	ProductWorkshop        = "workshop"
	ProductNetworkGiftcard = "network_giftcard"
	ProductNetworkVoucher  = "network_voucher"
	ProductRefill          = "refill"    // a marketplace's refill, paid by link
	ProductEcommerce       = "ecommerce" // an order of the checkout funnel
)

// OriginMarketplace is the origin of a sale made through a marketplace,
// whose commission pays the marketplace's share too. Any other origin
// (web, api, a payment request's, none) takes its product's default rule.
const OriginMarketplace = "marketplace"

// FeeRule is the commission of the payments of a product from an origin:
// Percent of the amount, rounded to the cent half up, plus Fixed.
type FeeRule struct {
	Product string
	Origin  string // "": every origin without a rule of its own
	Percent decimal.Decimal
	Fixed   decimal.Decimal
}

func rule(product, origin, percent, fixed string) FeeRule {
	return FeeRule{Product: product, Origin: origin, Percent: decimal.RequireFromString(percent),
		Fixed: decimal.RequireFromString(fixed)}
}

// FeeRules is the fee table (docs/DECISIONS.md, "Payment fees"): one
// default rule per product, and the rules of the origins that differ.
var FeeRules = []FeeRule{
	rule(ProductVoucher, "", "5.00", "0.25"),
	rule(ProductVoucher, OriginMarketplace, "10.00", "0.25"),
	rule(ProductGiftcard, "", "5.00", "0.25"),
	rule(ProductGiftcard, OriginMarketplace, "10.00", "0.25"),
	rule(ProductEvent, "", "6.00", "0.25"),
	rule(ProductEvent, OriginMarketplace, "12.00", "0.25"),
	rule(ProductWorkshop, "", "6.00", "0.25"),
	rule(ProductWorkshop, OriginMarketplace, "12.00", "0.25"),
	rule(ProductNetworkGiftcard, "", "2.50", "0.00"),
	rule(ProductNetworkVoucher, "", "2.50", "0.00"),
	rule(ProductRefill, "", "1.50", "0.00"),
	rule(ProductEcommerce, "", "5.00", "0.25"),
}

// Fee is what a payment's amount splits into.
type Fee struct {
	Rule       FeeRule
	Commission decimal.Decimal // the platform's
	NetAmount  decimal.Decimal // the partner's: the amount less the commission
}

// RoundCents rounds d to the cent, half up (half away from zero: amounts
// are positive): 0.245 is 0.25. Invoices round so; banker's rounding
// would give 0.24.
func RoundCents(d decimal.Decimal) decimal.Decimal { return d.Round(2) }

// FeeRuleOf returns the rule of product from origin: the origin's own, or
// the product's default.
// Errors: CodeInvalid on "product" for a product without rules.
func FeeRuleOf(product, origin string) (FeeRule, error) {
	var found *FeeRule
	for i := range FeeRules {
		r := &FeeRules[i]
		switch {
		case r.Product != product:
		case r.Origin == origin && origin != "":
			return *r, nil
		case r.Origin == "":
			found = r
		}
	}
	if found == nil {
		return FeeRule{}, fieldError("product", domain.VInvalid, fmt.Sprintf(msgChoice, product))
	}
	return *found, nil
}

// Fees returns the commission and the net amount of a payment of amount
// for product from origin: the rule's percentage of the amount, rounded
// to the cent (RoundCents), plus its fixed part, at most the amount.
// Errors: those of FeeRuleOf; CodeInvalid on "amount" (not above 0,
// above MaxAmount, or more than two decimals).
func Fees(product, origin string, amount decimal.Decimal) (Fee, error) {
	r, err := FeeRuleOf(product, origin)
	if err != nil {
		return Fee{}, err
	}
	var v domain.Validator
	if checkAmount(&v, amount, "amount"); !amount.Equal(amount.Round(2)) {
		v.Add(domain.VMaxDecimals, network.MsgValueDecimals, "amount")
	}
	if err := v.Err(); err != nil {
		return Fee{}, err
	}
	commission := RoundCents(amount.Mul(r.Percent).Shift(-2)).Add(r.Fixed)
	commission = decimal.Min(commission, amount)
	return Fee{Rule: r, Commission: commission, NetAmount: amount.Sub(commission)}, nil
}
