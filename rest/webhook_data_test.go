package rest

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"salesplatform/domain/checkout"
	"salesplatform/domain/webhooks"
)

// Every event type has an example, rendered by WebhookData as its events
// are: a record with its id. (That the data is the REST record is
// tested end to end: the events of a checkout against its order's GET.)
func TestWebhookExamplesRender(t *testing.T) {
	for _, typ := range webhooks.EventTypes {
		body, err := webhookExampleBody(typ)
		if err != nil {
			t.Errorf("%s: %v", typ, err)
			continue
		}
		var data map[string]any
		if err := json.Unmarshal(body.Data, &data); err != nil || len(data) == 0 {
			t.Errorf("%s: data %s is no record (%v)", typ, body.Data, err)
		}
		if data["id"] == nil && data["refund_id"] == nil {
			t.Errorf("%s: data %s names no record", typ, body.Data)
		}
	}
}

func TestWebhookDataRefusals(t *testing.T) {
	if _, err := WebhookData("order.paid", struct{}{}); err == nil {
		t.Error("an unknown resource type rendered")
	}
	if _, err := WebhookData("payment.succeeded", &checkout.Order{}); err == nil {
		t.Error("an order rendered as a payment event")
	}
	e := &webhooks.Endpoint{ID: 3, URL: "https://hooks.example.com/in", Events: []string{}, IsActive: true,
		Secret: "whsec_secret", PreviousSecret: "whsec_old", CreatedOn: time.Now()}
	data, err := WebhookData(webhooks.TestEventType, e)
	if err != nil || strings.Contains(string(data), "whsec_") || !strings.Contains(string(data), `"url":"https://hooks.example.com/in"`) {
		t.Errorf("test event data %s, %v", data, err)
	}
}
