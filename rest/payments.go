package rest

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"salesplatform/domain/l10n"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
)

// The payment hub's payments, their refunds and transactions.
func registerPaymentRoutes(r *mux.Router, a *api) {
	handleWithToken(r, "/api/payment_hub/payments/", idempotent(a.handlePaymentCreate), http.MethodPost)
	handleWithToken(r, "/api/payment_hub/payments/", a.handlePaymentList, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/payment_hub/payments/{id}/", a.handlePaymentGet, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/payment_hub/payments/{id}/", a.handlePaymentUpdate, http.MethodPatch)
	handleWithToken(r, "/api/payment_hub/payments/{id}/refund/", idempotent(a.handlePaymentRefund), http.MethodPost)
	handleWithToken(r, "/api/payment_hub/payments/{id}/transactions/", a.handlePaymentTransactions, http.MethodGet, http.MethodHead)
}

// jsonPayment is the payment record with its creation fields
// (payment_receipt_description, freeze_payout_date) and this service's
// additions: payin_url, where the card holder pays while the payment is
// in progress, and paid_on.
type jsonPayment struct {
	ID                          string           `json:"id"`
	Status                      string           `json:"status"`
	Currency                    string           `json:"currency"`
	PaymentReceiptPDFFile       *string          `json:"payment_receipt_pdf_file"`
	Customer                    network.Customer `json:"customer"`
	Origin                      string           `json:"origin"`
	PayoutRequestID             *int64           `json:"payout_request_id"`
	PayoutRequestStatus         *string          `json:"payout_request_status"`
	PayoutRequestCreationDate   any              `json:"payout_request_creation_date"`
	PayoutRequestValidationDate any              `json:"payout_request_validation_date"`
	Partner                     int64            `json:"partner"`
	PartnerUUID                 string           `json:"partner_uuid"`
	CreatedOn                   any              `json:"created_on"`
	ModifiedOn                  any              `json:"modified_on"`
	Amount                      string           `json:"amount"`
	Discount                    string           `json:"discount"`
	Commission                  json.Number      `json:"commission"`
	NetAmount                   json.Number      `json:"net_amount"`
	RefundedAmount              json.Number      `json:"refunded_amount"`
	Type                        string           `json:"type"`
	Product                     string           `json:"product"`
	ExtraSourceAmount           json.Number      `json:"extra_source_amount"`
	ExtraSourceWallet           *int64           `json:"extra_source_wallet"`
	ExtraSourceWalletUUID       *string          `json:"extra_source_wallet_uuid"`
	PayinResultCode             string           `json:"payin_result_code"`
	PayinResultMessage          string           `json:"payin_result_message"`
	PaymentRequestID            *int64           `json:"payment_request_id"`
	PaymentReceiptDescription   string           `json:"payment_receipt_description"`
	FreezePayoutDate            any              `json:"freeze_payout_date"`
	PayinURL                    *string          `json:"payin_url"`
	PaidOn                      any              `json:"paid_on"`
}

func toJSONPayment(p *payments.Payment) jsonPayment {
	out := jsonPayment{ID: p.UUID.String(), Status: p.Status, Currency: p.Currency, Customer: p.Customer,
		Origin: p.Origin, Partner: p.PartnerID, PartnerUUID: p.PartnerUUID.String(),
		CreatedOn: jsonTime(&p.CreatedOn, time.UTC), ModifiedOn: jsonTime(&p.ModifiedOn, time.UTC),
		Amount: p.Amount.StringFixed(2), Discount: p.Discount.StringFixed(2), Commission: jsonMoneyNumber(p.Commission),
		NetAmount: jsonMoneyNumber(p.NetAmount), RefundedAmount: jsonMoneyNumber(p.RefundedAmount), Type: p.Type,
		Product: p.Product, ExtraSourceAmount: jsonMoneyNumber(p.ExtraSourceAmount), ExtraSourceWallet: p.ExtraSourceWalletID,
		PayinResultCode: p.PayinResultCode, PayinResultMessage: p.PayinResultMessage, PaymentRequestID: p.PaymentRequestID,
		PaymentReceiptDescription: p.ReceiptDescription, FreezePayoutDate: jsonTime(p.FreezePayoutDate, time.UTC),
		PaidOn: jsonTime(p.PaidOn, time.UTC), PayoutRequestCreationDate: nil, PayoutRequestValidationDate: nil}
	if p.ExtraSourceWalletUUID != nil {
		s := p.ExtraSourceWalletUUID.String()
		out.ExtraSourceWalletUUID = &s
	}
	if p.Payout != nil {
		out.PayoutRequestID, out.PayoutRequestStatus = &p.Payout.ID, &p.Payout.Status
		out.PayoutRequestCreationDate = jsonTime(&p.Payout.CreationDate, time.UTC)
		out.PayoutRequestValidationDate = jsonTime(p.Payout.ValidationDate, time.UTC)
	}
	if p.PayinURL != "" {
		out.PayinURL = &p.PayinURL
	}
	return out
}

