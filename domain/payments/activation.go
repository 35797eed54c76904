package payments

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/webhooks"
)

// ProviderTimeout bounds each call to the payment-service provider.
const ProviderTimeout = 10 * time.Second

// activationLease is how long a reserved start holds the partner's
// activation: well past the provider's call (ProviderTimeout). A start
// still reserved after it (its process died between the reservation and
// the settlement) is taken over by the next request, which asks the
// provider for the same activation.
const activationLease = 3 * ProviderTimeout

// MsgActivationStarting is the refusal of an activation while another
// request of the partner's is starting one at the provider.
const MsgActivationStarting = "The activation of this partner's payments is being started: try again in a moment."

// ActivatePayments starts the activation of a partner's payments at the
// provider: the provider's page (Activation.UserActionURL) is where the
// legal representative verifies their identity, after which the partner
// may take payments (Partner.MayTakePayments). A partner has one
// activation at a time: while it is pending, a repeat reads its status
// from the provider (so a completion the hub was not told of is found
// then) and answers it; a completed one is answered as it is; after a
// refused one, a new one starts.
//
// No transaction is open while the provider is asked (reserve, call,
// settle): a start is reserved on the partner's locked row and committed,
// the provider is asked, then a second transaction records its answer,
// with the audit trail. While a start is reserved, another request of the
// partner is refused (CodeConflict, MsgActivationStarting, with a
// RetryAfter: not kept as an idempotency key's answer). A repeat with the
// same idempotency key answers the activation as it is now, and finishes
// a start a failure left reserved. Callers: staff, the partner's members
// with manage_masteradmin, its referrer's with
// access_configuration_marketplaces. Once per idempotency key.
// Errors: those of Authorize(OpPaymentPartnerRead); CodeNotFound as
// GetPartner; those of authorizeWrite; CodeConflict
// (MsgActivationStarting); the provider's.
func (s *HubPartnerService) ActivatePayments(ctx context.Context, partnerUUID uuid.UUID) (*Activation, error) {
	c, err := domain.Authorize(ctx, domain.OpPaymentPartnerRead)
	if err != nil {
		return nil, err
	}
	var step *Activation
	step, err = partnerGuarded(ctx, s, "payments.partner.activate", partnerUUID, &step, func(ctx context.Context, tx PartnerStores) error {
		var err error
		step, err = s.reserveActivation(ctx, tx, c, partnerUUID)
		return err
	})
	switch {
	case err != nil:
		return nil, err
	case step.Status == ActivationPendingUserAction:
		return s.follow(ctx, step, c.User.Username, &c.User.ID)
	case step.Status != "":
		return step, nil
	}
	return s.start(ctx, c, step)
}

// reserveActivation decides, on the partner's locked row, what an
// activation request does: answer its completed activation, follow its
// pending one, or start one, reserved here (an activation without a
// status, whose ID the provider will know it by).
func (s *HubPartnerService) reserveActivation(ctx context.Context, tx PartnerStores, c *domain.Caller, partnerUUID uuid.UUID) (*Activation, error) {
	p, err := tx.Partners.FindHubPartner(ctx, partnerUUID, true)
	if err != nil {
		return nil, err
	}
	if err := authorizeWrite(ctx, relationOf(c, p)); err != nil {
		return nil, err
	}
	now := time.Now()
	id := p.StartingActivation
	switch a := p.Activation; {
	case id != uuid.Nil && now.Before(p.StartingUntil):
		return nil, &domain.Error{Code: domain.CodeConflict, Message: MsgActivationStarting, RetryAfter: time.Second}
	case id != uuid.Nil: // taken over: the same activation is asked for
	case a != nil && (a.Status == ActivationCompleted || a.Status == ActivationPendingUserAction):
		return a, nil
	default:
		id = uuid.New()
	}
	if err := tx.Partners.ReserveActivation(ctx, p.ID, id, now.Add(activationLease)); err != nil {
		return nil, err
	}
	return &Activation{ID: id, PartnerID: p.ID, PartnerUUID: p.UUID, Provider: s.provider.Name()}, nil
}

