package psp

import (
	"context"
	"html/template"
	"net/http"
	"net/url"

	"salesplatform/domain"
	"salesplatform/domain/payments"
	"salesplatform/rest/pagesecurity"
)

// Callbacks are how the simulated provider tells the hub that a record
// changed on its pages, as a provider's webhooks would: by reference
// only, the hub reading the outcome from the provider. A nil callback is
// not called.
type Callbacks struct {
	// ActivationChanged is told an activation the legal representative
	// answered (payments.HubPartnerService.SyncActivation).
	ActivationChanged func(ctx context.Context, ref string) error
	// PayinChanged is told a pay-in the card holder paid on the card page
	// or whose 3-D Secure challenge they answered
	// (payments.PaymentService.SyncPayin).
	PayinChanged func(ctx context.Context, ref string) error
}

// maxFormBytes bounds a page's form: one field of a few bytes.
const maxFormBytes = 1 << 10

// Handler serves the provider's pages under PagePrefix, for people, not
// API clients: GET shows a page, POST its form's answer, then 303 to the
// page, which shows the outcome.
//
//   - activations/{ref}/: the legal representative verifies their
//     identity (decision=verify) or refuses (decision=refuse);
//   - 3ds/{ref}/: the card holder passes the 3-D Secure challenge
//     (decision=authenticate) or fails it (decision=fail);
//   - card/{ref}/: the card holder types their card (card_number), which
//     scripts the pay-in as in Charge; a 3-D Secure card goes on to its
//     challenge page.
//
// Once a pay-in has ended, its pages send the card holder (303) to the
// charge's ReturnURL when it named one, as a provider's hosted page
// returns to the shop.
//
// The reference, 128 random bits, is the page's only credential, as in a
// provider's hosted page.
func (s *Sim) Handler(cb Callbacks) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+PagePrefix+"activations/{ref}/", func(w http.ResponseWriter, r *http.Request) {
		a, err := s.findActivation(r.Context(), r.PathValue("ref"))
		if err != nil {
			s.fail(w, err)
			return
		}
		render(w, http.StatusOK, activationPage, a)
	})
	mux.HandleFunc("POST "+PagePrefix+"activations/{ref}/", func(w http.ResponseWriter, r *http.Request) {
		ref := r.PathValue("ref")
		verify, ok := decision(w, r, "verify", "refuse")
		if !ok {
			return
		}
		if _, err := s.findActivation(r.Context(), ref); err != nil {
			s.fail(w, err)
			return
		}
		if err := s.answerActivation(r.Context(), ref, verify); err != nil {
			s.fail(w, err)
			return
		}
		answered(w, r, cb.ActivationChanged, ref)
	})
	mux.HandleFunc("GET "+PagePrefix+"3ds/{ref}/", func(w http.ResponseWriter, r *http.Request) {
		p, err := s.findPayin(r.Context(), s.db, r.PathValue("ref"), false)
		if err != nil {
			s.fail(w, err)
			return
		}
		if p.ended() && p.ReturnURL != "" {
			http.Redirect(w, r, p.ReturnURL, http.StatusSeeOther) // back to the shop
			return
		}
		renderWith(w, http.StatusOK, payinPolicy(p), threeDSPage, p)
	})
	mux.HandleFunc("POST "+PagePrefix+"3ds/{ref}/", func(w http.ResponseWriter, r *http.Request) {
		ref := r.PathValue("ref")
		authenticated, ok := decision(w, r, "authenticate", "fail")
		if !ok {
			return
		}
		if _, err := s.findPayin(r.Context(), s.db, ref, false); err != nil {
			s.fail(w, err)
			return
		}
		if err := s.answerThreeDSecure(r.Context(), ref, authenticated); err != nil {
			s.fail(w, err)
			return
		}
		answered(w, r, cb.PayinChanged, ref)
	})
	mux.HandleFunc("GET "+PagePrefix+"card/{ref}/", func(w http.ResponseWriter, r *http.Request) {
		p, err := s.findPayin(r.Context(), s.db, r.PathValue("ref"), false)
		if err != nil {
			s.fail(w, err)
			return
		}
		switch {
		case p.ended() && p.ReturnURL != "":
			http.Redirect(w, r, p.ReturnURL, http.StatusSeeOther) // back to the shop
			return
		case p.Status == payments.PayinPending3DS:
			// The card asks for 3-D Secure: on to its challenge, as a
			// provider's hosted page goes on.
			http.Redirect(w, r, PagePrefix+"3ds/"+p.Ref+"/", http.StatusSeeOther)
			return
		}
		renderWith(w, http.StatusOK, payinPolicy(p), cardPage, p)
	})
	mux.HandleFunc("POST "+PagePrefix+"card/{ref}/", func(w http.ResponseWriter, r *http.Request) {
		ref := r.PathValue("ref")
		r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
		if err := r.ParseForm(); err != nil {
			render(w, http.StatusBadRequest, messagePage, "The form could not be read.")
			return
		}
		if _, err := s.findPayin(r.Context(), s.db, ref, false); err != nil {
			s.fail(w, err)
			return
		}
		if err := s.payWithCard(r.Context(), ref, r.PostForm.Get("card_number")); err != nil {
			s.fail(w, err)
			return
		}
		answered(w, r, cb.PayinChanged, ref)
	})
	mux.HandleFunc(PagePrefix, func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusNotFound, messagePage, "This page does not exist.")
	})
	return mux
}

// decision reads the form's decision: yes or no; anything else is
// answered 400 here (ok false).
func decision(w http.ResponseWriter, r *http.Request, yes, no string) (value, ok bool) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		render(w, http.StatusBadRequest, messagePage, "The form could not be read.")
		return false, false
	}
	switch r.PostForm.Get("decision") {
	case yes:
		return true, true
	case no:
		return false, true
	}
	render(w, http.StatusBadRequest, messagePage, "Choose one of the page's buttons.")
	return false, false
}

