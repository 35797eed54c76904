package rest

import (
	"encoding/json"
	"fmt"
	"strings"

	gojson "github.com/goccy/go-json"

	"salesplatform/domain/checkout"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
	"salesplatform/domain/webhooks"
)

// WebhookData is a webhook event's data: its resource encoded by the
// encoder of the REST answer for that resource, so a consumer parses the
// shape it reads over REST (persistence.SetWebhookRenderer). A resource of
// a type no event carries, or of another family than the event's type
// (the part before the dot), is an error.
func WebhookData(eventType string, resource any) (json.RawMessage, error) {
	var out any
	family := ""
	switch r := resource.(type) {
	case *checkout.Order:
		family, out = "order", toJSONOrder(r)
	case *payments.Payment:
		family, out = "payment", toJSONPayment(r)
	case *payments.Refund:
		family, out = "refund", toJSONRefund(r)
	case *network.Giftcard:
		family, out = "network_giftcard", toJSONNetworkGiftcard(r)
	case *network.Usage:
		family, out = "network_giftcard", toJSONNetworkGiftcardUsage(r)
	case *network.VoucherUsage:
		family, out = "network_voucher", toJSONNetworkVoucherUsage(r)
	case *payments.Payout:
		family, out = "payout_request", toJSONPayout(r)
	case *payments.PaymentRequest:
		family, out = "payment_request", toJSONPaymentRequest(r)
	case *payments.Partner:
		family, out = "partner", toJSONPaymentPartner(r)
	case *webhooks.Endpoint:
		// The test event's: the endpoint's record, never its secret.
		family, out = "webhook", toJSONWebhookEndpoint(r)
	default:
		return nil, fmt.Errorf("webhook data: no REST record of %T", resource)
	}
	if f, _, _ := strings.Cut(eventType, "."); f != family {
		return nil, fmt.Errorf("webhook data: a %T is no %s event's resource", resource, eventType)
	}
	b, err := gojson.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("webhook data of %s: %w", eventType, err)
	}
	return b, nil
}
