package rest

import (
	"salesplatform/domain"
	"salesplatform/domain/mpcart"
	"salesplatform/rest/drf"
)

// decodeCartInput reads a multi-product cart's creation body: keys the
// contract does not name are refused, in data and in its lines.
func decodeCartInput(doc map[string]any) mpcart.CartInput {
	var in mpcart.CartInput
	d := drf.New(doc, &in.Refusals)
	in.PartnerUUID = d.UUID("partner_uuid")
	data, o, ok := d.Object("data")
	if !ok {
		in.Data = domain.Optional[mpcart.CartData]{Set: o.Set, Null: o.Null}
		return in
	}
	data.Unknown(mpcart.DataKeys, mpcart.MsgUnknownField)
	var lines mpcart.CartData
	lines.Giftcards = drf.List(data, mpcart.GiftcardsKey, mpcart.MaxLines, mpcart.MsgNotAnObject, func(l drf.Reader) mpcart.GiftcardInput {
		l.Unknown(mpcart.GiftcardKeys, mpcart.MsgUnknownField)
		return mpcart.GiftcardInput{Amount: l.Decimal("amount"), Quantity: l.Int("quantity"), ThemedPDFID: l.Int("themed_pdf_id")}
	})
	lines.Vouchers = drf.List(data, mpcart.VouchersKey, mpcart.MaxLines, mpcart.MsgNotAnObject, func(l drf.Reader) mpcart.VoucherInput {
		l.Unknown(mpcart.VoucherKeys, mpcart.MsgUnknownField)
		return mpcart.VoucherInput{BoxID: l.PK("id"), Quantity: l.Int("quantity")}
	})
	in.Data = domain.Some(lines)
	return in
}
