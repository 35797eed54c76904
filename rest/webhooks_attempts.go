package rest

import (
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/mux"

	"salesplatform/domain/webhooks"
	"salesplatform/rest/drf"
)

// An endpoint's log of attempts, and what may be sent to it again
// (docs/API.md, "Webhooks").
func registerWebhookAttemptRoutes(r *mux.Router, a *api) {
	handleWithToken(r, "/api/webhooks/endpoints/{id:[0-9]+}/attempts/", a.handleWebhookAttempts, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/webhooks/endpoints/{id:[0-9]+}/resend/", a.handleWebhookResend, http.MethodPost)
	handleWithToken(r, "/api/webhooks/endpoints/{id:[0-9]+}/test/", a.handleWebhookTest, http.MethodPost)
}

type jsonWebhookAttempt struct {
	ID          int64     `json:"id"`
	EventID     uuid.UUID `json:"event_id"`
	EventType   string    `json:"event_type"`
	AttemptedAt time.Time `json:"attempted_at"`
	// StatusCode is null when no answer came.
	StatusCode *int   `json:"status_code"`
	DurationMS int64  `json:"duration_ms"`
	Response   string `json:"response"`
	Error      string `json:"error"`
	State      string `json:"state"`
}

func toJSONWebhookAttempt(at *webhooks.Attempt) jsonWebhookAttempt {
	out := jsonWebhookAttempt{ID: at.ID, EventID: at.EventID, EventType: at.EventType, AttemptedAt: at.At,
		DurationMS: at.Duration.Milliseconds(), Response: at.Response, Error: at.Error, State: at.State}
	if at.StatusCode != 0 {
		out.StatusCode = &at.StatusCode
	}
	return out
}

// handleWebhookAttempts is GET
// /api/webhooks/endpoints/{id}/attempts/?event=: the endpoint's attempts,
// newest first.
func (a *api) handleWebhookAttempts(w http.ResponseWriter, r *http.Request) {
	page, err := pageRequest(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var f webhooks.AttemptFilter
	if f.Event, err = uuidQuery(r, "event"); err != nil {
		writeError(w, r, err)
		return
	}
	attempts, err := a.Webhooks.Attempts(r.Context(), pathID(r), f, page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONPage(r, attempts, toJSONWebhookAttempt))
}

// handleWebhookResend is POST /api/webhooks/endpoints/{id}/resend/: 202
// {"resent": n}, the deliveries queued again.
func (a *api) handleWebhookResend(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	n, err := a.Webhooks.Resend(r.Context(), pathID(r), decodeWebhookResend(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]int{"resent": n})
}

// decodeWebhookResend reads a resend's body: event_id or failed_since.
func decodeWebhookResend(doc map[string]any) webhooks.ResendInput {
	var in webhooks.ResendInput
	d := drf.New(doc, &in.Refusals)
	in.EventID, in.FailedSince = d.UUID("event_id"), d.DateTime("failed_since")
	return in
}

// handleWebhookTest is POST /api/webhooks/endpoints/{id}/test/: 202
// {"event_id"}, a webhook.test event on its way to the endpoint alone.
func (a *api) handleWebhookTest(w http.ResponseWriter, r *http.Request) {
	id, err := a.Webhooks.SendTest(r.Context(), pathID(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]uuid.UUID{"event_id": id})
}
