package rest

import (
	"net/url"

	"salesplatform/domain"
	"salesplatform/domain/checkout"
	"salesplatform/rest/drf"
)

// decodeOrderListInput reads the order list's filters; an empty parameter
// filters nothing.
func decodeOrderListInput(q url.Values) checkout.OrderListInput {
	var in checkout.OrderListInput
	given := func(name string) domain.Optional[string] {
		if v := q.Get(name); v != "" {
			return domain.Some(v)
		}
		return domain.Optional[string]{}
	}
	in.Status, in.CreatedAfter, in.CreatedBefore = given("status"), given("created_after"), given("created_before")
	return in
}

// decodeOrderRefundInput reads an order refund's body.
func decodeOrderRefundInput(doc map[string]any) checkout.RefundInput {
	var in checkout.RefundInput
	d := drf.New(doc, &in.Refusals)
	in.Amount = d.Decimal("amount")
	in.Restock = d.Bool("restock")
	return in
}
