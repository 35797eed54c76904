package rest

import (
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/checkout"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
)

// Sample resources of the event types' examples (GET
// /api/webhooks/event_types/): domain records, rendered by WebhookData as
// the events' data are, so that an example has the shape of the real
// event. Their values are made up.

var (
	exampleAt       = time.Date(2026, 11, 24, 10, 30, 0, 0, time.UTC)
	examplePartner  = uuid.MustParse("7d9f0c1e-2b3a-4c5d-8e6f-0a1b2c3d4e5f")
	exampleCustomer = network.Customer{FirstName: "Ada", LastName: "Lovelace", Email: "ada@example.com"}
)

func exampleMoney(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// webhookExample is a sample resource of an event of type eventType; nil
// for an unknown type.
func webhookExample(eventType string) any {
	switch eventType {
	case "order.created", "order.paid", "order.refunded":
		return exampleOrder(eventType)
	case "payment.succeeded", "payment.failed":
		return examplePayment(eventType == "payment.succeeded")
	case "refund.succeeded", "refund.failed":
		return exampleRefund(eventType == "refund.succeeded")
	case "network_giftcard.created":
		expires := exampleAt.AddDate(1, 0, 0)
		return &network.Giftcard{ID: 812, UUID: uuid.MustParse("0b6f2d4e-9a1c-4e8b-b3d5-7f2a6c9e1d40"), Code: "NGC-7Q2M-K9XD",
			Status: "paid", Value: exampleMoney("50"), RemainingValue: exampleMoney("50"), CreationDate: exampleAt,
			ActivationDate: &exampleAt, ExpirationDate: &expires, IsActive: true, IsSplittable: true,
			Gifter: exampleCustomer, FromGifter: "Ada", MarketplaceID: 12, MarketplaceUUID: examplePartner, TimeZone: "Europe/Paris"}
	case "network_giftcard.used", "network_giftcard.usage_cancelled":
		return &network.Usage{ID: 4051, CardID: 812, MarketplaceID: 12, PartnerID: 57, PartnerSourceID: "42",
			Value: exampleMoney("20"), IsActive: eventType == "network_giftcard.used", Comment: "Dinner for two",
			CreationDate: exampleAt, TimeZone: "Europe/Paris"}
	case "network_voucher.used":
		return &network.VoucherUsage{ID: 973, VoucherID: 311, MarketplaceID: 12, PartnerID: 57, PartnerAgencyName: "Spa du Port",
			PartnerSourceID: ptrTo(int64(42)), IsActive: true, ManagementFees: exampleMoney("2.50"),
			CommissionRate: exampleMoney("12.50"), CreationDate: exampleAt}
	case "payout_request.created", "payout_request.validated", "payout_request.paid":
		return examplePayout(eventType)
	case "payment_request.paid":
		return &payments.PaymentRequest{ID: 88, Code: "PR-3K7W-9QZB", Status: payments.RequestPaid, PartnerID: 57,
			PartnerUUID: examplePartner, Amount: exampleMoney("120"), Currency: "EUR", Customer: exampleCustomer,
			Language: "fr", Reference: "INV-2026-118", Description: "Wedding package", Origin: "backoffice",
			Product: "voucher", PaidOn: &exampleAt, CreatedOn: exampleAt.Add(-time.Hour), ModifiedOn: exampleAt,
			URL: "https://sales.example.com" + payments.RequestPagePath("PR-3K7W-9QZB")}
	case "partner.payments_activated":
		return &payments.Partner{ID: 57, UUID: examplePartner, Status: domain.PartnerStatusActive, Name: "Spa du Port",
			Company:                  domain.Company{CommercialName: "Spa du Port", HQCity: "Marseille", HQCountry: "FR"},
			LegalRepresentativeEmail: "rep@example.com", PayoutFrequency: "week", IBAN: payments.MaskIBAN("FR7630006000011234567890189"),
			Activation: &payments.Activation{ID: uuid.MustParse("5c1e9b7a-3d2f-4a6b-9c8d-1e2f3a4b5c6d"), PartnerID: 57,
				PartnerUUID: examplePartner, Provider: "simulated", Status: payments.ActivationCompleted,
				CreatedOn: exampleAt.Add(-time.Hour), CompletedOn: &exampleAt}}
	}
	return nil
}

func ptrTo[T any](v T) *T { return &v }

func exampleOrder(eventType string) *checkout.Order {
	o := &checkout.Order{ID: 2301, UUID: uuid.MustParse("c3a1f6e2-8b4d-4f7a-9e2c-5d6b7a8f9e01"), Reference: "EC-K3M9Q2XW7T",
		PartnerID: 57, CartID: uuid.MustParse("e8d7c6b5-a493-4827-9160-5f4e3d2c1b0a"), Status: checkout.OrderPending,
		Currency: "EUR", Delivery: checkout.OrderDelivery{Mode: "postal", Cost: exampleMoney("5")},
		Buyer: checkout.Information{FirstName: "Ada", LastName: "Lovelace", Email: "ada@example.com", Language: "fr",
			Street: "1 rue du Port", PostalCode: "13002", City: "Marseille", Country: "FR"},
		Lines: []*checkout.OrderLine{{ID: 5120, ProductID: 311, AttributeValues: map[int64]string{}, Name: "Tasse",
			Quantity: 2, UnitPrice: exampleMoney("10"), VATRate: exampleMoney("20"), VATAmount: exampleMoney("3.33"),
			Total: exampleMoney("20")}},
		LinesTotal: exampleMoney("20"), DeliveryCost: exampleMoney("5"), CardAmount: exampleMoney("25"),
		Total: exampleMoney("25"), VATTotal: exampleMoney("3.33"), CreatedAt: exampleAt, UpdatedAt: exampleAt,
		Payment: &checkout.OrderPayment{UUID: uuid.MustParse("9f8e7d6c-5b4a-4392-8170-6e5d4c3b2a19"),
			Status: payments.StatusInProgress, Amount: exampleMoney("25")}}
	if eventType == "order.created" {
		return o
	}
	paid := exampleAt.Add(2 * time.Minute)
	o.Status, o.PaidAt, o.UpdatedAt, o.Payment.Status = checkout.OrderPaid, &paid, paid, payments.StatusPaid
	if eventType == "order.refunded" {
		o.Status, o.RefundedAmount, o.UpdatedAt = checkout.OrderRefunded, o.CardAmount, paid.Add(24*time.Hour)
	}
	return o
}

func examplePayment(succeeded bool) *payments.Payment {
	p := &payments.Payment{UUID: uuid.MustParse("1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"), Status: payments.StatusPaid,
		Currency: "EUR", Customer: exampleCustomer, Origin: "backoffice", Product: "voucher", Type: "credit_card",
		PartnerID: 57, PartnerUUID: examplePartner, Amount: exampleMoney("100"), Discount: decimal.Zero,
		Commission: exampleMoney("5.25"), NetAmount: exampleMoney("94.75"), PayinAmount: exampleMoney("100"),
		PaidOn: &exampleAt, CreatedOn: exampleAt.Add(-time.Minute), ModifiedOn: exampleAt}
	if !succeeded {
		p.Status, p.PaidOn = payments.StatusFailed, nil
		p.PayinResultCode, p.PayinResultMessage = "card_declined", "The card was declined."
	}
	return p
}

func exampleRefund(succeeded bool) *payments.Refund {
	r := &payments.Refund{UUID: uuid.MustParse("6d5c4b3a-2f1e-4d0c-9b8a-7f6e5d4c3b2a"), PaymentUUID: uuid.MustParse("1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"),
		Currency: "EUR", Status: payments.RefundStatusSucceeded, Amount: exampleMoney("10"), CreatedOn: exampleAt, FinishedOn: &exampleAt}
	if !succeeded {
		r.Status, r.ResultCode, r.ResultMessage = payments.RefundStatusFailed, "refund_failed", "The refund was refused."
	}
	return r
}

func examplePayout(eventType string) *payments.Payout {
	start := time.Date(2026, 11, 15, 23, 0, 0, 0, time.UTC)
	p := &payments.Payout{ID: 640, UUID: uuid.MustParse("2e3f4a5b-6c7d-4e8f-9a0b-1c2d3e4f5a6b"), PartnerID: 57,
		PartnerUUID: examplePartner, Currency: "EUR", Status: payments.PayoutToValidate, PeriodStart: start,
		PeriodEnd: start.AddDate(0, 0, 7), Amount: exampleMoney("1894.50"), UsagesAmount: exampleMoney("240"),
		PaymentsCount: 21, UsagesCount: 6, CreationDate: exampleAt}
	if eventType != "payout_request.created" {
		validated := exampleAt.Add(3 * time.Hour)
		p.Status, p.ValidationDate = payments.PayoutValidated, &validated
	}
	if eventType == "payout_request.paid" {
		paid := exampleAt.Add(27 * time.Hour)
		p.Status, p.PaidDate = payments.PayoutPaid, &paid
	}
	return p
}
