package model

import (
	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// AdminVoucherPrototype is type AdminVoucherPrototype; universe and
// options resolve through loaders.
type AdminVoucherPrototype struct {
	ID              int64
	PartnerID       int64
	PartnerUUID     uuid.UUID
	Name            *Localized
	Description     *Localized
	LongDescription *Localized
	RentConditions  *Localized
	HowToBookHTML   *Localized
	PDFDescription  *Localized
	IsActive        bool
	IsHighlight     bool
	Type            VoucherPrototypeType
	PriceScope      int
	MaxCapacity     int
	MinCapacity     int
	Ranking         int
	StayPrice       decimal.Decimal
	AdultsPrice     *decimal.Decimal
	ChildrenPrice   *decimal.Decimal
	BabyPrice       *decimal.Decimal
	UniverseID      *int64
	EnvironmentID   *int64
	LastActiveDay   *string
	ImageIDs        []int64
	CoverImageID    *int64
	NbOrders        int
	// CoverMediaID is what coverImage shows (domain's CoverMediaID).
	CoverMediaID *int64
}

// VoucherOption is type VoucherOption; category and prototypes resolve
// through loaders.
type VoucherOption struct {
	ID             int64
	PartnerID      int64
	PartnerUUID    uuid.UUID
	Name           *Localized
	Description    *Localized
	Price          decimal.Decimal
	SellingPrice   decimal.Decimal
	Countable      bool
	IsActive       bool
	IsGlobal       bool
	Ranking        int
	HasBeenOrdered bool
	Services       []*OptionService
	CategoryID     *int64
	PrototypeIDs   []int64
}
