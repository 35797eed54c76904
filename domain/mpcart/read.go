package mpcart

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
)

// The keys of a cart's data.
const (
	giftcardsKey = "network_giftcards"
	vouchersKey  = "network_vouchers"
)

// Limits where the contract gives none.
const (
	MaxLines    = 50  // lines of each list
	MaxQuantity = 100 // of one line
)

// MaxAmount bounds a giftcard line's amount: a network giftcard's value
// cannot be more (network.MaxCardValue).
var MaxAmount = decimal.NewFromInt(1_000_000)

// Messages of refused carts.
const (
	MsgUnknownField        = "This field is not part of a multi-product cart."
	MsgEmpty               = "Give at least one network giftcard or network voucher."
	MsgNoGiftcards         = "This marketplace sells no network giftcards."
	MsgBoxNotOnSale        = "This box is not on sale."
	MsgNoMarketplace       = "This partner is neither a marketplace nor in a marketplace's network."
	MsgSeveralMarketplaces = "This partner is in several marketplaces' networks: name the marketplace instead."
	msgNotAnAmount         = "%s is not one of this marketplace's amounts: %s."
	msgMinAmount           = "Ensure this value is greater than or equal to %s."
	msgMaxValue            = "Ensure this value is less than or equal to %s."
	msgNotAnObject         = "Invalid data. Expected a dictionary, but got %s."
)

// lines are a cart's lines as read, each with whether it was read without
// an error (only those are checked against the marketplace).
type lines struct {
	giftcards   []GiftcardLine
	giftcardsOK []bool
	vouchers    []VoucherLine
	vouchersOK  []bool
}

