package rest

import (
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"salesplatform/domain/webhooks"
)

// Webhook endpoints (docs/API.md, "Webhooks"): where a partner's events
// are sent, and the secret that signs them, shown only when made.

func registerWebhookRoutes(r *mux.Router, a *api) {
	handleWithToken(r, "/api/webhooks/endpoints/", a.handleWebhookEndpointList, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/webhooks/endpoints/", a.handleWebhookEndpointCreate, http.MethodPost)
	handleWithToken(r, "/api/webhooks/endpoints/{id:[0-9]+}/", a.handleWebhookEndpointGet, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/webhooks/endpoints/{id:[0-9]+}/", a.handleWebhookEndpointUpdate, http.MethodPatch)
	handleWithToken(r, "/api/webhooks/endpoints/{id:[0-9]+}/", a.handleWebhookEndpointDelete, http.MethodDelete)
	handleWithToken(r, "/api/webhooks/endpoints/{id:[0-9]+}/rotate_secret/", a.handleWebhookEndpointRotate, http.MethodPost)
	registerWebhookAttemptRoutes(r, a)
}

type jsonWebhookEndpoint struct {
	ID          int64     `json:"id"`
	URL         string    `json:"url"`
	Events      []string  `json:"events"`
	Description string    `json:"description"`
	IsActive    bool      `json:"is_active"`
	CreatedOn   time.Time `json:"created_on"`
	// Secret is shown by creation and rotation only.
	Secret string `json:"secret,omitempty"`
}

func toJSONWebhookEndpoint(e *webhooks.Endpoint) jsonWebhookEndpoint {
	return jsonWebhookEndpoint{ID: e.ID, URL: e.URL, Events: e.Events, Description: e.Description,
		IsActive: e.IsActive, CreatedOn: e.CreatedOn}
}

func toJSONWebhookEndpointWithSecret(e *webhooks.Endpoint) jsonWebhookEndpoint {
	out := toJSONWebhookEndpoint(e)
	out.Secret = e.Secret
	return out
}

// handleWebhookEndpointList is GET /api/webhooks/endpoints/.
func (a *api) handleWebhookEndpointList(w http.ResponseWriter, r *http.Request) {
	page, err := pageRequest(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	endpoints, err := a.Webhooks.Endpoints(r.Context(), page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONPage(r, endpoints, toJSONWebhookEndpoint))
}

// handleWebhookEndpointCreate is POST /api/webhooks/endpoints/: 201, with
// the secret.
func (a *api) handleWebhookEndpointCreate(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	e, err := a.Webhooks.CreateEndpoint(r.Context(), decodeWebhookEndpoint(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, toJSONWebhookEndpointWithSecret(e))
}

// handleWebhookEndpointGet is GET /api/webhooks/endpoints/{id}/.
func (a *api) handleWebhookEndpointGet(w http.ResponseWriter, r *http.Request) {
	e, err := a.Webhooks.Endpoint(r.Context(), pathID(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONWebhookEndpoint(e))
}

// handleWebhookEndpointUpdate is PATCH /api/webhooks/endpoints/{id}/.
func (a *api) handleWebhookEndpointUpdate(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	e, err := a.Webhooks.UpdateEndpoint(r.Context(), pathID(r), decodeWebhookEndpoint(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONWebhookEndpoint(e))
}

// handleWebhookEndpointDelete is DELETE /api/webhooks/endpoints/{id}/: 204.
func (a *api) handleWebhookEndpointDelete(w http.ResponseWriter, r *http.Request) {
	if err := a.Webhooks.DeleteEndpoint(r.Context(), pathID(r)); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleWebhookEndpointRotate is POST
// /api/webhooks/endpoints/{id}/rotate_secret/: the endpoint with its new
// secret.
func (a *api) handleWebhookEndpointRotate(w http.ResponseWriter, r *http.Request) {
	e, err := a.Webhooks.RotateSecret(r.Context(), pathID(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONWebhookEndpointWithSecret(e))
}