// handlePaymentCreate is POST /api/payment_hub/payments/: 201, the
// payment, and its Location.
func (a *api) handlePaymentCreate(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	p, err := a.Payments.CreatePayment(r.Context(), decodePaymentInput(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Location", "/api/payment_hub/payments/"+p.UUID.String()+"/")
	writeJSON(w, http.StatusCreated, toJSONPayment(p))
}

// handlePaymentList is GET /api/payment_hub/payments/: a Page of payments.
func (a *api) handlePaymentList(w http.ResponseWriter, r *http.Request) {
	page, err := pageRequest(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	q := r.URL.Query()
	ps, err := a.Payments.Payments(r.Context(), payments.PaymentListInput{
		CreatedOnGte: q.Get("created_on__gte"), CreatedOnLte: q.Get("created_on__lte"), CreatedOnRange: q.Get("created_on__range"), PartnerUUID: q.Get("partner_uuid"),
		Status: q.Get("status"), StatusIn: q.Get("status__in"), PayoutRequestStatus: q.Get("payout_request_status"),
		PayoutRequestStatusIn: q.Get("payout_request_status__in"), CustomerFirstName: q.Get("customer_first_name"),
		CustomerLastName: q.Get("customer_last_name"), CustomerEmail: q.Get("customer_email"),
		PartiallyRefunded: q.Get("partially_refunded"), FullyRefunded: q.Get("fully_refunded"),
	}, page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toAdminPage(r, ps, toJSONPayment))
}

// handlePaymentGet is GET /api/payment_hub/payments/{id}/.
func (a *api) handlePaymentGet(w http.ResponseWriter, r *http.Request) {
	id, err := pathUUID(r, "id")
	if err == nil {
		var p *payments.Payment
		if p, err = a.Payments.Payment(r.Context(), id); err == nil {
			writeJSON(w, http.StatusOK, toJSONPayment(p))
			return
		}
	}
	writeError(w, r, err)
}

// handlePaymentUpdate is PATCH /api/payment_hub/payments/{id}/ with
// {freeze_payout_date}: 200 {id, freeze_payout_date}.
func (a *api) handlePaymentUpdate(w http.ResponseWriter, r *http.Request) {
	id, err := pathUUID(r, "id")
	if err != nil {
		writeError(w, r, err)
		return
	}
	doc, ok := decodeFlat(w, r)
	if !ok {
		return
	}
	p, err := a.Payments.UpdateFreezeDate(r.Context(), id, decodeFreezeDate(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": p.UUID.String(),
		"freeze_payout_date": jsonTime(p.FreezePayoutDate, time.UTC)})
}

// handlePaymentRefund is POST /api/payment_hub/payments/{id}/refund/: 200
// {status, detail} (status succeeded, failed when the provider refused,
// pending when it did not answer) and this service's refund_id.
func (a *api) handlePaymentRefund(w http.ResponseWriter, r *http.Request) {
	id, err := pathUUID(r, "id")
	if err != nil {
		writeError(w, r, err)
		return
	}
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	ref, err := a.Payments.RefundPayment(r.Context(), id, decodeRefundInput(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONRefund(ref))
}

// jsonRefund is a refund's answer: {status, detail} and this service's
// refund_id, in the order its clients have always read them.
type jsonRefund struct {
	Detail   string `json:"detail"`
	RefundID string `json:"refund_id"`
	Status   string `json:"status"`
}

func toJSONRefund(ref *payments.Refund) jsonRefund {
	return jsonRefund{Status: ref.Status, Detail: ref.Detail(), RefundID: ref.UUID.String()}
}

// jsonTransaction is the transaction record.
type jsonTransaction struct {
	ID             int64            `json:"id"`
	CreatedOn      any              `json:"created_on"`
	Type           string           `json:"type"`
	PaymentMethod  string           `json:"payment_method"`
	Status         string           `json:"status"`
	Amount         json.Number      `json:"amount"`
	Commission     json.Number      `json:"commission"`
	NetAmount      json.Number      `json:"net_amount"`
	Currency       string           `json:"currency"`
	CurrencySymbol string           `json:"currency_symbol"`
	Partner        int64            `json:"partner"`
	PaymentID      string           `json:"payment_id"`
	Customer       network.Customer `json:"customer"`
}

// handlePaymentTransactions is GET
// /api/payment_hub/payments/{id}/transactions/: an array (a payment has
// at most payments.MaxRefundsPerPayment refunds, so it is bounded).
func (a *api) handlePaymentTransactions(w http.ResponseWriter, r *http.Request) {
	id, err := pathUUID(r, "id")
	if err != nil {
		writeError(w, r, err)
		return
	}
	ts, err := a.Payments.Transactions(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]jsonTransaction, len(ts))
	for i, t := range ts {
		out[i] = jsonTransaction{ID: t.ID, CreatedOn: jsonTime(&t.CreatedOn, time.UTC), Type: t.Type,
			PaymentMethod: t.PaymentMethod, Status: t.Status, Amount: jsonMoneyNumber(t.Amount),
			Commission: jsonMoneyNumber(t.Commission), NetAmount: jsonMoneyNumber(t.NetAmount), Currency: t.Currency,
			CurrencySymbol: l10n.CurrencySymbol(t.Currency), Partner: t.PartnerID, PaymentID: t.PaymentUUID.String(),
			Customer: t.Customer}
	}
	writeJSON(w, http.StatusOK, out)
}
