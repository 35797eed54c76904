package rest

import (
	"encoding/json"
	"html/template"
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"salesplatform/domain"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
	"salesplatform/rest/pagesecurity"
)

// The payment hub's payment requests (pay-by-link), and their public
// pages, where the customer pays.
func registerPaymentRequestRoutes(r *mux.Router, a *api) {
	const base = "/api/payment_hub/payment_requests/"
	handleWithToken(r, base, idempotent(a.handlePaymentRequestCreate), http.MethodPost)
	handleWithToken(r, base, a.handlePaymentRequestList, http.MethodGet, http.MethodHead)
	handleWithToken(r, base+"{id:[0-9]+}/", a.handlePaymentRequestGet, http.MethodGet, http.MethodHead)
	handleWithToken(r, base+"{id:[0-9]+}/payments/", a.handlePaymentRequestPayments, http.MethodGet, http.MethodHead)
	handlePage(r, "/pay/{code}/", a.handleRequestPage, http.MethodGet, http.MethodHead)
	handlePage(r, "/pay/{code}/", a.handleRequestPay, http.MethodPost)
}

// jsonPaymentRequest is the payment request record with this service's
// additions: partner, currency, language, invoicing_marketplace_id,
// paid_on and payment_url, the public page's address to send the
// customer.
type jsonPaymentRequest struct {
	ID                     int64            `json:"id"`
	Code                   string           `json:"code"`
	Status                 string           `json:"status"`
	Amount                 json.Number      `json:"amount"`
	Currency               string           `json:"currency"`
	CreatedOn              any              `json:"created_on"`
	ModifiedOn             any              `json:"modified_on"`
	Reference              string           `json:"reference"`
	Description            string           `json:"description"`
	Customer               network.Customer `json:"customer"`
	Partner                int64            `json:"partner"`
	PartnerUUID            string           `json:"partner_uuid"`
	Origin                 string           `json:"origin"`
	Product                string           `json:"product"`
	Language               string           `json:"language"`
	InvoicingMarketplaceID *int64           `json:"invoicing_marketplace_id"`
	PaidOn                 any              `json:"paid_on"`
	PaymentURL             string           `json:"payment_url"`
}

func toJSONPaymentRequest(p *payments.PaymentRequest) jsonPaymentRequest {
	return jsonPaymentRequest{ID: p.ID, Code: p.Code, Status: p.Status, Amount: jsonMoneyNumber(p.Amount),
		Currency: p.Currency, CreatedOn: jsonTime(&p.CreatedOn, time.UTC), ModifiedOn: jsonTime(&p.ModifiedOn, time.UTC),
		Reference: p.Reference, Description: p.Description, Customer: p.Customer, Partner: p.PartnerID,
		PartnerUUID: p.PartnerUUID.String(), Origin: p.Origin, Product: p.Product, Language: p.Language,
		InvoicingMarketplaceID: p.InvoicingMarketplaceID, PaidOn: jsonTime(p.PaidOn, time.UTC), PaymentURL: p.URL}
}

