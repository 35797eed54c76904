package cart

import (
	"context"
	"strconv"
	"time"

	"github.com/google/uuid"
)

// Cart is the e-commerce cart an external shop hands over to the checkout
// funnel. It lives in a CartStore, not in the database, and lapses CartTTL
// after its last modification.
type Cart struct {
	ID           uuid.UUID  `json:"id"`
	PartnerID    int64      `json:"partner_id"`
	Items        []CartItem `json:"items"`
	ReturnURL    string     `json:"return_url"`
	CreatedAt    time.Time  `json:"created_at"`
	LastModified time.Time  `json:"last_modified"`
	// Revision grows by one on every replace; the ETag is built from it.
	Revision int64 `json:"revision"`
	// Funnel is what the customer answered in the checkout funnel's
	// steps (domain/checkout): it lives and lapses with the cart.
	Funnel *FunnelState `json:"funnel,omitempty"`
}

// FunnelState is the checkout funnel's answers: the delivery mode, the
// buyer's information and the codes applied ("" for none).
type FunnelState struct {
	DeliveryMode string       `json:"delivery_mode,omitempty"`
	Buyer        *FunnelBuyer `json:"buyer,omitempty"`
	Coupon       string       `json:"coupon,omitempty"`
	Giftcard     string       `json:"giftcard,omitempty"`
}

// FunnelBuyer is the information step's answers.
type FunnelBuyer struct {
	FirstName            string `json:"first_name"`
	LastName             string `json:"last_name"`
	Email                string `json:"email"`
	Phone                string `json:"phone"`
	Street               string `json:"street,omitempty"`
	PostalCode           string `json:"postal_code,omitempty"`
	City                 string `json:"city,omitempty"`
	Country              string `json:"country,omitempty"`
	BeneficiaryFirstName string `json:"beneficiary_first_name,omitempty"`
	BeneficiaryLastName  string `json:"beneficiary_last_name,omitempty"`
	BeneficiaryEmail     string `json:"beneficiary_email,omitempty"`
	Language             string `json:"language,omitempty"`
}

// CartItem is one product line of a cart, stored as the shop sent it.
type CartItem struct {
	ProductID       int64            `json:"product_id"`
	Quantity        int64            `json:"quantity"`
	VariantID       *int64           `json:"variant_id"`
	AttributeValues map[int64]string `json:"attribute_values"`
}

// ETag is the entity tag of this version of the cart, quoted as HTTP wants it.
func (c *Cart) ETag() string {
	return `"` + c.ID.String() + "-" + strconv.FormatInt(c.Revision, 10) + `"`
}

// CartStore keeps carts for a limited time. Implementations must be safe for
// concurrent use and make Update atomic with respect to other writers.
type CartStore interface {
	// Create stores a new cart that lapses ttl from now.
	Create(ctx context.Context, c *Cart, ttl time.Duration) error
	// Get returns the cart, or ErrNotFound when it does not exist or lapsed.
	Get(ctx context.Context, id uuid.UUID) (*Cart, error)
	// Update calls fn with the current cart and stores the cart fn returns,
	// lapsing ttl from now, unless fn fails; fn's error is returned as is.
	// No other write to the cart happens between the read and the write.
	// ErrNotFound when the cart does not exist or lapsed.
	Update(ctx context.Context, id uuid.UUID, ttl time.Duration, fn func(current *Cart) (*Cart, error)) error
	// Delete removes the cart; deleting a missing cart is not an error.
	Delete(ctx context.Context, id uuid.UUID) error
}