// start asks the provider to start the reserved activation, outside any
// transaction, then records its answer. When the provider fails, the
// reservation's lease ends at once, so that the next request asks again
// (for the same activation).
func (s *HubPartnerService) start(ctx context.Context, c *domain.Caller, reserved *Activation) (*Activation, error) {
	p, err := s.uow.Stores().Partners.FindHubPartner(ctx, reserved.PartnerUUID, false)
	if err != nil {
		return nil, err
	}
	if p.StartingActivation != reserved.ID { // settled already (a repeat)
		return s.uow.Stores().Partners.ActivationByID(ctx, reserved.ID)
	}
	pctx, cancel := context.WithTimeout(ctx, ProviderTimeout)
	defer cancel()
	pa, err := s.provider.StartActivation(pctx, ActivationRequest{RequestID: reserved.ID, PartnerUUID: p.UUID,
		CommercialName: p.CommercialName, LegalRepresentativeFirstName: p.LegalRepresentativeFirstName,
		LegalRepresentativeLastName: p.LegalRepresentativeLastName, LegalRepresentativeEmail: p.LegalRepresentativeEmail,
		LegalRepresentativeBirthday: p.LegalRepresentativeBirthday, Country: p.HQCountry})
	if err != nil {
		err = fmt.Errorf("start the payments activation at %s: %w", s.provider.Name(), err)
		if xerr := s.uow.Stores().Partners.ExpireActivationReservation(context.WithoutCancel(ctx), p.ID, reserved.ID); xerr != nil {
			err = errors.Join(err, xerr)
		}
		return nil, err
	}
	var out *Activation
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx PartnerStores) error {
		p, err := tx.Partners.FindHubPartner(ctx, reserved.PartnerUUID, true)
		if err != nil {
			return err
		}
		if p.StartingActivation != reserved.ID { // settled meanwhile (a repeat)
			out, err = tx.Partners.ActivationByID(ctx, reserved.ID)
			return err
		}
		a := *reserved
		a.ProviderRef, a.Status, a.UserActionURL, a.CompletedOn = pa.Ref, pa.Status, pa.UserActionURL, completedOn(pa)
		if err := tx.Partners.CreateActivation(ctx, &a); err != nil {
			return err
		}
		if err := tx.Partners.EndActivationReservation(ctx, p.ID, a.ID); err != nil {
			return err
		}
		before := *p
		p.Activation = &a
		out = &a
		if err := tx.Partners.AddAudit(ctx, audit(c, p.ID, AuditActivationStart, "payments activation requested", &before, p)); err != nil {
			return err
		}
		return publishActivated(ctx, tx, p)
	})
	return out, err
}

// follow reads the pending activation a at the provider, outside any
// transaction, and, when it is no longer pending there, records its
// outcome (by actor, userID nil for the provider) in the activation and
// the audit trail. It answers the activation as it then is.
func (s *HubPartnerService) follow(ctx context.Context, a *Activation, actor string, userID *int64) (*Activation, error) {
	pctx, cancel := context.WithTimeout(ctx, ProviderTimeout)
	defer cancel()
	pa, err := s.provider.Activation(pctx, a.ProviderRef)
	if err != nil {
		return nil, fmt.Errorf("read the payments activation %s at %s: %w", a.ProviderRef, a.Provider, err)
	}
	if pa.Status == ActivationPendingUserAction {
		return a, nil
	}
	var out *Activation
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx PartnerStores) error {
		p, err := tx.Partners.FindHubPartner(ctx, a.PartnerUUID, true)
		if err != nil {
			return err
		}
		if p.Activation == nil || p.Activation.ID != a.ID || p.Activation.Status != ActivationPendingUserAction {
			out, err = tx.Partners.ActivationByID(ctx, a.ID) // finished meanwhile, or no longer the latest
			return err
		}
		done := *p.Activation
		done.Status, done.CompletedOn = pa.Status, completedOn(pa)
		out = &done
		applied, err := tx.Partners.FinishActivation(ctx, &done)
		if err != nil || !applied {
			return err
		}
		action, reason := AuditActivationComplete, "identity verified at the provider"
		if done.Status == ActivationRefused {
			action, reason = AuditActivationRefuse, "identity verification refused at the provider"
		}
		before := *p
		p.Activation = &done
		if err := tx.Partners.AddAudit(ctx, &AuditEntry{PartnerID: p.ID, ActorUserID: userID, Actor: actor, Action: action,
			Reason: reason, Before: stateOf(&before), After: stateOf(p)}); err != nil {
			return err
		}
		return publishActivated(ctx, tx, p)
	})
	return out, err
}

// publishActivated keeps the webhook event of partner p's payments
// activated, to p, when the activation it just recorded (started or
// followed) completed. The record is as its members see it (IBAN masked).
func publishActivated(ctx context.Context, tx PartnerStores, p *Partner) error {
	if p.Activation == nil || p.Activation.Status != ActivationCompleted {
		return nil
	}
	masked := *p
	masked.IBAN = MaskIBAN(p.IBAN)
	return tx.Events.Publish(ctx, webhooks.Event{Type: "partner.payments_activated", Partners: []int64{p.ID}, Resource: &masked})
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
// provider itself, outside any transaction, and recorded as
// ActivatePayments records it, by the provider. A notice of an activation
// that is not pending, or no longer the partner's latest, changes
// nothing.
// Errors: CodeNotFound when the hub has no activation ref; the provider's.
func (s *HubPartnerService) SyncActivation(ctx context.Context, ref string) error {
	a, err := s.uow.Stores().Partners.ActivationByProviderRef(ctx, s.provider.Name(), ref)
	if err != nil || a.Status != ActivationPendingUserAction {
		return err
	}
	_, err = s.follow(ctx, a, "provider:"+s.provider.Name(), nil)
	return err
}
