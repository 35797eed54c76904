package webhooks

import (
	"context"
	"slices"

	"salesplatform/domain"
)

// EventType is a type of event and what it tells, for the partners
// choosing what to subscribe to (GET /api/webhooks/event_types/).
type EventType struct {
	Type        string
	Description string
}

// Catalog is every event type an endpoint may subscribe to, in the order
// they are listed (docs/API.md, "Webhooks"). A partner's endpoints receive
// the events of its own resources; staff's platform-wide endpoints every
// event.
var Catalog = []EventType{
	{"order.created", "An e-commerce order was reserved when its customer paid on the shop's funnel (status pending, or paid at once when nothing is left to pay by card). To the shop."},
	{"order.paid", "An e-commerce order was completed: its payment succeeded (or nothing was left to pay). To the shop."},
	{"order.refunded", "A refund of an e-commerce order was recorded from the orders' backend: refunded_amount grew, and the status is refunded once the card part is wholly refunded. To the shop."},
	{"payment.succeeded", "A payment of the payment hub was paid. To the payment's partner."},
	{"payment.failed", "A payment of the payment hub failed. To the payment's partner."},
	{"refund.succeeded", "A refund of a payment of the payment hub succeeded. To the payment's partner."},
	{"refund.failed", "A refund of a payment of the payment hub was refused by the payment provider. To the payment's partner."},
	{"network_giftcard.created", "A network giftcard was created. To its marketplace."},
	{"network_giftcard.used", "A network giftcard was used (directly, by a hold's capture, or by an e-commerce order). To the card's marketplace and to the partner where it was used."},
	{"network_giftcard.usage_cancelled", "A usage of a network giftcard was cancelled: its value went back on the card. To the card's marketplace and to the partner where it was used."},
	{"network_voucher.used", "A usage of a network voucher was recorded. To the voucher's marketplace and to the partner where it was used."},
	{"payout_request.created", "A payout request was built for the partner's last closed period. To the partner."},
	{"payout_request.validated", "A payout request was validated (by staff, or at once when the partner's payouts are validated automatically). To the partner."},
	{"payout_request.paid", "A payout request was paid (its bank transfer made). To the partner."},
	{"payment_request.paid", "A payment request was paid by its customer. To the request's partner."},
	{"partner.payments_activated", "A partner's payments were activated at the payment provider: it may take payments. To the partner."},
}

func typeNames(c []EventType) []string {
	out := make([]string, len(c))
	for i, t := range c {
		out[i] = t.Type
	}
	return out
}

// Recipients are the partners an event goes to: ids, each once.
func Recipients(ids ...int64) []int64 {
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// EventTypes returns a page of Catalog, for those who manage endpoints.
// Errors: CodeUnauthenticated, CodeForbidden (OpWebhookManage);
// CodeNotFound "Invalid page." past the end.
func (s *Service) EventTypes(ctx context.Context, page domain.PageRequest) (*domain.Page[EventType], error) {
	if _, err := domain.Authorize(ctx, domain.OpWebhookManage); err != nil {
		return nil, err
	}
	from := min(page.Offset(), len(Catalog))
	to := min(from+page.Size, len(Catalog))
	return domain.NewPage(Catalog[from:to], len(Catalog), page)
}
