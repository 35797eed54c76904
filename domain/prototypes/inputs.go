package prototypes

import (
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
)

// The typed inputs of the prototype and option administration. Texts are
// keyed by language (name_<lang> of the contract); field errors name the
// contract's fields.

// msgDate refuses a last_active_day that cannot be stored.
const msgDate = "Date has wrong format. Use one of these formats instead: YYYY-MM-DD."

// PrototypeInput is a voucher prototype's write. PartnerUUID is read on
// creation only.
type PrototypeInput struct {
	domain.Refusals
	PartnerUUID domain.Optional[uuid.UUID]

	Name, Description, LongDescription     map[string]domain.Optional[string]
	RentConditions, HowToBookHTML, PDFText map[string]domain.Optional[string]

	IsActive, IsHighlight                         domain.Optional[bool]
	Type                                          domain.Optional[string] // one of VoucherPrototypeTypes
	PriceScope, MaxCapacity, MinCapacity, Ranking domain.Optional[int64]
	StayPrice                                     domain.Optional[decimal.Decimal]
	AdultsPrice, ChildrenPrice, BabyPrice         domain.Optional[decimal.Decimal]
	LastActiveDay                                 domain.Optional[time.Time]
	Universe, Environment, CoverImage             domain.Optional[int64]
	Images                                        domain.Optional[[]int64]
}

// OptionInput is an option's creation.
type OptionInput struct {
	domain.Refusals
	PartnerUUID                   domain.Optional[uuid.UUID]
	Name, Description             map[string]domain.Optional[string]
	Price, SellingPrice           domain.Optional[decimal.Decimal]
	Countable, IsGlobal, IsActive domain.Optional[bool]
	Ranking                       domain.Optional[int64]
	Category                      domain.Optional[int64]
	VoucherPrototypes             domain.Optional[[]int64]
	// Services is services_info: one entry per row sent (a row the
	// surface refused is a zero entry).
	Services domain.Optional[[]OptionServiceInput]
}

// OptionServiceInput is one row of an option's services_info.
type OptionServiceInput struct {
	Cost, BuyingVAT, SellingVAT, Price domain.Optional[decimal.Decimal]
}

// OptionCategoryInput is an option category's creation.
type OptionCategoryInput struct {
	domain.Refusals
	PartnerUUID                                 domain.Optional[uuid.UUID]
	Name, Description                           map[string]domain.Optional[string]
	IsActive                                    domain.Optional[bool]
	Ranking, MinNumberOptions, MaxNumberOptions domain.Optional[int64]
}
