package graph

import (
	"context"
	"salesplatform/domain"
	"salesplatform/domain/webhooks"
	"salesplatform/graph/model"

	"github.com/google/uuid"
)

// CreateWebhookEndpoint is the resolver for the createWebhookEndpoint field.
func (r *mutationResolver) CreateWebhookEndpoint(ctx context.Context, input model.CreateWebhookEndpointInput) (*model.CreateWebhookEndpointPayload, error) {
	e, secret, ue, err := webhookSecretPayload(r.Webhooks.CreateEndpoint(ctx, createWebhookEndpointInput(input)))
	return &model.CreateWebhookEndpointPayload{Endpoint: e, Secret: secret, UserErrors: ue, Errors: ue}, err
}

// UpdateWebhookEndpoint is the resolver for the updateWebhookEndpoint field.
func (r *mutationResolver) UpdateWebhookEndpoint(ctx context.Context, input model.UpdateWebhookEndpointInput) (*model.WebhookEndpointPayload, error) {
	id, err := webhookEndpointID(input.ID)
	if err != nil {
		return nil, err
	}
	e, err := r.Webhooks.UpdateEndpoint(ctx, id, updateWebhookEndpointInput(input))
	out, ue, err := payloadOf(e, err, toGraphWebhookEndpoint)
	return &model.WebhookEndpointPayload{Endpoint: out, UserErrors: ue, Errors: ue}, err
}

// DeleteWebhookEndpoint is the resolver for the deleteWebhookEndpoint field.
func (r *mutationResolver) DeleteWebhookEndpoint(ctx context.Context, input model.WebhookEndpointRefInput) (*model.DeleteWebhookEndpointPayload, error) {
	id, err := webhookEndpointID(input.ID)
	if err != nil {
		return nil, err
	}
	if err := r.Webhooks.DeleteEndpoint(ctx, id); err != nil {
		ue, err := userErrors(err)
		return &model.DeleteWebhookEndpointPayload{UserErrors: ue, Errors: ue}, err
	}
	deleted := numericGlobalID("WebhookEndpoint", id)
	return &model.DeleteWebhookEndpointPayload{DeletedEndpointID: &deleted, UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// RotateWebhookEndpointSecret is the resolver for the rotateWebhookEndpointSecret field.
func (r *mutationResolver) RotateWebhookEndpointSecret(ctx context.Context, input model.WebhookEndpointRefInput) (*model.RotateWebhookEndpointSecretPayload, error) {
	id, err := webhookEndpointID(input.ID)
	if err != nil {
		return nil, err
	}
	e, secret, ue, err := webhookSecretPayload(r.Webhooks.RotateSecret(ctx, id))
	return &model.RotateWebhookEndpointSecretPayload{Endpoint: e, Secret: secret, UserErrors: ue, Errors: ue}, err
}

// ResendWebhookEvents is the resolver for the resendWebhookEvents field.
func (r *mutationResolver) ResendWebhookEvents(ctx context.Context, input model.ResendWebhookEventsInput) (*model.ResendWebhookEventsPayload, error) {
	id, err := webhookEndpointID(input.EndpointID)
	if err != nil {
		return nil, err
	}
	n, err := r.Webhooks.Resend(ctx, id, resendWebhookInput(input))
	if err != nil {
		ue, err := userErrors(err)
		return &model.ResendWebhookEventsPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.ResendWebhookEventsPayload{Resent: &n, UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// SendWebhookTestEvent is the resolver for the sendWebhookTestEvent field.
func (r *mutationResolver) SendWebhookTestEvent(ctx context.Context, input model.WebhookEndpointRefInput) (*model.SendWebhookTestEventPayload, error) {
	id, err := webhookEndpointID(input.ID)
	if err != nil {
		return nil, err
	}
	event, err := r.Webhooks.SendTest(ctx, id)
	if err != nil {
		ue, err := userErrors(err)
		return &model.SendWebhookTestEventPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.SendWebhookTestEventPayload{EventID: &event, UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// WebhookEndpoints is the resolver for the webhookEndpoints field.
func (r *queryResolver) WebhookEndpoints(ctx context.Context, first *int, after *string, last *int, before *string) (*model.WebhookEndpointConnection, error) {
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*webhooks.Endpoint], error) {
		return r.Webhooks.Endpoints(ctx, p)
	})
	if err != nil {
		return nil, err
	}
	return webhookEndpointConnection(w, page), nil
}

// WebhookEndpoint is the resolver for the webhookEndpoint field.
func (r *queryResolver) WebhookEndpoint(ctx context.Context, id string) (*model.WebhookEndpoint, error) {
	key, err := lookupKey("WebhookEndpoint", id)
	if err != nil {
		return nil, err
	}
	return r.webhookEndpoint(ctx, key)
}

// WebhookAttempts is the resolver for the webhookAttempts field.
func (r *queryResolver) WebhookAttempts(ctx context.Context, endpointID string, event *uuid.UUID, first *int, after *string, last *int, before *string) (*model.WebhookAttemptConnection, error) {
	id, err := webhookEndpointID(endpointID)
	if err != nil {
		return nil, err
	}
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*webhooks.Attempt], error) {
		return r.Webhooks.Attempts(ctx, id, webhooks.AttemptFilter{Event: event}, p)
	})
	if err != nil {
		return nil, err
	}
	return webhookAttemptConnection(w, page), nil
}

// WebhookEventTypes is the resolver for the webhookEventTypes field.
func (r *queryResolver) WebhookEventTypes(ctx context.Context, first *int, after *string, last *int, before *string) (*model.WebhookEventTypeConnection, error) {
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[webhooks.EventType], error) {
		return r.Webhooks.EventTypes(ctx, p)
	})
	if err != nil {
		return nil, err
	}
	return webhookEventTypeConnection(w, page), nil
}

// Field is the resolver for the field field.
func (r *webhookErrorResolver) Field(ctx context.Context, obj *model.UserError) ([]string, error) {
	return inputPath(ctx, obj.Field), nil
}

// Code is the resolver for the code field.
func (r *webhookErrorResolver) Code(ctx context.Context, obj *model.UserError) (model.WebhookErrorCode, error) {
	return errorCode[model.WebhookErrorCode](obj.Code), nil
}

// WebhookError returns WebhookErrorResolver implementation.
func (r *Resolver) WebhookError() WebhookErrorResolver { return &webhookErrorResolver{r} }

type webhookErrorResolver struct{ *Resolver }
