package rest

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/checkout"
	"salesplatform/domain/ecommerce"
	"salesplatform/rest/pagesecurity"
)

// funnelLine is a basket line as the steps show it.
type funnelLine struct {
	Index      int
	Name       string
	Available  bool
	Quantity   int64
	StockLeft  string // "Only N left", "" when the stock suffices
	UnitPrice  string
	Total      string
	QuantityIn funnelField
	Variant    *funnelSelect // nil for a product without variants
	Attributes []funnelSelect
}

// funnelField is a text input with its label and error.
type funnelField struct {
	Name, ID, Label, Type, Autocomplete, Value, Error, ErrorID, Hint, HintID string
	Required, Number                                                         bool
}

// funnelSelect is a select with its label and error.
type funnelSelect struct {
	Name, ID, Label, Error, ErrorID string
	Options                         []funnelOption
}

type funnelOption struct {
	Value, Label string
	Selected     bool
}

type funnelDelivery struct {
	Mode, ID, Label, Cost string
	Checked               bool
}

// handleFunnelCustomization is GET …/customization/?cart=: the cart's
// lines, their options and quantities, and the delivery modes.
func (a *api) handleFunnelCustomization(w http.ResponseWriter, r *http.Request) {
	fr, _, b, ok := a.funnelBasket(w, r)
	if !ok {
		return
	}
	fr.customizationPage(http.StatusOK, b, nil, nil, "")
}

// funnelBasket begins a step's GET: the request, its cart and the
// basket; ok is false when the answer is written already (an unknown
// cart, a redirect to name the cart, a failure).
func (a *api) funnelBasket(w http.ResponseWriter, r *http.Request) (fr *funnelRequest, id uuid.UUID, b *checkout.Basket, ok bool) {
	if fr, ok = a.newFunnelRequest(w, r); !ok {
		return nil, id, nil, false
	}
	id, handled := fr.cartID()
	if handled {
		return nil, id, nil, false
	}
	b, err := a.Checkout.Basket(r.Context(), fr.site, id)
	if err != nil {
		fr.failed(err)
		return nil, id, nil, false
	}
	return fr, id, b, true
}

// funnelForm begins a step's POST: the request, its cart and its form
// (token checked); ok as funnelBasket's.
func (a *api) funnelForm(w http.ResponseWriter, r *http.Request) (fr *funnelRequest, id uuid.UUID, form url.Values, ok bool) {
	if fr, ok = a.newFunnelRequest(w, r); !ok {
		return nil, id, nil, false
	}
	id, handled := fr.cartID()
	if handled {
		return nil, id, nil, false
	}
	if form, ok = fr.readForm(); !ok {
		return nil, id, nil, false
	}
	return fr, id, form, true
}

// handleFunnelCustomize is POST …/customization/?cart=: the form's
// changes (Customize), then the same page (action=update) or the
// information step (action=continue).
func (a *api) handleFunnelCustomize(w http.ResponseWriter, r *http.Request) {
	fr, id, form, ok := a.funnelForm(w, r)
	if !ok {
		return
	}
	in := decodeFunnelCustomization(form)
	b, err := a.Checkout.Customize(r.Context(), fr.site, id, in)
	if de := domain.AsError(err); de != nil && de.Code == domain.CodeInvalid {
		if b, err = a.Checkout.Basket(r.Context(), fr.site, id); err == nil {
			errs := fr.fieldErrors(de, func(path []any) string { return customizationField(in, path) })
			fr.customizationPage(http.StatusBadRequest, b, form, errs, fr.t.FixErrors)
			return
		}
	}
	if err != nil {
		fr.failed(err)
		return
	}
	if form.Get("action") != "continue" {
		fr.redirect(fr.stepURL(r.URL.Path, id))
		return
	}
	// The next step asks for what the delivery needs: a mode first.
	switch step, why := b.Reached(); {
	case step > checkout.StepCustomization:
		fr.redirect(fr.stepURL(fr.step(funnelInformationPath), id))
	case why == checkout.MsgChooseDelivery:
		fr.customizationPage(http.StatusBadRequest, b, nil, map[string]string{"delivery_mode": fr.refusal(why)}, fr.t.FixErrors)
	default:
		fr.customizationPage(http.StatusConflict, b, nil, nil, fr.t.Empty)
	}
}

