package checkout_test

import (
	"context"
	"fmt"
	"testing"

	"salesplatform/domain"
	"salesplatform/domain/cart"
	"salesplatform/domain/checkout"
)

// The refusals named in messages.go are the service's words, which the
// funnel's pages look up.
func TestNamedRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 2)
	ctx := context.Background()
	mug := f.product(t, "10.00", ptr(int64(1)))
	id := f.cart(t, item(mug, 2))
	_, err := f.svc.Customize(ctx, f.site, id, checkout.CustomizationInput{
		Lines: []checkout.LineInput{{Index: 0, Quantity: domain.Some(int64(cart.MaxCartQuantity + 1))}}})
	if e := domain.AsError(err); e == nil || len(e.Fields) != 1 || e.Fields[0].Message != fmt.Sprintf(checkout.MsgMaxQuantity, cart.MaxCartQuantity) {
		t.Errorf("quantity past the maximum: %v", err)
	}
	if _, err := f.svc.Pay(ctx, f.site, id, checkout.PayInput{}); domain.AsError(err) == nil ||
		domain.AsError(err).Message != fmt.Sprintf(checkout.MsgStockShort, 1, 1) {
		t.Errorf("pay beyond the stock: %v", err)
	}
}
