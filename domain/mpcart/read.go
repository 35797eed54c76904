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
	MsgAmountPositive      = "Ensure this value is greater than 0."
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

// read reads and checks the body of a creation, in the transaction that
// stores it.
// Errors: CodeInvalid with every field error; a failed read.
func (s *CartService) read(ctx context.Context, tx Stores, c *domain.Caller, doc domain.Doc) (*Cart, error) {
	var v domain.Validator
	d := &domain.DocReader{V: &v, Obj: doc}
	partner, err := d.WritePartner(ctx, tx.Partners, c, true)
	if err != nil {
		return nil, err
	}
	l := readData(d)
	var market int64
	if partner != nil {
		if market, err = marketplaceOf(ctx, tx, partner.ID, &v); err != nil {
			return nil, err
		}
	}
	if market != 0 && l != nil {
		if err := l.check(ctx, tx, market, &v); err != nil {
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

// readData reads data: an object of the two lists (each optional, []
// when absent), at least one line, and no other key. nil when data is
// absent, null or not an object.
func readData(d *domain.DocReader) *lines {
	value, ok, _ := d.Raw("data", true, false)
	if !ok {
		return nil
	}
	obj, isObj := value.(map[string]any)
	if !isObj {
		d.V.Add(domain.VInvalid, fmt.Sprintf(domain.MsgNotADict, domain.JSONTypeName(value)), "data")
		return nil
	}
	before := len(d.V.Fields)
	unknownFields(d.V, obj, []string{giftcardsKey, vouchersKey}, "data")
	l := &lines{}
	l.giftcards, l.giftcardsOK = readList(d.V, obj, giftcardsKey, func(sub *domain.DocReader) GiftcardLine {
		var g GiftcardLine
		unknownFields(sub.V, sub.Obj, []string{"amount", "quantity", "themed_pdf_id"})
		if amount, _ := sub.Money("amount", true, false); amount != nil {
			switch {
			case !amount.IsPositive():
				sub.V.Add(domain.VMinValue, MsgAmountPositive, "amount")
			case amount.GreaterThan(MaxAmount):
				sub.V.Add(domain.VMaxValue, fmt.Sprintf(msgMaxValue, MaxAmount), "amount")
			}
			g.Amount = *amount
		}
		g.Quantity = readQuantity(sub)
		if id, _ := sub.Integer("themed_pdf_id", true, false, 1); id != nil {
			g.ThemedPDFID = int64(*id)
		}
		return g
	})
	l.vouchers, l.vouchersOK = readList(d.V, obj, vouchersKey, func(sub *domain.DocReader) VoucherLine {
		var line VoucherLine
		unknownFields(sub.V, sub.Obj, []string{"id", "quantity"})
		if id, _ := sub.PK("id", true, false); id != nil {
			line.BoxID = *id
		}
		line.Quantity = readQuantity(sub)
		return line
	})
	if len(d.V.Fields) == before && len(l.giftcards)+len(l.vouchers) == 0 {
		d.V.Add(domain.VRequired, MsgEmpty, "data", "non_field_errors")
	}
	return l
}

// unknownFields records MsgUnknownField on every key of obj not in known,
// at path, in key order: a cart's data and lines hold the contract's keys
// only.
func unknownFields(v *domain.Validator, obj map[string]any, known []string, path ...any) {
	var keys []string
	for k := range obj {
		if !slices.Contains(known, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		v.Add(domain.VInvalid, MsgUnknownField, append(slices.Clone(path), k)...)
	}
}

// readList reads the list data[key] (absent: none) of at most MaxLines
// objects, each with line, whose errors are placed under data.key.i; ok
// reports, for each element, that it was read without an error (an
// element that is no object is a zero T).
func readList[T any](v *domain.Validator, obj map[string]any, key string, line func(sub *domain.DocReader) T) (out []T, ok []bool) {
	out = []T{}
	value, present := obj[key]
	switch list := value.(type) {
	case nil:
		if present {
			v.Add(domain.VNull, domain.MsgNull, "data", key)
		}
	case []any:
		if len(list) > MaxLines {
			v.Add(domain.VMaxElements, fmt.Sprintf(domain.MsgTooManyElements, MaxLines), "data", key)
			return out, nil
		}
		v.ListLength(len(list), "data", key)
		for i, e := range list {
			elem, isObj := e.(map[string]any)
			if !isObj {
				v.Add(domain.VInvalid, fmt.Sprintf(msgNotAnObject, domain.JSONTypeName(e)), "data", key, i, "non_field_errors")
				var zero T
				out, ok = append(out, zero), append(ok, false)
				continue
			}
			sub := &domain.DocReader{V: &domain.Validator{}, Obj: elem}
			out = append(out, line(sub))
			for _, fe := range sub.V.Fields {
				v.Add(fe.Code, fe.Message, append([]any{"data", key, i}, fe.Path...)...)
			}
			ok = append(ok, len(sub.V.Fields) == 0)
		}
	default:
		v.Add(domain.VInvalid, fmt.Sprintf(domain.MsgNotAList, domain.JSONTypeName(value)), "data", key)
	}
	return out, ok
}

// readQuantity reads a line's quantity: 1 to MaxQuantity.
func readQuantity(sub *domain.DocReader) int {
	n, _ := sub.Integer("quantity", true, false, 1)
	if n == nil {
		return 0
	}
	if *n > MaxQuantity {
		sub.V.Add(domain.VMaxValue, fmt.Sprintf(msgMaxValue, fmt.Sprint(MaxQuantity)), "quantity")
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