// customizationField is the form field of a Customize error: its path
// names the position in in.Lines, the field the cart's line index.
func customizationField(in checkout.CustomizationInput, path []any) string {
	if len(path) < 2 || path[0] != "lines" {
		return ""
	}
	i, ok := path[1].(int)
	if !ok || i < 0 || i >= len(in.Lines) {
		return ""
	}
	rest := append([]any{"lines", in.Lines[i].Index}, path[2:]...)
	return domain.PathKey(rest)
}

func (fr *funnelRequest) customizationPage(status int, b *checkout.Basket, form url.Values, errs map[string]string, msg string) {
	p := &funnelPage{Lang: fr.lang, T: fr.t, Step: "customization", StepIndex: 1, Title: fr.t.CartTitle, Basket: b, Currency: b.Totals.Currency,
		Form: form, Errors: errs, Message: msg, Action: fr.stepURL(fr.r.URL.Path, b.CartID)}
	shown := map[string]bool{"delivery_mode": true}
	for _, l := range b.Lines {
		v := fr.lineView(p, l)
		shown[v.QuantityIn.Name] = true
		if v.Variant != nil {
			shown[v.Variant.Name] = true
		}
		for _, at := range v.Attributes {
			shown[at.Name] = true
		}
		p.Lines = append(p.Lines, v)
	}
	// An error of no field shown (a line gone meanwhile) is said above the
	// form.
	for _, k := range slices.Sorted(maps.Keys(errs)) {
		if !shown[k] {
			p.Message += " " + errs[k]
		}
	}
	for _, d := range b.Delivery {
		fd := funnelDelivery{Mode: d.Mode, ID: fieldID("delivery_mode." + d.Mode), Cost: fr.t.Free,
			Checked: p.Value("delivery_mode", b.DeliveryMode) == d.Mode}
		if !d.Cost.IsZero() {
			fd.Cost = p.Money(d.Cost)
		}
		switch d.Mode {
		case ecommerce.DeliveryEmail:
			fd.Label = fr.t.DeliveryEmail
		case ecommerce.DeliveryPostal:
			fd.Label = fill(fr.t.DeliveryPostal, "days", strconv.Itoa(d.Days))
		case ecommerce.DeliveryPickup:
			fd.Label = fill(fr.t.DeliveryPickup, "address", d.Address)
		default:
			fd.Label = d.Mode
		}
		p.Delivery = append(p.Delivery, fd)
	}
	fr.render(status, p)
}

func (fr *funnelRequest) lineView(p *funnelPage, l *checkout.Line) funnelLine {
	prefix := "lines." + strconv.Itoa(l.Index) + "."
	v := funnelLine{Index: l.Index, Name: "#" + strconv.FormatInt(l.ProductID, 10), Available: l.Available,
		Quantity: l.Quantity, UnitPrice: p.Money(l.UnitPrice), Total: p.Money(l.Total),
		QuantityIn: p.field(prefix+"quantity", fr.t.Quantity, "number", "", strconv.FormatInt(l.Quantity, 10), true)}
	v.QuantityIn.Hint = fr.t.QuantityHint
	if l.StockLeft != nil {
		v.StockLeft = fill(fr.t.OnlyLeft, "n", strconv.FormatInt(*l.StockLeft, 10))
	}
	if l.Product == nil {
		return v
	}
	if name := localized(l.Product.Name, fr.lang); name != "" {
		v.Name = name
	}
	if len(l.Product.Variants) > 0 {
		chosen := ""
		if l.VariantID != nil {
			chosen = strconv.FormatInt(*l.VariantID, 10)
		}
		sel := p.selectOf(prefix+"variant_id", fr.t.Variant)
		chosen = p.Value(sel.Name, chosen)
		if chosen == "" {
			sel.Options = append(sel.Options, funnelOption{Label: fr.t.Choose, Selected: true})
		}
		for _, pv := range l.Product.Variants {
			value := strconv.FormatInt(pv.ID, 10)
			if pv.Active || value == chosen {
				sel.Options = append(sel.Options, funnelOption{Value: value, Label: localized(pv.Name, fr.lang), Selected: value == chosen})
			}
		}
		v.Variant = &sel
	}
	for _, at := range l.Product.Attributes {
		sel := p.selectOf(prefix+"attribute_values."+strconv.FormatInt(at.ID, 10), localized(at.Name, fr.lang))
		chosen := p.Value(sel.Name, l.AttributeValues[at.ID])
		if chosen == "" {
			sel.Options = append(sel.Options, funnelOption{Label: fr.t.Choose, Selected: true})
		}
		for _, val := range at.Values {
			sel.Options = append(sel.Options, funnelOption{Value: val, Label: val, Selected: val == chosen})
		}
		v.Attributes = append(v.Attributes, sel)
	}
	return v
}