// answered tells the hub of the answer to ref and sends the browser back
// to the page. When the hub could not be told, the answer stays recorded
// here, and the hub reads it at its next request (ActivatePayments reads
// a pending activation from the provider): the page says so.
func answered(w http.ResponseWriter, r *http.Request, notify func(context.Context, string) error, ref string) {
	if notify != nil {
		if err := notify(r.Context(), ref); err != nil && !domain.IsCode(err, domain.CodeNotFound) {
			render(w, http.StatusBadGateway, messagePage,
				"Your answer is recorded, but the platform could not be told of it now: it will read it later.")
			return
		}
	}
	http.Redirect(w, r, r.URL.Path, http.StatusSeeOther)
}

func (s *Sim) fail(w http.ResponseWriter, err error) {
	if domain.IsCode(err, domain.CodeNotFound) {
		render(w, http.StatusNotFound, messagePage, "This page does not exist.")
		return
	}
	render(w, http.StatusInternalServerError, messagePage, "The simulated provider failed: try again.")
}

// pagePolicy: the layout's own style, forms posted to the page itself.
var pagePolicy = pagesecurity.Policy{Style: pagesecurity.StyleHashes(layout), FormAction: []string{pagesecurity.Self}}

// payinPolicy is the policy of a pay-in's page: its form's answer ends
// in a redirect to the charge's ReturnURL, which form-action must allow
// too (browsers check the redirects a form's submission follows).
func payinPolicy(p *payinRow) pagesecurity.Policy {
	u, err := url.Parse(p.ReturnURL)
	if p.ReturnURL == "" || err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return pagePolicy
	}
	policy := pagePolicy
	policy.FormAction = []string{pagesecurity.Self, u.Scheme + "://" + u.Host}
	return policy
}

// render writes a page. The reference in the URL is a credential: no
// cache keeps the page (the security headers keep it from referrers and
// frames).
func render(w http.ResponseWriter, status int, page *template.Template, data any) {
	renderWith(w, status, pagePolicy, page, data)
}

func renderWith(w http.ResponseWriter, status int, policy pagesecurity.Policy, page *template.Template, data any) {
	policy.Set(w.Header())
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = page.Execute(w, data) // the client went away
}

const layout = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{template "title" .}} · Simulated payment provider</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; color: #1d2330; }
.sim { background: #fff4d6; border: 1px solid #e8c66b; padding: .5rem .75rem; border-radius: .375rem; }
button { font-size: 1rem; padding: .5rem 1rem; margin-right: .5rem; cursor: pointer; }
dt { font-weight: 600; } dd { margin: 0 0 .5rem 0; }
</style>
</head>
<body>
<main>
<h1>{{template "title" .}}</h1>
<p class="sim">Simulated payment-service provider: nothing is verified and no money moves.</p>
{{template "body" .}}
</main>
</body>
</html>
`

var (
	activationPage = page(`{{define "title"}}Identity verification{{end}}
{{define "body"}}<dl>
<dt>Company</dt><dd>{{.CommercialName}}</dd>
<dt>Legal representative</dt><dd>{{.LegalRepresentative}} ({{.Email}})</dd>
</dl>
{{if eq .Status "` + payments.ActivationPendingUserAction + `"}}<p>Confirm that you are the company's legal representative to activate its payments.</p>
<form method="post">
<button type="submit" name="decision" value="verify">Verify my identity</button>
<button type="submit" name="decision" value="refuse">Refuse</button>
</form>{{else if eq .Status "` + payments.ActivationCompleted + `"}}<p id="outcome">Identity verified: the company's payments are activated. You may close this page.</p>
{{else}}<p id="outcome">The verification was refused: the company's payments are not activated.</p>{{end}}{{end}}`)

	threeDSPage = page(`{{define "title"}}3-D Secure{{end}}
{{define "body"}}<dl>
<dt>Amount</dt><dd>{{.Amount.StringFixed 2}} {{.Currency}}</dd>
<dt>Card</dt><dd>•••• {{.CardLast4}}</dd>
</dl>
{{if eq .Status "` + payments.PayinPending3DS + `"}}<form method="post">
<button type="submit" name="decision" value="authenticate">Authenticate</button>
<button type="submit" name="decision" value="fail">Fail the challenge</button>
</form>{{else if eq .Status "` + payments.PayinSucceeded + `"}}<p id="outcome">Payment authenticated. You may close this page.</p>
{{else}}<p id="outcome">The payment was not authenticated.</p>{{end}}{{end}}`)

	cardPage = page(`{{define "title"}}Card payment{{end}}
{{define "body"}}<dl>
<dt>Amount</dt><dd>{{.Amount.StringFixed 2}} {{.Currency}}</dd>
</dl>
{{if eq .Status "` + payments.PayinPendingCard + `"}}<form method="post">
<label for="card_number">Card number</label>
<input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" maxlength="23" required>
<button type="submit">Pay</button>
</form>{{else if eq .Status "` + payments.PayinSucceeded + `"}}<p id="outcome">Payment accepted. You may close this page.</p>
{{else}}<p id="outcome">The payment was refused: {{.ResultMessage}}</p>{{end}}{{end}}`)

	messagePage = page(`{{define "title"}}Simulated payment provider{{end}}
{{define "body"}}<p id="outcome">{{.}}</p>{{end}}`)
)

func page(body string) *template.Template {
	return template.Must(template.Must(template.New("layout").Parse(layout)).Parse(body))
}
