package graph

import (
	"strings"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/mpcart"
	"salesplatform/graph/model"
)

// createMultiProductCartInput maps the creation onto the service's input:
// the input's lines are its data.
// Errors: CodeInvalid on a line's amount or themed PDF id that is not a
// number (the schema takes them as text), at REST's path.
func createMultiProductCartInput(in model.CreateMultiProductCartInput, partner *uuid.UUID) (mpcart.CartInput, error) {
	var v domain.Validator
	var data mpcart.CartData
	if lines, ok := in.NetworkGiftcards.ValueOK(); ok {
		data.Giftcards = domain.Null[[]mpcart.GiftcardInput]()
		if lines != nil {
			list := make([]mpcart.GiftcardInput, len(lines))
			for i, g := range lines {
				list[i].Quantity = domain.Some(int64(g.Quantity))
				amount, err := decimal.NewFromString(strings.TrimSpace(g.Amount))
				if err != nil || strings.ContainsAny(g.Amount, "eE") {
					v.Add(domain.VInvalid, domain.MsgDecimal, "data", mpcart.GiftcardsKey, i, "amount")
				} else {
					list[i].Amount = domain.Some(amount)
				}
				if n, ok := domain.AsInt(g.ThemedPDFID); ok {
					list[i].ThemedPDFID = domain.Some(n)
				} else {
					v.Add(domain.VInvalid, domain.MsgInteger, "data", mpcart.GiftcardsKey, i, "themed_pdf_id")
				}
			}
			data.Giftcards = domain.Some(list)
		}
	}
	if lines, ok := in.NetworkVouchers.ValueOK(); ok {
		data.Vouchers = domain.Null[[]mpcart.VoucherInput]()
		if lines != nil {
			list := make([]mpcart.VoucherInput, len(lines))
			for i, l := range lines {
				list[i] = mpcart.VoucherInput{BoxID: domain.Some(refID(l.BoxID, "NetworkVoucherBox")), Quantity: domain.Some(int64(l.Quantity))}
			}
			data.Vouchers = domain.Some(list)
		}
	}
	return mpcart.CartInput{PartnerUUID: domain.FromPtr(partner), Data: domain.Some(data)}, v.Err()
}
