package payments

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
)

// ProviderTimeout bounds each call to the payment-service provider.
const ProviderTimeout = 10 * time.Second

// ActivatePayments starts the activation of a partner's payments at the
// provider: the provider's page (Activation.UserActionURL) is where the
// legal representative verifies their identity, after which the partner
// may take payments (Partner.MayTakePayments). A partner has one
// activation at a time: while it is pending, a repeat reads its status
// from the provider (so a completion the hub was not told of is found
// then) and answers it; a completed one is answered as it is; after a
// refused one, a new one starts. The partner's row is locked meanwhile, so
// two calls cannot both start one. A change is recorded in the audit
// trail in the same transaction. Callers: staff, the partner's members
// with manage_masteradmin, its referrer's with
// access_configuration_marketplaces. Once per idempotency key.
// Errors: those of Authorize(OpPaymentPartnerRead); CodeNotFound as
// GetPartner; those of authorizeWrite; the provider's.
func (s *PartnerService) ActivatePayments(ctx context.Context, partnerUUID uuid.UUID) (*Activation, error) {
	c, err := domain.Authorize(ctx, domain.OpPaymentPartnerRead)
	if err != nil {
		return nil, err
	}
	var out *Activation
	return partnerGuarded(ctx, s, "payments.partner.activate", partnerUUID, &out, func(ctx context.Context, tx PartnerStores) error {
		p, err := tx.Partners.FindHubPartner(ctx, partnerUUID, true)
		if err != nil {
			return err
		}
		if err := authorizeWrite(ctx, relationOf(c, p)); err != nil {
			return err
		}
		switch a := p.Activation; {
		case a != nil && a.Status == ActivationCompleted:
			out = a
			return nil
		case a != nil && a.Status == ActivationPendingUserAction:
			out, err = s.follow(ctx, tx, p, c.User.Username, &c.User.ID)
			return err
		}
		out, err = s.start(ctx, tx, c, p)
		return err
	})
}

// start starts a new activation of p at the provider and records it.
func (s *PartnerService) start(ctx context.Context, tx PartnerStores, c *domain.Caller, p *Partner) (*Activation, error) {
	a := &Activation{ID: uuid.New(), PartnerID: p.ID, PartnerUUID: p.UUID, Provider: s.provider.Name()}
	pctx, cancel := context.WithTimeout(ctx, ProviderTimeout)
	defer cancel()
	pa, err := s.provider.StartActivation(pctx, ActivationRequest{RequestID: a.ID, PartnerUUID: p.UUID,
		CommercialName: p.CommercialName, LegalRepresentativeFirstName: p.LegalRepresentativeFirstName,
		LegalRepresentativeLastName: p.LegalRepresentativeLastName, LegalRepresentativeEmail: p.LegalRepresentativeEmail,
		LegalRepresentativeBirthday: p.LegalRepresentativeBirthday, Country: p.HQCountry})
	if err != nil {
		return nil, fmt.Errorf("start the payments activation at %s: %w", s.provider.Name(), err)
	}
	a.ProviderRef, a.Status, a.UserActionURL, a.CompletedOn = pa.Ref, pa.Status, pa.UserActionURL, completedOn(pa)
	if err := tx.Partners.CreateActivation(ctx, a); err != nil {
		return nil, err
	}
	before := *p
	p.Activation = a
	if err := tx.Partners.AddAudit(ctx, audit(c, p.ID, AuditActivationStart, "payments activation requested", &before, p)); err != nil {
		return nil, err
	}
	return a, nil
}

// follow reads p's pending activation at the provider and, when it is no
// longer pending there, records its outcome (by actor, userID nil for the
// provider) in the activation and the audit trail. It answers the
// activation as it then is.
func (s *PartnerService) follow(ctx context.Context, tx PartnerStores, p *Partner, actor string, userID *int64) (*Activation, error) {
	a := *p.Activation
	pctx, cancel := context.WithTimeout(ctx, ProviderTimeout)
	defer cancel()
	pa, err := s.provider.Activation(pctx, a.ProviderRef)
	if err != nil {
		return nil, fmt.Errorf("read the payments activation %s at %s: %w", a.ProviderRef, a.Provider, err)
	}
	if pa.Status == ActivationPendingUserAction {
		return &a, nil
	}
	a.Status, a.CompletedOn = pa.Status, completedOn(pa)
	applied, err := tx.Partners.FinishActivation(ctx, &a)
	if err != nil || !applied {
		return &a, err
	}
	action, reason := AuditActivationComplete, "identity verified at the provider"
	if a.Status == ActivationRefused {
		action, reason = AuditActivationRefuse, "identity verification refused at the provider"
	}
	before := *p
	p.Activation = &a
	e := &AuditEntry{PartnerID: p.ID, ActorUserID: userID, Actor: actor, Action: action, Reason: reason,
		Before: stateOf(&before), After: stateOf(p)}
	return &a, tx.Partners.AddAudit(ctx, e)
}

// completedOn is when pa left ActivationPendingUserAction (now when the
// provider does not say), nil while it is pending.
func completedOn(pa *ProviderActivation) *time.Time {
	switch {
	case pa.Status == ActivationPendingUserAction:
		return nil
	case pa.CompletedOn != nil:
		return pa.CompletedOn
	}
	now := time.Now().UTC()
	return &now
}

// SyncActivation is the provider's notice that the activation it knows as
// ref may have changed (the legal representative acted on its page). The
// notice carries nothing but the reference: the outcome is read from the
// provider itself, and recorded as ActivatePayments records it, by the
// provider. A notice of an activation that is not pending, or no longer
// the partner's latest, changes nothing.
// Errors: CodeNotFound when the hub has no activation ref; the provider's.
func (s *PartnerService) SyncActivation(ctx context.Context, ref string) error {
	return s.uow.RunInTx(ctx, func(ctx context.Context, tx PartnerStores) error {
		a, err := tx.Partners.ActivationByProviderRef(ctx, s.provider.Name(), ref)
		if err != nil {
			return err
		}
		p, err := tx.Partners.FindHubPartner(ctx, a.PartnerUUID, true)
		if err != nil {
			return err
		}
		if p.Activation == nil || p.Activation.ID != a.ID || p.Activation.Status != ActivationPendingUserAction {
			return nil
		}
		_, err = s.follow(ctx, tx, p, "provider:"+s.provider.Name(), nil)
		return err
	})
}
