package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"salesplatform/domain/webhooks"
)

// The event types an endpoint may subscribe to, each with an example of
// its body (docs/API.md, "Webhooks").
func registerWebhookEventTypeRoutes(r *mux.Router, a *api) {
	handleWithToken(r, "/api/webhooks/event_types/", a.handleWebhookEventTypes, http.MethodGet, http.MethodHead)
}

// jsonWebhookEventType is an event type, what it tells, and an example of
// its body.
type jsonWebhookEventType struct {
	Type        string           `json:"type"`
	Description string           `json:"description"`
	Example     jsonWebhookEvent `json:"example"`
}

// jsonWebhookEvent is an event's body as it is delivered
// (persistence.WebhookEvents writes it).
type jsonWebhookEvent struct {
	Type      string          `json:"type"`
	Timestamp time.Time       `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
}

// exampleTimestamp is the examples' time of publication.
var exampleTimestamp = time.Date(2026, 11, 24, 10, 32, 5, 123456000, time.UTC)

// webhookExampleBody is an example body of eventType, its data rendered
// from a sample resource by WebhookData, as a real event's is.
func webhookExampleBody(eventType string) (jsonWebhookEvent, error) {
	resource := webhookExample(eventType)
	if resource == nil {
		return jsonWebhookEvent{}, fmt.Errorf("webhook event types: no example of %s", eventType)
	}
	data, err := WebhookData(eventType, resource)
	if err != nil {
		return jsonWebhookEvent{}, err
	}
	return jsonWebhookEvent{Type: eventType, Timestamp: exampleTimestamp, Data: data}, nil
}

// handleWebhookEventTypes is GET /api/webhooks/event_types/: a page of the
// event types, in their catalog's order.
func (a *api) handleWebhookEventTypes(w http.ResponseWriter, r *http.Request) {
	page, err := pageRequest(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	types, err := a.Webhooks.EventTypes(r.Context(), page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := toJSONPage(r, types, func(t webhooks.EventType) jsonWebhookEventType {
		return jsonWebhookEventType{Type: t.Type, Description: t.Description}
	})
	for i := range out.Results {
		if out.Results[i].Example, err = webhookExampleBody(out.Results[i].Type); err != nil {
			writeError(w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, out)
}
