package persistence

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/domain"
	"salesplatform/domain/payments"
)

// PaymentPartnerStore is the payments.PartnerStore on PostgreSQL: the
// partner rows (through the account area's PartnerStore), their company
// record (company.go, shared with network partners), the hub's record
// (payment_partners), the activations (payment_partner_activations) and
// the audit trail (payment_partner_audit).
type PaymentPartnerStore struct {
	*PartnerStore
	db bun.IDB
}

var _ payments.PartnerStore = (*PaymentPartnerStore)(nil)

// PaymentPartnerStores binds the payment-hub partner service's stores to
// db.
func PaymentPartnerStores(db bun.IDB) payments.PartnerStores {
	return payments.PartnerStores{Partners: &PaymentPartnerStore{PartnerStore: &PartnerStore{db: db}, db: db},
		KYC: &KYCDocumentStore{db: db}, Keys: NewIdempotencyStore(db), Events: NewWebhookEvents(db)}
}

// CreateCompany implements payments.PartnerStore.
func (s *PaymentPartnerStore) CreateCompany(ctx context.Context, partnerID int64, c *domain.Company) error {
	return insertCompany(ctx, s.db, partnerID, c)
}

// CreateHubPartner implements payments.PartnerStore.
func (s *PaymentPartnerStore) CreateHubPartner(ctx context.Context, p *payments.Partner) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err := s.db.NewRaw(`INSERT INTO payment_partners (partner_id, legal_representative_email, payout_frequency,
			auto_validate_payout, freeze_payout, block_payout_validation, iban, bic)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, p.ID, p.LegalRepresentativeEmail, p.PayoutFrequency, p.AutoValidatePayout,
		p.FreezePayout, p.BlockPayoutValidation, p.IBAN, p.BIC).Exec(ctx)
	if err != nil {
		return fmt.Errorf("insert payment partner: %w", err)
	}
	return nil
}

type hubPartnerRow struct {
	ID     int64     `bun:"id"`
	UUID   uuid.UUID `bun:"uuid,type:uuid"`
	Status string    `bun:"status"`
	Name   string    `bun:"name"`
	// Of the partner row: its payments' currency and zone.
	Currency string `bun:"currency"`
	TimeZone string `bun:"time_zone"`
	companyRow
	LegalRepresentativeEmail string `bun:"legal_representative_email"`
	PayoutFrequency          string `bun:"payout_frequency"`
	AutoValidatePayout       bool   `bun:"auto_validate_payout"`
	FreezePayout             bool   `bun:"freeze_payout"`
	BlockPayoutValidation    bool   `bun:"block_payout_validation"`
	IBAN                     string `bun:"iban"`
	BIC                      string `bun:"bic"`
	// The latest activation; ActivationID is nil when there is none.
	ActivationID          *uuid.UUID `bun:"activation_id,type:uuid"`
	Provider              string     `bun:"provider"`
	ProviderRef           string     `bun:"provider_ref"`
	ActivationStatus      string     `bun:"activation_status"`
	UserActionURL         string     `bun:"user_action_url"`
	ActivationCreatedOn   *time.Time `bun:"activation_created_on"`
	ActivationCompletedOn *time.Time `bun:"activation_completed_on"`
	// A start reserved: both nil when none is.
	ActivationRequestID     *uuid.UUID `bun:"activation_request_id,type:uuid"`
	ActivationReservedUntil *time.Time `bun:"activation_reserved_until"`
}

// FindHubPartner implements payments.PartnerStore.
func (s *PaymentPartnerStore) FindHubPartner(ctx context.Context, id uuid.UUID, lock bool) (*payments.Partner, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if lock {
		if err := lockRow(ctx, s.db, "payment partner", `SELECT p.id FROM partners p
			JOIN payment_partners pp ON pp.partner_id = p.id WHERE p.uuid = ? FOR NO KEY UPDATE OF p`, id); err != nil {
			return nil, err
		}
	}
	var r hubPartnerRow
	if err := s.db.NewRaw(hubPartnerSelect+` WHERE p.uuid = ?`, id).Scan(ctx, &r); err != nil {
		return nil, notFound(err)
	}
	return r.toDomain(), nil
}

// FindHubPartners implements payments.PartnerStore.
func (s *PaymentPartnerStore) FindHubPartners(ctx context.Context, ids []uuid.UUID) ([]*payments.Partner, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []hubPartnerRow
	if err := s.db.NewRaw(hubPartnerSelect+` WHERE p.uuid = ANY(?::uuid[])`, pgdialect.Array(ids)).Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("select payment partners: %w", err)
	}
	byUUID := make(map[uuid.UUID]*payments.Partner, len(rows))
	for i := range rows {
		byUUID[rows[i].UUID] = rows[i].toDomain()
	}
	out := make([]*payments.Partner, len(ids))
	for i, id := range ids {
		out[i] = byUUID[id]
	}
	return out, nil
}

// hubPartnerSelect reads payment-hub partners (alias p) with their
// company record and their latest activation.
const hubPartnerSelect = `SELECT p.id, p.uuid, p.status, p.name, p.currency, p.time_zone, ` + companyColumns + `,
			pp.legal_representative_email, pp.payout_frequency, pp.auto_validate_payout, pp.freeze_payout,
			pp.block_payout_validation, pp.iban, pp.bic, pp.activation_request_id, pp.activation_reserved_until,
			a.id AS activation_id, coalesce(a.provider, '') AS provider, coalesce(a.provider_ref, '') AS provider_ref,
			coalesce(a.status, '') AS activation_status, coalesce(a.user_action_url, '') AS user_action_url,
			a.created_on AS activation_created_on, a.completed_on AS activation_completed_on
		FROM payment_partners pp
		JOIN partners p ON p.id = pp.partner_id
		LEFT JOIN partner_legal_information li ON li.partner_id = p.id
		LEFT JOIN LATERAL (SELECT * FROM payment_partner_activations a WHERE a.partner_id = p.id
			ORDER BY a.created_on DESC LIMIT 1) a ON true`

func (r *hubPartnerRow) toDomain() *payments.Partner {
	p := &payments.Partner{ID: r.ID, UUID: r.UUID, Status: r.Status, Name: r.Name, Currency: r.Currency,
		TimeZone: r.TimeZone, Company: r.company(),
		LegalRepresentativeEmail: r.LegalRepresentativeEmail, PayoutFrequency: r.PayoutFrequency,
		AutoValidatePayout: r.AutoValidatePayout, FreezePayout: r.FreezePayout,
		BlockPayoutValidation: r.BlockPayoutValidation, IBAN: r.IBAN, BIC: r.BIC}
	if r.ActivationID != nil {
		p.Activation = &payments.Activation{ID: *r.ActivationID, PartnerID: r.ID, PartnerUUID: r.UUID,
			Provider: r.Provider, ProviderRef: r.ProviderRef, Status: r.ActivationStatus, UserActionURL: r.UserActionURL,
			CreatedOn: *r.ActivationCreatedOn, CompletedOn: r.ActivationCompletedOn}
	}
	if r.ActivationRequestID != nil && r.ActivationReservedUntil != nil {
		p.StartingActivation, p.StartingUntil = *r.ActivationRequestID, *r.ActivationReservedUntil
	}
	return p
}

// SaveHubPartner implements payments.PartnerStore: the status on the
// partner, the company's settings on its company record, the hub's on its
// record, in one statement.
func (s *PaymentPartnerStore) SaveHubPartner(ctx context.Context, p *payments.Partner) error {
	var birthday *string // a day: as text, so that no time zone moves it
	if p.LegalRepresentativeBirthday != nil {
		day := p.LegalRepresentativeBirthday.Format(time.DateOnly)
		birthday = &day
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err := s.db.NewRaw(`WITH status AS (UPDATE partners SET status = ? WHERE id = ?),
		company AS (UPDATE partner_legal_information SET hide_from_stats = ?, third_party_sales_only = ?,
			referrer_id = ?, legal_representative_birthday = ?::date WHERE partner_id = ?)
		UPDATE payment_partners SET legal_representative_email = ?, block_payout_validation = ?, modified_on = now()
		WHERE partner_id = ?`,
		p.Status, p.ID, p.HideFromStats, p.ThirdPartySalesOnly, p.ReferrerID, birthday, p.ID,
		p.LegalRepresentativeEmail, p.BlockPayoutValidation, p.ID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("save payment partner: %w", err)
	}
	return nil
}

// CreateActivation implements payments.PartnerStore.
func (s *PaymentPartnerStore) CreateActivation(ctx context.Context, a *payments.Activation) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	err := s.db.NewRaw(`INSERT INTO payment_partner_activations (id, partner_id, provider, provider_ref, status,
			user_action_url, completed_on)
		VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING created_on`,
		a.ID, a.PartnerID, a.Provider, a.ProviderRef, a.Status, a.UserActionURL, a.CompletedOn).Scan(ctx, &a.CreatedOn)
	if err != nil {
		return fmt.Errorf("insert payments activation: %w", err)
	}
	return nil
}

type activationRow struct {
	ID            uuid.UUID  `bun:"id,type:uuid"`
	PartnerID     int64      `bun:"partner_id"`
	PartnerUUID   uuid.UUID  `bun:"partner_uuid,type:uuid"`
	Provider      string     `bun:"provider"`
	ProviderRef   string     `bun:"provider_ref"`
	Status        string     `bun:"status"`
	UserActionURL string     `bun:"user_action_url"`
	CreatedOn     time.Time  `bun:"created_on"`
	CompletedOn   *time.Time `bun:"completed_on"`
}

// ActivationByProviderRef implements payments.PartnerStore.
func (s *PaymentPartnerStore) ActivationByProviderRef(ctx context.Context, provider, ref string) (*payments.Activation, error) {
	return s.activation(ctx, `a.provider = ? AND a.provider_ref = ?`, provider, ref)
}

// ActivationByID implements payments.PartnerStore.
func (s *PaymentPartnerStore) ActivationByID(ctx context.Context, id uuid.UUID) (*payments.Activation, error) {
	return s.activation(ctx, `a.id = ?`, id)
}

// activation reads the activation where says.
func (s *PaymentPartnerStore) activation(ctx context.Context, where string, args ...any) (*payments.Activation, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var r activationRow
	err := s.db.NewRaw(`SELECT a.id, a.partner_id, p.uuid AS partner_uuid, a.provider, a.provider_ref, a.status,
			a.user_action_url, a.created_on, a.completed_on
		FROM payment_partner_activations a JOIN partners p ON p.id = a.partner_id
		WHERE `+where, args...).Scan(ctx, &r)
	if err != nil {
		return nil, notFound(err)
	}
	return &payments.Activation{ID: r.ID, PartnerID: r.PartnerID, PartnerUUID: r.PartnerUUID, Provider: r.Provider,
		ProviderRef: r.ProviderRef, Status: r.Status, UserActionURL: r.UserActionURL, CreatedOn: r.CreatedOn,
		CompletedOn: r.CompletedOn}, nil
}

// ReserveActivation implements payments.PartnerStore.
func (s *PaymentPartnerStore) ReserveActivation(ctx context.Context, partnerID int64, id uuid.UUID, until time.Time) error {
	return s.setReservation(ctx, `activation_request_id = ?, activation_reserved_until = ?`, []any{id, until},
		`partner_id = ?`, partnerID)
}

// EndActivationReservation implements payments.PartnerStore.
func (s *PaymentPartnerStore) EndActivationReservation(ctx context.Context, partnerID int64, id uuid.UUID) error {
	return s.setReservation(ctx, `activation_request_id = NULL, activation_reserved_until = NULL`, nil,
		`partner_id = ? AND activation_request_id = ?`, partnerID, id)
}

// ExpireActivationReservation implements payments.PartnerStore.
func (s *PaymentPartnerStore) ExpireActivationReservation(ctx context.Context, partnerID int64, id uuid.UUID) error {
	return s.setReservation(ctx, `activation_reserved_until = now()`, nil,
		`partner_id = ? AND activation_request_id = ?`, partnerID, id)
}

func (s *PaymentPartnerStore) setReservation(ctx context.Context, set string, setArgs []any, where string, whereArgs ...any) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if _, err := s.db.NewRaw(`UPDATE payment_partners SET `+set+` WHERE `+where, append(setArgs, whereArgs...)...).Exec(ctx); err != nil {
		return fmt.Errorf("payments activation reservation: %w", err)
	}
	return nil
}

// FinishActivation implements payments.PartnerStore: a guarded update, so
// that of two concurrent finishes only one applies.
func (s *PaymentPartnerStore) FinishActivation(ctx context.Context, a *payments.Activation) (bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	res, err := s.db.NewRaw(`UPDATE payment_partner_activations SET status = ?, completed_on = ?
		WHERE id = ? AND status = ?`, a.Status, a.CompletedOn, a.ID, payments.ActivationPendingUserAction).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("finish payments activation: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// AddAudit implements payments.PartnerStore.
func (s *PaymentPartnerStore) AddAudit(ctx context.Context, e *payments.AuditEntry) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err := s.db.NewRaw(`INSERT INTO payment_partner_audit (partner_id, actor_user_id, actor, action, reason, before, after)
		VALUES (?, ?, ?, ?, ?, ?::jsonb, ?::jsonb)`,
		e.PartnerID, e.ActorUserID, e.Actor, e.Action, e.Reason, jsonOrNil(e.Before), string(e.After)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("insert payment partner audit: %w", err)
	}
	return nil
}

// KYCDocumentStore is the payments.KYCStore on PostgreSQL (kyc_documents).
type KYCDocumentStore struct{ db bun.IDB }

var _ payments.KYCStore = (*KYCDocumentStore)(nil)

// CreateKYCDocument implements payments.KYCStore.
func (s *KYCDocumentStore) CreateKYCDocument(ctx context.Context, d *payments.KYCDocument) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	err := s.db.NewRaw(`INSERT INTO kyc_documents (partner_id, document_type, comment, content_type, size, sha256,
			blob_key, uploaded_by)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id, created_on`,
		d.PartnerID, d.DocumentType, d.Comment, d.ContentType, d.Size, d.SHA256, d.BlobKey, d.UploadedBy).
		Scan(ctx, &d.ID, &d.CreatedOn)
	if err != nil {
		return fmt.Errorf("insert KYC document: %w", err)
	}
	return nil
}

// jsonOrNil is a JSON document's text for a jsonb parameter, nil for none.
func jsonOrNil(doc []byte) *string {
	if doc == nil {
		return nil
	}
	s := string(doc)
	return &s
}

// KYCDocument implements payments.KYCStore.
func (s *KYCDocumentStore) KYCDocument(ctx context.Context, id int64) (*payments.KYCDocument, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	d := &payments.KYCDocument{}
	err := s.db.NewRaw(`SELECT k.id, k.partner_id, p.uuid, k.comment, k.document_type, k.content_type, k.size, k.sha256,
			k.blob_key, k.uploaded_by, k.created_on
		FROM kyc_documents k JOIN partners p ON p.id = k.partner_id WHERE k.id = ?`, id).
		Scan(ctx, &d.ID, &d.PartnerID, &d.PartnerUUID, &d.Comment, &d.DocumentType, &d.ContentType, &d.Size, &d.SHA256,
			&d.BlobKey, &d.UploadedBy, &d.CreatedOn)
	if err != nil {
		return nil, notFound(fmt.Errorf("select KYC document: %w", err))
	}
	return d, nil
}
