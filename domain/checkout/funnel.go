package checkout

import (
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/cart"
	"salesplatform/domain/ecommerce"
)

// Site names the partner whose purchase site serves a funnel page.
type Site = cart.FunnelSite

// Basket is a cart as the funnel shows it: each line priced from the
// catalogue, the delivery modes of the partner, what the customer
// answered so far and the totals.
type Basket struct {
	CartID       uuid.UUID
	Partner      *domain.Partner
	Lines        []*Line
	Delivery     []DeliveryChoice // the partner's modes
	DeliveryMode string           // the one chosen, "" before
	Information  Information
	Coupon       string // the code applied, "" for none
	Giftcard     string // the network giftcard's code applied, "" for none
	Totals       Totals
	// Refusals of the applied codes, shown beside their fields (an
	// expired coupon, an empty giftcard): the totals leave them out.
	CouponProblem, GiftcardProblem string
	ReturnTo                       string // the cart's return_url, if the cart rule accepts it
	LastModified                   time.Time
}

// Line is one cart item priced.
type Line struct {
	Index           int // its position in the cart's items
	ProductID       int64
	VariantID       *int64
	AttributeValues map[int64]string
	Quantity        int64
	// Product is nil for an unknown product; Available is false for an
	// unknown or inactive product or variant (the line cannot be bought).
	Product   *ecommerce.Product
	Variant   *ecommerce.Variant
	Available bool
	UnitPrice decimal.Decimal
	Total     decimal.Decimal
	// StockLeft is set when Quantity is above the stock: how many are left.
	StockLeft *int64
}

// DeliveryChoice is a delivery mode the partner offers.
type DeliveryChoice struct {
	Mode    string // ecommerce.Delivery*
	Cost    decimal.Decimal
	Days    int    // postal
	Address string // pickup
}

// Information is the information step's answers: the buyer, and the
// delivery address (postal mode) or the beneficiary (e-mail mode, when
// the order is a gift).
type Information struct {
	FirstName, LastName, Email, Phone string
	Street, PostalCode, City, Country string
	BeneficiaryFirstName              string
	BeneficiaryLastName               string
	BeneficiaryEmail                  string
	Language                          string // the customer's, for the order's mail
}

// Totals are the server's sums, in the partner's currency.
type Totals struct {
	Currency string
	Lines    decimal.Decimal
	Delivery decimal.Decimal
	Discount decimal.Decimal // the coupon's
	Giftcard decimal.Decimal // taken from the network giftcard
	ToPay    decimal.Decimal // by card
}

// CustomizationInput changes the customization step: quantities (0
// removes the line), variants, attribute values, the delivery mode.
type CustomizationInput struct {
	domain.Refusals
	Lines        []LineInput
	DeliveryMode domain.Optional[string]
}

// LineInput changes the line at Index.
type LineInput struct {
	Index           int
	Quantity        domain.Optional[int64]
	VariantID       domain.Optional[int64]
	AttributeValues map[int64]string // nil keeps them
}

// InformationInput is the information step's form.
type InformationInput struct {
	domain.Refusals
	FirstName, LastName, Email, Phone    domain.Optional[string]
	Street, PostalCode, City, Country    domain.Optional[string]
	BeneficiaryFirstName                 domain.Optional[string]
	BeneficiaryLastName, BeneficiaryMail domain.Optional[string]
	Language                             string
}

// CodesInput applies (or, with an empty value, removes) a coupon code and
// a network giftcard code at the payment step.
type CodesInput struct {
	domain.Refusals
	Coupon, Giftcard domain.Optional[string]
}

// PayInput starts the payment. ReturnURL is the funnel page the payment
// provider sends the customer back to (built by the page from its own
// address).
type PayInput struct {
	ReturnURL string
}

// PayOutcome is where the customer goes after Pay: the provider's card
// page (RedirectURL), or, when nothing is left to pay by card, the
// finished order.
type PayOutcome struct {
	RedirectURL string
	Order       *Order
}

// Step is a step of the funnel, in order.
type Step int

// The funnel's steps.
const (
	StepCustomization Step = iota
	StepInformation
	StepPayment
)

// Reached is the furthest step the basket opens, and why it goes no
// further ("" at the payment step): the information step needs a line
// above zero and a delivery mode, the payment step the information the
// delivery mode asks for. Pay checks more (stock, availability, codes).
func (b *Basket) Reached() (Step, string) {
	toBuy := false
	for _, l := range b.Lines {
		toBuy = toBuy || l.Quantity > 0
	}
	switch {
	case !toBuy:
		return StepCustomization, MsgCartEmpty
	case b.DeliveryMode == "":
		return StepCustomization, MsgChooseDelivery
	case !b.Information.complete(b.DeliveryMode):
		return StepInformation, MsgInformationIncomplete
	}
	return StepPayment, ""
}
