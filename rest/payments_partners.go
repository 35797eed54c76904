package rest

import (
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/mux"

	"salesplatform/domain/payments"
	"salesplatform/rest/drf"
)

// MaxKYCBodyBytes bounds a KYC document upload's body: the file and room
// for the other fields and the multipart framing.
const MaxKYCBodyBytes = payments.MaxKYCBytes + 64<<10

func registerPaymentPartnerRoutes(r *mux.Router, a *api) {
	handleWithToken(r, "/api/payment_hub/partner/", idempotent(a.handlePaymentPartnerCreate), http.MethodPost)
	handleWithToken(r, "/api/payment_hub/partner/{partner_uuid}/", a.handlePaymentPartnerGet, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/payment_hub/partner/{partner_uuid}/", a.handlePaymentPartnerUpdate, http.MethodPatch)
	handleWithToken(r, "/api/payment_hub/partner/{partner_uuid}/activate-payments/", idempotent(a.handleActivatePayments), http.MethodPost)
	handleWithToken(r, "/api/payment_hub/kyc_documents/", idempotent(a.handleKYCDocumentCreate), http.MethodPost)
}

// jsonPaymentPartner is the legacy partner record with the payment hub's
// settings of it, additions to the record.
type jsonPaymentPartner struct {
	jsonPartnerRecord
	LegalRepresentativeEmail string  `json:"legal_representative_email"`
	PayoutFrequency          string  `json:"payout_frequency"`
	AutoValidatePayout       bool    `json:"auto_validate_payout"`
	FreezePayout             bool    `json:"freeze_payout"`
	BlockPayoutValidation    bool    `json:"block_payout_validation"`
	IBAN                     string  `json:"iban"`
	BIC                      string  `json:"bic"`
	PaymentActivationStatus  *string `json:"payment_activation_status"`
	CanTakePayments          bool    `json:"can_take_payments"`
}

func toJSONPaymentPartner(p *payments.Partner) jsonPaymentPartner {
	out := jsonPaymentPartner{jsonPartnerRecord: toJSONPartnerRecord(p.ID, p.UUID, p.Status, p.Name, &p.Company),
		LegalRepresentativeEmail: p.LegalRepresentativeEmail, PayoutFrequency: p.PayoutFrequency,
		AutoValidatePayout: p.AutoValidatePayout, FreezePayout: p.FreezePayout, BlockPayoutValidation: p.BlockPayoutValidation,
		IBAN: p.IBAN, BIC: p.BIC, CanTakePayments: p.MayTakePayments()}
	if p.Activation != nil {
		out.PaymentActivationStatus = &p.Activation.Status
	}
	return out
}

// jsonPaymentPartnerCreated is the creation's answer: the record and where
// to activate the partner's payments.
type jsonPaymentPartnerCreated struct {
	jsonPaymentPartner
	PendingPaymentActivationURI    string `json:"pending_payment_activation_uri"`
	PendingPaymentActivationMethod string `json:"pending_payment_activation_method"`
}

// jsonPaymentPartnerUpdate is the update's answer: the fields it may
// change.
type jsonPaymentPartnerUpdate struct {
	ID                          int64   `json:"id"`
	UUID                        string  `json:"uuid"`
	Status                      string  `json:"status"`
	BlockPayoutValidation       bool    `json:"block_payout_validation"`
	HideFromStats               bool    `json:"hide_from_stats"`
	ThirdPartySalesOnly         bool    `json:"third_party_sales_only"`
	Referrer                    *int64  `json:"referrer"`
	LegalRepresentativeBirthday *string `json:"legal_representative_birthday"` // a date, as sent
	LegalRepresentativeEmail    string  `json:"legal_representative_email"`
}

// jsonActivation is a payments activation.
type jsonActivation struct {
	ID            string     `json:"id"`
	Status        string     `json:"status"`
	PartnerUUID   string     `json:"partner_uuid"`
	UserActionURL string     `json:"user_action_url"`
	CreatedOn     time.Time  `json:"created_on"`
	CompletedOn   *time.Time `json:"completed_on"`
}

// jsonKYCDocument is the legacy KYC document record.
type jsonKYCDocument struct {
	ID           int64  `json:"id"`
	Partner      int64  `json:"partner"`
	PartnerUUID  string `json:"partner_uuid"`
	Comment      string `json:"comment"`
	DocumentType string `json:"document_type"`
}

// partnerUUID reads the path's partner uuid: anything else names no
// partner.
func partnerUUID(r *http.Request) (uuid.UUID, error) { return pathUUID(r, "partner_uuid") }

// handlePaymentPartnerCreate is POST /api/payment_hub/partner/: 201.
func (a *api) handlePaymentPartnerCreate(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeFlat(w, r)
	if !ok {
		return
	}
	p, err := a.PaymentPartners.CreatePartner(r.Context(), decodePaymentPartner(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, jsonPaymentPartnerCreated{jsonPaymentPartner: toJSONPaymentPartner(p),
		PendingPaymentActivationURI:    "/api/payment_hub/partner/" + p.UUID.String() + "/activate-payments/",
		PendingPaymentActivationMethod: http.MethodPost})
}

func (a *api) handlePaymentPartnerGet(w http.ResponseWriter, r *http.Request) {
	id, err := partnerUUID(r)
	if err == nil {
		var p *payments.Partner
		if p, err = a.PaymentPartners.GetPartner(r.Context(), id); err == nil {
			writeJSON(w, http.StatusOK, toJSONPaymentPartner(p))
			return
		}
	}
	writeError(w, r, err)
}

func (a *api) handlePaymentPartnerUpdate(w http.ResponseWriter, r *http.Request) {
	id, err := partnerUUID(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	doc, ok := decodeFlat(w, r)
	if !ok {
		return
	}
	p, err := a.PaymentPartners.UpdatePartner(r.Context(), id, decodePaymentPartnerUpdate(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := jsonPaymentPartnerUpdate{ID: p.ID, UUID: p.UUID.String(), Status: p.Status,
		BlockPayoutValidation: p.BlockPayoutValidation, HideFromStats: p.HideFromStats,
		ThirdPartySalesOnly: p.ThirdPartySalesOnly, Referrer: p.ReferrerID, LegalRepresentativeEmail: p.LegalRepresentativeEmail}
	if b := p.LegalRepresentativeBirthday; b != nil {
		day := b.Format(time.DateOnly)
		out.LegalRepresentativeBirthday = &day
	}
	writeJSON(w, http.StatusOK, out)
}

// handleActivatePayments is POST .../activate-payments/: 200. It reads no
// body.
func (a *api) handleActivatePayments(w http.ResponseWriter, r *http.Request) {
	id, err := partnerUUID(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	act, err := a.PaymentPartners.ActivatePayments(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, jsonActivation{ID: act.ID.String(), Status: act.Status, PartnerUUID: act.PartnerUUID.String(),
		UserActionURL: act.UserActionURL, CreatedOn: act.CreatedOn.UTC(), CompletedOn: utcOrNil(act.CompletedOn)})
}

func utcOrNil(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// handleKYCDocumentCreate is POST /api/payment_hub/kyc_documents/, a
// multipart upload: 201.
func (a *api) handleKYCDocumentCreate(w http.ResponseWriter, r *http.Request) {
	if mediaType(r) != "multipart/form-data" {
		unsupported(r).write(w)
		return
	}
	u := readUpload(w, r, MaxKYCBodyBytes, "partner_uuid", "comment", "document_type")
	if u == nil {
		return
	}
	defer u.Close()
	in := payments.KYCUpload{File: u.File(), Files: u.files}
	form := drf.New(u.fields(), &in.Refusals)
	in.PartnerUUID, in.Comment, in.DocumentType = form.UUID("partner_uuid"), form.String("comment"), form.String("document_type")
	d, err := a.PaymentPartners.UploadKYCDocument(r.Context(), in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, jsonKYCDocument{ID: d.ID, Partner: d.PartnerID, PartnerUUID: d.PartnerUUID.String(),
		Comment: d.Comment, DocumentType: d.DocumentType})
}