// handleFunnelInformation is GET …/information/?cart=: the buyer, and
// the address (postal mode) or the beneficiary (e-mail mode).
func (a *api) handleFunnelInformation(w http.ResponseWriter, r *http.Request) {
	fr, id, b, ok := a.funnelBasket(w, r)
	if !ok {
		return
	}
	if step, _ := b.Reached(); step < checkout.StepInformation {
		fr.redirect(fr.stepURL(fr.step(funnelCustomizationPath), id))
		return
	}
	fr.informationPage(http.StatusOK, b, nil, nil, "")
}

// handleFunnelInform is POST …/information/?cart=: Inform, then the
// payment step.
func (a *api) handleFunnelInform(w http.ResponseWriter, r *http.Request) {
	fr, id, form, ok := a.funnelForm(w, r)
	if !ok {
		return
	}
	in := decodeFunnelInformation(form)
	in.Language = fr.lang
	_, err := a.Checkout.Inform(r.Context(), fr.site, id, in)
	if de := domain.AsError(err); de != nil && (de.Code == domain.CodeInvalid || de.Code == domain.CodeConflict) {
		b, berr := a.Checkout.Basket(r.Context(), fr.site, id)
		if berr != nil {
			fr.failed(berr)
			return
		}
		if de.Code == domain.CodeConflict {
			fr.informationPage(http.StatusConflict, b, form, nil, fr.refusal(de.Message))
			return
		}
		fr.informationPage(http.StatusBadRequest, b, form, fr.fieldErrors(de, nil), fr.t.FixErrors)
		return
	}
	if err != nil {
		fr.failed(err)
		return
	}
	fr.redirect(fr.stepURL(fr.step(funnelPaymentPath), id))
}

// informationPage shows the information form; every input has its label
// and its autocomplete token.
func (fr *funnelRequest) informationPage(status int, b *checkout.Basket, form url.Values, errs map[string]string, msg string) {
	p := &funnelPage{Lang: fr.lang, T: fr.t, Step: "information", StepIndex: 2, Title: fr.t.InfoTitle, Basket: b, Currency: b.Totals.Currency,
		Form: form, Errors: errs, Message: msg, Action: fr.stepURL(fr.r.URL.Path, b.CartID),
		Back: fr.stepURL(fr.step(funnelCustomizationPath), b.CartID)}
	in, t := b.Information, fr.t
	p.Buyer = []funnelField{
		p.field("first_name", t.FirstName, "text", "given-name", in.FirstName, true),
		p.field("last_name", t.LastName, "text", "family-name", in.LastName, true),
		p.field("email", t.Email, "email", "email", in.Email, true),
		p.field("phone", t.Phone, "tel", "tel", in.Phone, true),
	}
	if b.DeliveryMode == ecommerce.DeliveryPostal {
		p.Address = []funnelField{
			p.field("street", t.Street, "text", "street-address", in.Street, true),
			p.field("postal_code", t.PostalCode, "text", "postal-code", in.PostalCode, true),
			p.field("city", t.City, "text", "address-level2", in.City, true),
			p.field("country", t.Country, "text", "country", in.Country, true),
		}
		p.Address[3].Hint = t.CountryHint
	}
	if b.DeliveryMode == ecommerce.DeliveryEmail {
		// The beneficiary is another person: the browser's own details
		// are not offered (autocomplete section).
		p.Beneficiary = []funnelField{
			p.field("beneficiary_first_name", t.FirstName, "text", "section-beneficiary given-name", in.BeneficiaryFirstName, false),
			p.field("beneficiary_last_name", t.LastName, "text", "section-beneficiary family-name", in.BeneficiaryLastName, false),
			p.field("beneficiary_email", t.Email, "email", "section-beneficiary email", in.BeneficiaryEmail, false),
		}
	}
	fr.render(status, p)
}

