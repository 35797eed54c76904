package vouchers

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/gifts"
)

// Giftcard administration: a partner's members
// list and find the giftcards of its giftcard prototypes; staff see every
// partner's and may issue giftcards without a sale.

// AdminGiftcard is a giftcard as the administration API shows it.
type AdminGiftcard struct {
	ID                  int64
	Code                string
	PartnerID           int64 // the giftcard prototype's partner
	PartnerTimeZone     string
	GiftcardPrototypeID int64
	Status              string
	CreatedOn           time.Time
	ExpiresOn           *time.Time
	Value               decimal.Decimal
	RemainingValue      decimal.Decimal
	GifterFirstName     string
	GifterLastName      string
}

// Location is the zone the giftcard's dates are shown in.
func (g *AdminGiftcard) Location() *time.Location {
	return gifts.GiftSellerLocation(&domain.Partner{ID: g.PartnerID, TimeZone: g.PartnerTimeZone})
}

// GiftcardListInput is the giftcard list's query, as given.
type GiftcardListInput struct {
	// PartnerID limits the list to one partner's giftcards; the caller's
	// tenancy applies on top.
	PartnerID                                  *int64
	CreatedOnGte, CreatedOnLte, CreatedOnRange string
	Ordering                                   string
}

// GiftcardFilter is a checked GiftcardListInput; dates bound created_on
// (From inclusive, To exclusive).
type GiftcardFilter struct {
	Tenant   *int64
	From, To *time.Time
	Order    []AdminOrder
}

// GiftcardAdminStore reads and writes the administration's giftcards.
type GiftcardAdminStore interface {
	// ListGiftcards returns a page of the giftcards f selects, with the
	// total count.
	ListGiftcards(ctx context.Context, f GiftcardFilter, page domain.PageRequest) ([]*AdminGiftcard, int, error)
	// FindGiftcard returns the giftcard with that id (code ""), or with
	// that code; ErrNotFound when there is none.
	FindGiftcard(ctx context.Context, id int64, code string) (*AdminGiftcard, error)
	// IssueGiftcard registers g.Code and inserts g in one transaction,
	// setting g.ID. A taken code is a CodeInvalid error on "code"; an
	// unknown prototype on "giftcardPrototypeId".
	IssueGiftcard(ctx context.Context, g *AdminGiftcard) error
}

// Giftcards lists the giftcards of the caller's partner (staff: of all),
// newest first unless in.Ordering says otherwise.
// Errors: those of Authorize; CodeInvalid on the query's fields;
// CodeNotFound "Invalid page." past the last page.
func (s *VoucherAdminService) Giftcards(ctx context.Context, in GiftcardListInput, page domain.PageRequest) (*domain.Page[*AdminGiftcard], error) {
	c, err := domain.Authorize(ctx, domain.OpGiftcardRead)
	if err != nil {
		return nil, err
	}
	tenant, none := c.ListTenant(in.PartnerID)
	var v domain.Validator
	f := GiftcardFilter{Tenant: tenant, Order: ordering(&v, in.Ordering, GiftcardOrderFields, "created_on")}
	f.From, f.To = domain.DateFilters(&v, callerLocation(c), "created_on", in.CreatedOnGte, in.CreatedOnLte, in.CreatedOnRange)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if none {
		return domain.NewPage([]*AdminGiftcard{}, 0, page)
	}
	items, count, err := s.uow.Stores().Vouchers.ListGiftcards(ctx, f, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(items, count, page)
}

// Giftcard returns the giftcard with that id.
// Errors: those of Authorize; CodeNotFound when there is none or the
// caller does not see its partner.
func (s *VoucherAdminService) Giftcard(ctx context.Context, id int64) (*AdminGiftcard, error) {
	return s.seenGiftcard(ctx, id, "")
}

// GiftcardByCode returns the giftcard with that code.
// Errors: as Giftcard.
func (s *VoucherAdminService) GiftcardByCode(ctx context.Context, code string) (*AdminGiftcard, error) {
	if !gifts.ValidGiftCode(code) {
		if _, err := domain.Authorize(ctx, domain.OpGiftcardRead); err != nil {
			return nil, err
		}
		return nil, domain.ErrNotFound
	}
	return s.seenGiftcard(ctx, 0, code)
}

func (s *VoucherAdminService) seenGiftcard(ctx context.Context, id int64, code string) (*AdminGiftcard, error) {
	c, err := domain.Authorize(ctx, domain.OpGiftcardRead)
	if err != nil {
		return nil, err
	}
	g, err := s.uow.Stores().Vouchers.FindGiftcard(ctx, id, code)
	if err != nil {
		return nil, err
	}
	if !c.Sees(g.PartnerID) {
		return nil, domain.ErrNotFound
	}
	return g, nil
}

// IssueGiftcardInput is a giftcard staff issue without a sale.
type IssueGiftcardInput struct {
	GiftcardPrototypeID int64
	Value               string
	Status              *string // draft or paid; default paid
	ExpiresOn           *time.Time
	GifterFirstName     *string
	GifterLastName      *string
}

// IssueGiftcard creates a giftcard of a giftcard prototype with a
// generated code and its whole value remaining, without a sale: staff
// only. The code and the giftcard are one transaction.
// Errors: those of Authorize; CodeInvalid with every field error.
func (s *VoucherAdminService) IssueGiftcard(ctx context.Context, in IssueGiftcardInput) (*AdminGiftcard, error) {
	if _, err := domain.Authorize(ctx, domain.OpGiftcardIssue); err != nil {
		return nil, err
	}
	var v domain.Validator
	g := &AdminGiftcard{GiftcardPrototypeID: in.GiftcardPrototypeID, Status: gifts.GiftStatusPaid, ExpiresOn: in.ExpiresOn}
	g.Value = v.Money(in.Value, "value")
	g.RemainingValue = g.Value
	if in.Status != nil {
		if *in.Status != gifts.GiftStatusDraft && *in.Status != gifts.GiftStatusPaid {
			v.Add(domain.VInvalid, fmt.Sprintf(domain.MsgLanguageChoice, *in.Status), "status")
		}
		g.Status = *in.Status
	}
	if in.ExpiresOn != nil && v.TimeInRange(*in.ExpiresOn, "expiresOn") && !in.ExpiresOn.After(s.now()) {
		v.Add(domain.VInvalid, "The expiration date must be in the future.", "expiresOn")
	}
	g.GifterFirstName = issueText(&v, in.GifterFirstName, maxIssueNameLength, "gifterFirstName")
	g.GifterLastName = issueText(&v, in.GifterLastName, maxIssueNameLength, "gifterLastName")
	if err := v.Err(); err != nil {
		return nil, err
	}
	_, err := domain.IssueWithCode(func(code string) error {
		g.Code = code
		return s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
			return tx.Vouchers.IssueGiftcard(ctx, g)
		})
	})
	if err != nil {
		return nil, err
	}
	return s.uow.Stores().Vouchers.FindGiftcard(ctx, g.ID, "")
}