// handlePaymentRequestCreate is POST /api/payment_hub/payment_requests/:
// 201, the request, and its Location.
func (a *api) handlePaymentRequestCreate(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	p, err := a.Payments.CreatePaymentRequest(r.Context(), decodePaymentRequestInput(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Location", "/api/payment_hub/payment_requests/"+strconv.FormatInt(p.ID, 10)+"/")
	writeJSON(w, http.StatusCreated, toJSONPaymentRequest(p))
}

// handlePaymentRequestList is GET /api/payment_hub/payment_requests/: a
// Page of requests, narrowed by `search`.
func (a *api) handlePaymentRequestList(w http.ResponseWriter, r *http.Request) {
	page, err := pageRequest(r)
	if err == nil {
		var ps *domain.Page[*payments.PaymentRequest]
		if ps, err = a.Payments.PaymentRequests(r.Context(), r.URL.Query().Get("search"), page); err == nil {
			writeJSON(w, http.StatusOK, toAdminPage(r, ps, toJSONPaymentRequest))
			return
		}
	}
	writeError(w, r, err)
}

// handlePaymentRequestGet is GET /api/payment_hub/payment_requests/{id}/.
func (a *api) handlePaymentRequestGet(w http.ResponseWriter, r *http.Request) {
	p, err := a.Payments.PaymentRequest(r.Context(), pathID(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONPaymentRequest(p))
}

// handlePaymentRequestPayments is GET
// /api/payment_hub/payment_requests/{id}/payments/: an array, as the
// contract shows it (at most payments.MaxPaymentsPerRequest), newest
// first, with X-Total-Count.
func (a *api) handlePaymentRequestPayments(w http.ResponseWriter, r *http.Request) {
	page, err := arrayPage(r)
	if err == nil {
		var ps *domain.Page[*payments.Payment]
		if ps, err = a.Payments.PaymentRequestPayments(r.Context(), pathID(r), page); err == nil {
			writeArrayPage(w, r, ps, toJSONPayment)
			return
		}
	}
	writeError(w, r, err)
}

var requestPageTemplate = template.Must(template.ParseFS(templateFiles, "templates/payment_request.html"))

// requestPageData is the public page's template data.
type requestPageData struct {
	*payments.RequestPage
	Message string
}

// handleRequestPage is GET /pay/{code}/: the request's public page in
// its language (paid: the paid page, without the form).
func (a *api) handleRequestPage(w http.ResponseWriter, r *http.Request) {
	page, err := a.Payments.PaymentRequestPage(r.Context(), mux.Vars(r)["code"])
	if err != nil {
		requestPageError(w, r, err)
		return
	}
	renderRequestPage(w, r, http.StatusOK, requestPageData{RequestPage: page})
}

// handleRequestPay is POST /pay/{code}/ (the page's form): 303 to the
// provider's card page; a refusal shows the page again with what
// happened, in its language.
func (a *api) handleRequestPay(w http.ResponseWriter, r *http.Request) {
	code := mux.Vars(r)["code"]
	to, err := a.Payments.PayPaymentRequest(r.Context(), code)
	if err == nil {
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	de := domain.AsError(err)
	if de == nil || de.Code == domain.CodeNotFound {
		requestPageError(w, r, err)
		return
	}
	page, perr := a.Payments.PaymentRequestPage(r.Context(), code)
	if perr != nil {
		requestPageError(w, r, perr)
		return
	}
	data := requestPageData{RequestPage: page}
	status := statusOf[de.Code]
	switch {
	case de.Code == domain.CodeThrottled:
		data.Message = page.Texts.TooMany
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(de.RetryAfter.Seconds()))))
	case de.Message == payments.MsgRequestPaid:
		page.Paid = true // paid since the page was shown
	case de.Message == payments.MsgRequestAttempts:
		data.Message = page.Texts.NoMoreAttempt
	case de.Message == payments.MsgPartnerCannotTakePayments:
		data.Message = page.Texts.Unavailable
	default:
		logger(r).Error("payment request page", "error", err.Error())
		data.Message = page.Texts.TryAgain
		if status < http.StatusInternalServerError {
			status = http.StatusServiceUnavailable
		}
	}
	renderRequestPage(w, r, status, data)
}

// requestPageError answers a page for no request (an unknown code) or a
// failure, in English: there is no request's language to use.
func requestPageError(w http.ResponseWriter, r *http.Request, err error) {
	en := payments.TextsOf("en")
	if domain.IsCode(err, domain.CodeNotFound) {
		renderRequestMessage(w, r, http.StatusNotFound, "This payment request does not exist.")
		return
	}
	logger(r).Error("payment request page", "error", err.Error())
	renderRequestMessage(w, r, http.StatusInternalServerError, en.TryAgain)
}

var requestMessageTemplate = template.Must(template.New("message").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Payment request</title></head>
<body><main><p id="message">{{.}}</p></main></body></html>
`))

func renderRequestMessage(w http.ResponseWriter, r *http.Request, status int, msg string) {
	pagesecurity.Strict.Set(w.Header())
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if err := requestMessageTemplate.Execute(w, msg); err != nil {
		logger(r).Error("render payment request page", "error", err.Error())
	}
}

// requestPageStyles are the hashes of the page's own <style>.
var requestPageStyles = func() []string {
	b, err := templateFiles.ReadFile("templates/payment_request.html")
	if err != nil {
		panic(err)
	}
	return pagesecurity.StyleHashes(string(b))
}()

// renderRequestPage writes the page. Its code is a credential that no
// cache keeps (the security headers keep it from referrers and frames);
// its form posts to the page, which sends the customer on to the
// provider's card page.
func renderRequestPage(w http.ResponseWriter, r *http.Request, status int, data requestPageData) {
	forms := []string{pagesecurity.Self}
	if data.ProviderOrigin != "" {
		forms = append(forms, data.ProviderOrigin)
	}
	pagesecurity.Policy{Style: requestPageStyles, FormAction: forms}.Set(w.Header())
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if err := requestPageTemplate.Execute(w, data); err != nil {
		logger(r).Error("render payment request page", "error", err.Error())
	}
}