// handleFunnelPayment is GET …/payment/?cart=: the server's totals, the
// codes' form and the pay button; ?payment=failed says the last payment
// failed.
func (a *api) handleFunnelPayment(w http.ResponseWriter, r *http.Request) {
	fr, id, b, ok := a.funnelBasket(w, r)
	if !ok {
		return
	}
	switch step, _ := b.Reached(); step {
	case checkout.StepCustomization:
		fr.redirect(fr.stepURL(fr.step(funnelCustomizationPath), id))
		return
	case checkout.StepInformation:
		fr.redirect(fr.stepURL(fr.step(funnelInformationPath), id))
		return
	}
	msg := ""
	if r.URL.Query().Get("payment") == "failed" {
		msg = fr.t.PaymentFailed
	}
	fr.paymentPage(http.StatusOK, b, nil, nil, msg)
}

// handleFunnelPay is POST …/payment/?cart=: action=apply applies the
// codes (ApplyCodes) and shows the step again; action=pay starts the
// payment (Pay) and sends the customer to the provider's card page, or to
// the summary when nothing is left to pay by card.
func (a *api) handleFunnelPay(w http.ResponseWriter, r *http.Request) {
	fr, id, form, ok := a.funnelForm(w, r)
	if !ok {
		return
	}
	if form.Get("action") != "pay" {
		in := decodeFunnelCodes(form)
		_, err := a.Checkout.ApplyCodes(r.Context(), fr.site, id, in)
		if de := domain.AsError(err); de != nil && de.Code == domain.CodeInvalid {
			if b, berr := a.Checkout.Basket(r.Context(), fr.site, id); berr == nil {
				fr.paymentPage(http.StatusBadRequest, b, form, fr.fieldErrors(de, nil), "")
				return
			}
		}
		if err != nil {
			fr.failed(err)
			return
		}
		fr.redirect(fr.stepURL(r.URL.Path, id))
		return
	}
	out, err := a.Checkout.Pay(r.Context(), fr.site, id, checkout.PayInput{ReturnURL: fr.absolute(fr.step(funnelSummaryPath))})
	if de := domain.AsError(err); de != nil && (de.Code == domain.CodeConflict || de.Code == domain.CodeUnavailable || de.Code == domain.CodeInvalid) {
		b, berr := a.Checkout.Basket(r.Context(), fr.site, id)
		if berr != nil {
			fr.failed(berr)
			return
		}
		status, msg := http.StatusConflict, fr.refusal(de.Message)
		switch de.Code {
		case domain.CodeUnavailable:
			status, msg = http.StatusServiceUnavailable, fr.t.Unavailable503
			w.Header().Set("Retry-After", strconv.Itoa(max(1, int(de.RetryAfter.Seconds()))))
		case domain.CodeInvalid:
			status, msg = http.StatusBadRequest, fr.t.FixErrors
		}
		fr.paymentPage(status, b, nil, fr.fieldErrors(de, nil), msg)
		return
	}
	if err != nil {
		fr.failed(err)
		return
	}
	if out.Order != nil {
		fr.redirect(fr.summaryURL(out.Order.UUID))
		return
	}
	fr.redirect(out.RedirectURL)
}

