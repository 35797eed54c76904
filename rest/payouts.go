package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"salesplatform/domain/payments"
)

// The payment hub's payout requests.
func registerPayoutRoutes(r *mux.Router, a *api) {
	handleWithToken(r, "/api/payment_hub/payout_requests/", a.handlePayoutList, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/payment_hub/payout_requests/{id:[0-9]+}/", a.handlePayoutGet, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/payment_hub/payout_requests/{id:[0-9]+}/validate/", idempotent(a.handlePayoutValidate), http.MethodPost)
	handleWithToken(r, "/api/payment_hub/payout_requests/{id:[0-9]+}/paid/", idempotent(a.handlePayoutPaid), http.MethodPost)
	handleWithToken(r, "/api/payment_hub/payout_requests/{id:[0-9]+}/payments/", a.handlePayoutPayments, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/payment_hub/payout_requests/{id:[0-9]+}/usages/", a.handlePayoutUsages, http.MethodGet, http.MethodHead)
}

// jsonPayout is the payout request record (the contract shows its
// payments' payout_request_* fields only; the rest is this service's).
type jsonPayout struct {
	ID             int64       `json:"id"`
	UUID           string      `json:"uuid"`
	Partner        int64       `json:"partner"`
	PartnerUUID    string      `json:"partner_uuid"`
	Status         string      `json:"status"`
	Currency       string      `json:"currency"`
	Amount         json.Number `json:"amount"`
	UsagesAmount   json.Number `json:"usages_amount"`
	PaymentsCount  int         `json:"payments_count"`
	UsagesCount    int         `json:"usages_count"`
	PeriodStart    any         `json:"period_start"`
	PeriodEnd      any         `json:"period_end"`
	CreationDate   any         `json:"creation_date"`
	ValidationDate any         `json:"validation_date"`
	PaidDate       any         `json:"paid_date"`
}

func toJSONPayout(p *payments.Payout) jsonPayout {
	return jsonPayout{ID: p.ID, UUID: p.UUID.String(), Partner: p.PartnerID, PartnerUUID: p.PartnerUUID.String(),
		Status: p.Status, Currency: p.Currency, Amount: jsonMoneyNumber(p.Amount),
		UsagesAmount: jsonMoneyNumber(p.UsagesAmount), PaymentsCount: p.PaymentsCount, UsagesCount: p.UsagesCount,
		PeriodStart: jsonTime(&p.PeriodStart, time.UTC), PeriodEnd: jsonTime(&p.PeriodEnd, time.UTC),
		CreationDate: jsonTime(&p.CreationDate, time.UTC), ValidationDate: jsonTime(p.ValidationDate, time.UTC),
		PaidDate: jsonTime(p.PaidDate, time.UTC)}
}

// handlePayoutList is GET /api/payment_hub/payout_requests/: a Page of
// payout requests, newest first.
func (a *api) handlePayoutList(w http.ResponseWriter, r *http.Request) {
	page, err := pageRequest(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	q := r.URL.Query()
	ps, err := a.Payouts.Payouts(r.Context(), payments.PayoutListInput{CreationDateGte: q.Get("creation_date__gte"),
		CreationDateLte: q.Get("creation_date__lte"), CreationDateRange: q.Get("creation_date__range"), PartnerUUID: q.Get("partner_uuid"), Status: q.Get("status"),
		StatusIn: q.Get("status__in")}, page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toAdminPage(r, ps, toJSONPayout))
}

// handlePayoutGet is GET /api/payment_hub/payout_requests/{id}/.
func (a *api) handlePayoutGet(w http.ResponseWriter, r *http.Request) {
	p, err := a.Payouts.Payout(r.Context(), pathID(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONPayout(p))
}

// handlePayoutValidate is POST .../validate/ with {reason}: 200, the
// payout request.
func (a *api) handlePayoutValidate(w http.ResponseWriter, r *http.Request) {
	a.payoutChange(w, r, a.Payouts.ValidatePayout)
}

// handlePayoutPaid is POST .../paid/ with {reason}: 200, the payout
// request.
func (a *api) handlePayoutPaid(w http.ResponseWriter, r *http.Request) {
	a.payoutChange(w, r, a.Payouts.MarkPayoutPaid)
}

// payoutChange runs change on the path's payout request with the body
// (optional: {reason}) and answers it.
func (a *api) payoutChange(w http.ResponseWriter, r *http.Request,
	change func(ctx context.Context, id int64, in payments.PayoutChangeInput) (*payments.Payout, error)) {
	doc, ok := decodeOptionalFlat(w, r)
	if !ok {
		return
	}
	p, err := change(r.Context(), pathID(r), decodePayoutChange(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONPayout(p))
}

// handlePayoutPayments is GET .../payments/: a Page of the payout
// request's payments, newest first.
func (a *api) handlePayoutPayments(w http.ResponseWriter, r *http.Request) {
	page, err := pageRequest(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	ps, err := a.Payouts.PayoutPayments(r.Context(), pathID(r), page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toAdminPage(r, ps, toJSONPayment))
}

// handlePayoutUsages is GET /api/payment_hub/payout_requests/{id}/usages/
// (an addition): a Page of the network giftcard usages it counts.
func (a *api) handlePayoutUsages(w http.ResponseWriter, r *http.Request) {
	page, err := pageRequest(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	us, err := a.Payouts.PayoutUsages(r.Context(), pathID(r), page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toAdminPage(r, us, toJSONNetworkGiftcardUsage))
}
