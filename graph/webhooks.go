package graph

// Converters of the webhooks (webhooks.graphqls). The writes map their
// models onto the service's typed inputs, as REST's decoders do.

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"salesplatform/domain"
	"salesplatform/domain/webhooks"
	"salesplatform/graph/model"
)

func toGraphWebhookEndpoint(e *webhooks.Endpoint) *model.WebhookEndpoint {
	return &model.WebhookEndpoint{GlobalID: numericGlobalID("WebhookEndpoint", e.ID), ID: idString(e.ID), URL: e.URL,
		Events: e.Events, Description: e.Description, IsActive: e.IsActive, CreatedOn: e.CreatedOn.UTC()}
}

func toGraphWebhookAttempt(a *webhooks.Attempt) *model.WebhookAttempt {
	out := &model.WebhookAttempt{GlobalID: numericGlobalID("WebhookAttempt", a.ID), ID: idString(a.ID), EventID: a.EventID,
		EventType: a.EventType, AttemptedAt: a.At.UTC(), DurationMs: a.Duration.Milliseconds(), Response: a.Response,
		Error: a.Error, State: a.State}
	if a.StatusCode != 0 {
		code := a.StatusCode
		out.StatusCode = &code
	}
	return out
}

func webhookEndpointConnection(w window, page *domain.Page[*webhooks.Endpoint]) *model.WebhookEndpointConnection {
	edges, info := connect(w, page, func(c string, e *webhooks.Endpoint) *model.WebhookEndpointEdge {
		return &model.WebhookEndpointEdge{Cursor: c, Node: toGraphWebhookEndpoint(e)}
	})
	return &model.WebhookEndpointConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

func webhookAttemptConnection(w window, page *domain.Page[*webhooks.Attempt]) *model.WebhookAttemptConnection {
	edges, info := connect(w, page, func(c string, a *webhooks.Attempt) *model.WebhookAttemptEdge {
		return &model.WebhookAttemptEdge{Cursor: c, Node: toGraphWebhookAttempt(a)}
	})
	return &model.WebhookAttemptConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

func webhookEventTypeConnection(w window, page *domain.Page[webhooks.EventType]) *model.WebhookEventTypeConnection {
	edges, info := connect(w, page, func(c string, t webhooks.EventType) *model.WebhookEventTypeEdge {
		return &model.WebhookEventTypeEdge{Cursor: c, Node: &model.WebhookEventType{Type: t.Type, Description: t.Description}}
	})
	return &model.WebhookEventTypeConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

// webhookEndpointID is an endpoint's id as sent: its global id or its
// numeric id; one that names none is NOT_FOUND.
func webhookEndpointID(id string) (int64, error) {
	key, err := lookupKey("WebhookEndpoint", id)
	if err != nil {
		return 0, err
	}
	return parseID(key)
}

// webhookEndpoint is the lookup of the WebhookEndpoint Node type
// (graph/node.go) and of the webhookEndpoint field.
func (r *Resolver) webhookEndpoint(ctx context.Context, key string) (*model.WebhookEndpoint, error) {
	id, err := parseID(key)
	if err != nil {
		return nil, err
	}
	return converted(toGraphWebhookEndpoint)(r.Webhooks.Endpoint(ctx, id))
}

// webhookEvents is an events list: omitted is absent, null is null.
func webhookEvents(o graphql.Omittable[[]string]) domain.Optional[[]string] {
	v, ok := o.ValueOK()
	switch {
	case !ok:
		return domain.Optional[[]string]{}
	case v == nil:
		return domain.Null[[]string]()
	}
	return domain.Some(v)
}

func createWebhookEndpointInput(in model.CreateWebhookEndpointInput) webhooks.EndpointInput {
	return webhooks.EndpointInput{URL: domain.Some(in.URL), Events: webhookEvents(in.Events),
		Description: optional(in.Description), IsActive: optional(in.IsActive)}
}

func updateWebhookEndpointInput(in model.UpdateWebhookEndpointInput) webhooks.EndpointInput {
	return webhooks.EndpointInput{URL: optional(in.URL), Events: webhookEvents(in.Events),
		Description: optional(in.Description), IsActive: optional(in.IsActive)}
}

func resendWebhookInput(in model.ResendWebhookEventsInput) webhooks.ResendInput {
	return webhooks.ResendInput{EventID: optional(in.EventID), FailedSince: optional(in.FailedSince)}
}

// webhookSecretPayload is the endpoint of a create or a rotation and its
// secret, or the refusal.
func webhookSecretPayload(e *webhooks.Endpoint, err error) (*model.WebhookEndpoint, *string, []*model.UserError, error) {
	out, ue, err := payloadOf(e, err, toGraphWebhookEndpoint)
	if out == nil {
		return nil, nil, ue, err
	}
	return out, &e.Secret, ue, nil
}