func (fr *funnelRequest) paymentPage(status int, b *checkout.Basket, form url.Values, errs map[string]string, msg string) {
	if errs == nil {
		errs = map[string]string{}
	}
	// A code the cart keeps but that does not apply says why beside it.
	if b.CouponProblem != "" && errs["coupon"] == "" {
		errs["coupon"] = fr.refusal(b.CouponProblem)
	}
	if b.GiftcardProblem != "" && errs["giftcard"] == "" {
		errs["giftcard"] = fr.refusal(b.GiftcardProblem)
	}
	p := &funnelPage{Lang: fr.lang, T: fr.t, Step: "payment", StepIndex: 3, Title: fr.t.PaymentTitle, Basket: b, Currency: b.Totals.Currency,
		Form: form, Errors: errs, Message: msg, Action: fr.stepURL(fr.r.URL.Path, b.CartID),
		Back: fr.stepURL(fr.step(funnelInformationPath), b.CartID)}
	p.Codes = []funnelField{
		p.field("coupon", fr.t.Coupon, "text", "off", b.Coupon, false),
		p.field("giftcard", fr.t.Giftcard, "text", "off", b.Giftcard, false),
	}
	// The pay form is redirected to the provider's card page.
	if o := fr.a.Payments.ProviderPageOrigin(); o != "" {
		p.FormAction = []string{pagesecurity.Self, o}
	}
	for _, l := range b.Lines {
		if l.Quantity > 0 && l.Available {
			p.Lines = append(p.Lines, fr.lineView(p, l))
		}
	}
	fr.render(status, p)
}

// absolute is a path of this site as an absolute URL, from the request's
// scheme and host.
func (fr *funnelRequest) absolute(path string) string {
	u := url.URL{Scheme: "http", Host: fr.r.Host, Path: path}
	if isHTTPS(fr.r) {
		u.Scheme = "https"
	}
	return u.String()
}

func (fr *funnelRequest) summaryURL(order uuid.UUID) string {
	return fr.step(funnelSummaryPath) + "?" + url.Values{"order": {order.String()}}.Encode()
}

// handleFunnelSummary is GET …/summary/?order=: where the provider sends
// the customer back. Finish reads the payment's outcome: paid, the
// cart's return_url with order_reference (when it has one) or the
// thank-you page; failed, the payment step again (the cart is kept);
// pending, a page that reloads itself.
func (a *api) handleFunnelSummary(w http.ResponseWriter, r *http.Request) {
	fr, ok := a.newFunnelRequest(w, r)
	if !ok {
		return
	}
	id, err := uuid.Parse(r.URL.Query().Get("order"))
	if err != nil {
		fr.notFound(fr.t.OrderNotFound)
		return
	}
	o, err := a.Checkout.Finish(r.Context(), fr.site, id)
	if domain.IsCode(err, domain.CodeNotFound) {
		fr.notFound(fr.t.OrderNotFound)
		return
	}
	if err != nil {
		fr.failed(err)
		return
	}
	switch o.Status {
	case checkout.OrderFailed:
		fr.redirect(fr.stepURL(fr.step(funnelPaymentPath), o.CartID, "payment", "failed"))
		return
	case checkout.OrderPending:
		fr.render(http.StatusOK, &funnelPage{Step: "pending", StepIndex: 3, Title: fr.t.PendingTitle, Order: o,
			Currency: o.Currency, Refresh: true, Link: fr.summaryURL(o.UUID)})
		return
	}
	// The cart is gone with the order paid: the session forgets it.
	http.SetCookie(w, &http.Cookie{Name: funnelCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: isHTTPS(r)})
	page := &funnelPage{Step: "done", StepIndex: 4, Title: fr.t.ThanksTitle, Order: o, Currency: o.Currency,
		Link: origin(o.ReturnURL)}
	// Back to the shop by the page, not by a 303: this answer often ends
	// the redirects that followed the payment provider's form, and
	// browsers hold each of them to that page's form-action, which does
	// not know the shop's address.
	if to := withOrderReference(o.ReturnURL, o.Reference); to != "" && o.Status == checkout.OrderPaid {
		page.RefreshTo, page.Link = to, to
	}
	fr.render(http.StatusOK, page)
}

// withOrderReference is the return_url with the order's reference added
// as order_reference (its own query kept); "" when there is none.
func withOrderReference(returnURL, reference string) string {
	u, err := url.Parse(returnURL)
	if returnURL == "" || err != nil || origin(returnURL) == "" {
		return ""
	}
	add := url.Values{"order_reference": {reference}}.Encode()
	if u.RawQuery != "" {
		add = u.RawQuery + "&" + add
	}
	u.RawQuery = add
	return u.String()
}
