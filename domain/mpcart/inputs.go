package mpcart

import (
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
)

// CartInput is a cart's creation: partner_uuid and data. Its field errors
// name the contract's fields, the lines' nested under data.
type CartInput struct {
	domain.Refusals
	PartnerUUID domain.Optional[uuid.UUID]
	Data        domain.Optional[CartData]
}

// CartData is a cart's lines (network_giftcards, network_vouchers), each
// list optional. A list holds one entry per element sent (an element the
// surface refused is a zero entry).
type CartData struct {
	Giftcards domain.Optional[[]GiftcardInput]
	Vouchers  domain.Optional[[]VoucherInput]
}

// GiftcardInput is a giftcard line.
type GiftcardInput struct {
	Amount      domain.Optional[decimal.Decimal]
	Quantity    domain.Optional[int64]
	ThemedPDFID domain.Optional[int64] // themed_pdf_id
}

// VoucherInput is a voucher line: the box (id) and how many.
type VoucherInput struct {
	BoxID    domain.Optional[int64] // id
	Quantity domain.Optional[int64]
}

// The keys of a cart's data and of its lines, the only ones a body holds.
var (
	DataKeys     = []string{giftcardsKey, vouchersKey}
	GiftcardKeys = []string{"amount", "quantity", "themed_pdf_id"}
	VoucherKeys  = []string{"id", "quantity"}
)

// GiftcardsKey and VouchersKey are the keys of a cart's data.
const (
	GiftcardsKey = giftcardsKey
	VouchersKey  = vouchersKey
)

// MsgNotAnObject refuses a line that is not an object (a format of its
// JSON type name).
const MsgNotAnObject = msgNotAnObject
