package rest

import (
	"salesplatform/domain/webhooks"
	"salesplatform/rest/drf"
)

// decodeWebhookEndpoint reads an endpoint body (POST and PATCH).
func decodeWebhookEndpoint(doc map[string]any) webhooks.EndpointInput {
	var in webhooks.EndpointInput
	d := drf.New(doc, &in.Refusals)
	in.URL, in.Description = d.String("url"), d.String("description")
	in.Events = stringList(d, "events", len(webhooks.EventTypes))
	in.IsActive = d.Bool("is_active")
	return in
}