// read reads and checks a creation, in the transaction that stores it.
// Errors: CodeInvalid with every field error; a failed read.
func (s *Service) read(ctx context.Context, tx Stores, c *domain.Caller, in CartInput) (*Cart, error) {
	v := in.Validator()
	d := domain.Fields{V: v}
	partner, err := d.WritePartner(ctx, tx.Partners, c, in.PartnerUUID, true)
	if err != nil {
		return nil, err
	}
	l := readData(d, in.Data)
	var market int64
	if partner != nil {
		if market, err = marketplaceOf(ctx, tx, partner.ID, v); err != nil {
			return nil, err
		}
	}
	if market != 0 && l != nil {
		if err := l.check(ctx, tx, market, v); err != nil {
			return nil, err
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	// The database keeps microseconds: a replay answers what a read does.
	now := s.now().Truncate(time.Microsecond)
	return &Cart{ID: uuid.New(), PartnerID: partner.ID, PartnerUUID: partner.UUID, MarketplaceID: market,
		Giftcards: l.giftcards, Vouchers: l.vouchers, CreatedAt: now, ExpiresAt: now.Add(s.ttl)}, nil
}

// marketplaceOf is the marketplace whose products a cart of the partner
// holds: the partner when it is a marketplace (read in the transaction,
// not from the caller's cached record), else the one marketplace whose
// network it is in; 0, with the error on partner_uuid, when there is none
// or several.
func marketplaceOf(ctx context.Context, tx Stores, partnerID int64, v *domain.Validator) (int64, error) {
	p, err := tx.Partners.FindPartnerByID(ctx, partnerID)
	if err != nil {
		return 0, err
	}
	if p.IsMarketplace {
		return p.ID, nil
	}
	ids, err := tx.Carts.NetworkMarketplaces(ctx, p.ID)
	switch {
	case err != nil:
		return 0, err
	case len(ids) == 1:
		return ids[0], nil
	case len(ids) == 0:
		v.Add(domain.VInvalid, MsgNoMarketplace, "partner_uuid")
	default:
		v.Add(domain.VInvalid, MsgSeveralMarketplaces, "partner_uuid")
	}
	return 0, nil
}

// readData reads data: the two lists (each optional, [] when absent), at
// least one line. nil when data is absent, null or refused.
func readData(d domain.Fields, o domain.Optional[CartData]) *lines {
	data, ok, _ := domain.Present(d, "data", o, true, false)
	if !ok {
		return nil
	}
	l := &lines{}
	l.giftcards, l.giftcardsOK = readList(d.V, giftcardsKey, data.Giftcards, func(f domain.Fields, in GiftcardInput) GiftcardLine {
		var g GiftcardLine
		if amount := f.PositiveMoney("amount", in.Amount, true); amount != nil {
			if amount.GreaterThan(MaxAmount) {
				f.V.Add(domain.VMaxValue, fmt.Sprintf(msgMaxValue, MaxAmount), "amount")
			}
			g.Amount = *amount
		}
		g.Quantity = readQuantity(f, in.Quantity)
		if id, _ := f.Integer("themed_pdf_id", in.ThemedPDFID, true, false, 1); id != nil {
			g.ThemedPDFID = int64(*id)
		}
		return g
	})
	l.vouchers, l.vouchersOK = readList(d.V, vouchersKey, data.Vouchers, func(f domain.Fields, in VoucherInput) VoucherLine {
		var line VoucherLine
		if id, _ := f.PK("id", in.BoxID, true, false); id != nil {
			line.BoxID = *id
		}
		line.Quantity = readQuantity(f, in.Quantity)
		return line
	})
	if !errorUnder(d.V, "data") && len(l.giftcards)+len(l.vouchers) == 0 {
		d.V.Add(domain.VRequired, MsgEmpty, "data", "non_field_errors")
	}
	return l
}

// errorUnder reports whether v holds an error at or below path.
func errorUnder(v *domain.Validator, path ...any) bool {
	for _, f := range v.Fields {
		if len(f.Path) >= len(path) && domain.PathKey(f.Path[:len(path)]) == domain.PathKey(path) {
			return true
		}
	}
	return false
}

// readList reads the list data.key (absent: none) of at most MaxLines
// lines, each with line, whose errors are placed under data.key.i; ok
// reports, for each line, that it was read without an error (a refused
// line among them).
func readList[In, T any](v *domain.Validator, key string, o domain.Optional[[]In], line func(f domain.Fields, in In) T) (out []T, ok []bool) {
	out = []T{}
	list := o.Value
	switch {
	case domain.HasFieldError(v, "data", key) || !o.Set:
		return out, nil
	case o.Null:
		v.Add(domain.VNull, domain.MsgNull, "data", key)
		return out, nil
	case len(list) > MaxLines:
		v.Add(domain.VMaxElements, fmt.Sprintf(domain.MsgTooManyElements, MaxLines), "data", key)
		return out, nil
	}
	v.ListLength(len(list), "data", key)
	for i, in := range list {
		at := []any{"data", key, i}
		// The line's rules skip the fields the surface refused.
		sub := &domain.Validator{Fields: refusalsUnder(v, at)}
		seeded := len(sub.Fields)
		if domain.HasFieldError(sub, "non_field_errors") { // not a line at all
			var zero T
			out, ok = append(out, zero), append(ok, false)
			continue
		}
		out = append(out, line(domain.Fields{V: sub}, in))
		for _, fe := range sub.Fields[seeded:] {
			v.Add(fe.Code, fe.Message, append(slices.Clone(at), fe.Path...)...)
		}
		ok = append(ok, len(sub.Fields) == 0)
	}
	return out, ok
}

// refusalsUnder is the errors of v below path, their paths relative to it.
func refusalsUnder(v *domain.Validator, path []any) []domain.FieldError {
	var out []domain.FieldError
	for _, f := range v.Fields {
		if len(f.Path) > len(path) && domain.PathKey(f.Path[:len(path)]) == domain.PathKey(path) {
			f.Path = f.Path[len(path):]
			out = append(out, f)
		}
	}
	return out
}

// readQuantity reads a line's quantity: 1 to MaxQuantity.
func readQuantity(f domain.Fields, o domain.Optional[int64]) int {
	n, _ := f.Integer("quantity", o, true, false, 1)
	if n == nil {
		return 0
	}
	if *n > MaxQuantity {
		f.V.Add(domain.VMaxValue, fmt.Sprintf(msgMaxValue, fmt.Sprint(MaxQuantity)), "quantity")
	}
	return *n
}

// check checks the lines read without an error against the network
// giftcard settings and the boxes of the marketplace.
func (l *lines) check(ctx context.Context, tx Stores, market int64, v *domain.Validator) error {
	if slices.Contains(l.giftcardsOK, true) {
		settings, err := tx.Carts.GiftcardSettings(ctx, market)
		if err != nil {
			return err
		}
		for i, g := range l.giftcards {
			if !l.giftcardsOK[i] {
				continue
			}
			if code, msg := settings.refusal(g.Amount); msg != "" {
				v.Add(code, msg, "data", giftcardsKey, i, "amount")
			}
		}
	}
	var ids []int64
	for i, line := range l.vouchers {
		if l.vouchersOK[i] && !slices.Contains(ids, line.BoxID) {
			ids = append(ids, line.BoxID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	boxes, err := tx.Carts.Boxes(ctx, market, ids)
	if err != nil {
		return err
	}
	for i, line := range l.vouchers {
		if !l.vouchersOK[i] {
			continue
		}
		switch b, found := boxes[line.BoxID]; {
		case !found:
			v.Add(domain.VNotFound, fmt.Sprintf(domain.MsgPKMissing, line.BoxID), "data", vouchersKey, i, "id")
		case !b.IsActive:
			v.Add(domain.VInvalid, MsgBoxNotOnSale, "data", vouchersKey, i, "id")
		}
	}
	return nil
}

// refusal is why the settings refuse a giftcard of amount ("" when they
// accept it): one of the predefined amounts, or with customized amounts
// any amount of at least the minimum.
func (s *GiftcardSettings) refusal(amount decimal.Decimal) (code, msg string) {
	amounts := make([]string, len(s.PredefinedAmounts))
	for i, a := range s.PredefinedAmounts {
		if a.Equal(amount) {
			return "", ""
		}
		amounts[i] = a.StringFixed(2)
	}
	switch {
	case s.CustomizedAmount && amount.GreaterThanOrEqual(s.MinimumAmount):
		return "", ""
	case s.CustomizedAmount:
		return domain.VMinValue, fmt.Sprintf(msgMinAmount, s.MinimumAmount.StringFixed(2))
	case len(amounts) == 0:
		return domain.VInvalid, MsgNoGiftcards
	}
	return domain.VInvalid, fmt.Sprintf(msgNotAnAmount, amount.StringFixed(2), strings.Join(amounts, ", "))
}
