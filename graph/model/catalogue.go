package model

// Models of the catalogue written by hand (gqlgen.yml binds them): the
// shared Localized and Money, and the nodes whose fields resolve through
// loaders, which keep the int64 ids the loaders take. gqlgen generates the
// others into models_gen.go.

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain/l10n"
)

// Language is enum Language: a language of the service, upper case.
type Language string

// Languages, in the order the API lists them.
const (
	LanguageFr Language = "FR"
	LanguageEn Language = "EN"
	LanguageEs Language = "ES"
	LanguageIt Language = "IT"
	LanguageDe Language = "DE"
	LanguageNl Language = "NL"
	LanguageCa Language = "CA"
	LanguagePt Language = "PT"
)

// Code is the language's code in a Localized: "fr".
func (l Language) Code() string { return strings.ToLower(string(l)) }

// IsValid reports whether l is one of the service's languages.
func (l Language) IsValid() bool {
	switch l {
	case LanguageFr, LanguageEn, LanguageEs, LanguageIt, LanguageDe, LanguageNl, LanguageCa, LanguagePt:
		return true
	}
	return false
}

// UnmarshalGQL implements graphql.Unmarshaler.
func (l *Language) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("enums must be strings")
	}
	*l = Language(s)
	if !l.IsValid() {
		return fmt.Errorf("%s is not a valid Language", s)
	}
	return nil
}

// MarshalGQL implements graphql.Marshaler.
func (l Language) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(string(l))) }

// Localized is type Localized: a text per language, null where a language
// has none (an empty text stays empty).
type Localized struct {
	texts map[string]string
	// write, when set, writes the text of a language as it is asked for:
	// every language has one (formatted money).
	write func(lang string) string
}

// NewLocalized wraps texts keyed by language code; nil is no text at all.
func NewLocalized(texts map[string]string) *Localized { return &Localized{texts: texts} }

// Text is the text in lang, nil when there is none.
func (l *Localized) Text(lang Language) *string { return l.text(lang.Code()) }

func (l *Localized) text(code string) *string {
	if l.write != nil {
		t := l.write(code)
		return &t
	}
	if t, ok := l.texts[code]; ok {
		return &t
	}
	return nil
}

func (l *Localized) Fr() *string { return l.text("fr") }
func (l *Localized) En() *string { return l.text("en") }
func (l *Localized) Es() *string { return l.text("es") }
func (l *Localized) It() *string { return l.text("it") }
func (l *Localized) De() *string { return l.text("de") }
func (l *Localized) Nl() *string { return l.text("nl") }
func (l *Localized) Ca() *string { return l.text("ca") }
func (l *Localized) Pt() *string { return l.text("pt") }

// Money is type Money. Formatted is written only when asked for.
type Money struct {
	Amount   decimal.Decimal
	Currency string // ISO 4217
}

// CurrencyCode is the currency as the CurrencyCode enum.
func (m *Money) CurrencyCode() CurrencyCode { return CurrencyCode(m.Currency) }

// Formatted is the amount as each language writes it in the currency,
// written for the languages the query asks for only.
func (m *Money) Formatted() *Localized {
	return &Localized{write: l10n.MoneyWriter(m.Amount, m.Currency)}
}

// ValidityUnit is enum ValidityUnit.
type ValidityUnit string

// Validity units, as the schema names them.
const (
	ValidityUnitDay   ValidityUnit = "DAY"
	ValidityUnitWeek  ValidityUnit = "WEEK"
	ValidityUnitMonth ValidityUnit = "MONTH"
	ValidityUnitYear  ValidityUnit = "YEAR"
)

// IsValid reports whether u is one of the units.
func (u ValidityUnit) IsValid() bool {
	switch u {
	case ValidityUnitDay, ValidityUnitWeek, ValidityUnitMonth, ValidityUnitYear:
		return true
	}
	return false
}

// UnmarshalGQL implements graphql.Unmarshaler.
func (u *ValidityUnit) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("enums must be strings")
	}
	*u = ValidityUnit(s)
	if !u.IsValid() {
		return fmt.Errorf("%s is not a valid ValidityUnit", s)
	}
	return nil
}

// MarshalGQL implements graphql.Marshaler.
func (u ValidityUnit) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(string(u))) }

// ProductInformation is type ProductInformation: each product line's
// settings resolve, and are read, only when asked for.
type ProductInformation struct{}

// Box is type Box; images and offers resolve through loaders.
type Box struct {
	ID                     int64
	Name                   *Localized
	ShortDescription       *Localized
	LongDescription        *Localized
	IsHighlight            bool
	DisplayNbOffers        bool
	NbOffers               int
	Price                  *Money
	Ranking                int
	PeopleIncluded         int
	MaxNumberUsages        int
	MaxDaysAfterFirstUsage int
	UniverseIDs            []int64
}

// BoxOffer is type BoxOffer; partner resolves through a loader.
type BoxOffer struct {
	ID        int64
	PartnerID int64
}

// GiftcardPrototype is type GiftcardPrototype; partner resolves through a
// loader.
type GiftcardPrototype struct {
	ID                int64
	Title             *Localized
	Description       *Localized
	TermsOfUse        *Localized
	CustomizedAmount  bool
	MinimumAmount     *Money
	PredefinedAmounts []*Money
	MoneyPot          *MoneyPot
	ValidityPeriod    int
	ValidityUnit      ValidityUnit
	PartnerID         int64
	PartnerName       string
}

// MoneyPot is type MoneyPot.
type MoneyPot struct {
	Activated bool
	Logo      *string
}

// Event is type Event; slots resolve through a loader.
type Event struct {
	ID               int64
	Name             *Localized
	ShortDescription *Localized
	LongDescription  *Localized
	Booking          *Localized
	CoverImage       string
	Images           []string
	Formulas         []*EventFormula
	LowestPrice      *Money
	DeliveryOptions  *DeliveryOptions
}

// EventFormula is type EventFormula.
type EventFormula struct {
	ID    int64
	Name  *Localized
	Price *Money
}

// DeliveryOptions is type DeliveryOptions.
type DeliveryOptions struct {
	ActivatedEmailToBuyer                    bool
	ActivatedEmailToBeneficiaryDelivery      bool
	ActivatedPostalMailToBuyer               bool
	ActivatedPostalMailToBeneficiaryDelivery bool
	PostalMailShippingCost                   *Money
	PostalMailDuration                       int
	ActivatedPickupOnSiteDelivery            bool
	PickupOnSiteDuration                     int
	PickupOnSiteCost                         *Money
	Activated3MAToBuyer                      bool
	Activated3MAToBeneficiary                bool
	MessengerDeliveryCost                    *Money
}

// EventSlotListItem is type EventSlotListItem; event resolves through a
// loader.
type EventSlotListItem struct {
	ID                        int64
	EventID                   int64
	Name                      *Localized
	Description               *Localized
	StartingDatetime          time.Time
	StartingDatetimeFormatted *Localized
	EndingDatetime            time.Time
	EndingDatetimeFormatted   *Localized
	DurationFormatted         *Localized
	Price                     *Money
	FormulasCount             int
	AvailablePlaces           int
	SlotsCount                int
}

// Workshop is type Workshop; sessions resolve through a loader.
type Workshop struct {
	ID                            int64
	Name                          *Localized
	ShortDescription              *Localized
	LongDescription               *Localized
	BookingConditions             *Localized
	Images                        []string
	CanBePrivatized               bool
	DisplayCalendar               bool
	Address                       string
	Category                      *WorkshopCategory
	Level                         *WorkshopLevel
	Themes                        []*WorkshopTheme
	Targets                       []*WorkshopTarget
	Skills                        []*WorkshopSkill
	Recipes                       []*WorkshopRecipe
	ActivateWorkshopsGroupPayment bool
}

// WorkshopCategory is type WorkshopCategory.
type WorkshopCategory struct {
	ID                     int64
	Name                   *Localized
	Price                  *Money
	SpecificValidityPeriod *int
}

// WorkshopTag is a term of a workshop vocabulary. Each vocabulary is a
// type of its own (WorkshopLevel, WorkshopTheme, WorkshopTarget,
// WorkshopSkill, WorkshopRecipe), so that each is a Node with global ids
// of its own type name.
type WorkshopTag struct {
	ID   int64
	Name *Localized
}

// WorkshopLevel is type WorkshopLevel.
type WorkshopLevel WorkshopTag

// WorkshopTheme is type WorkshopTheme.
type WorkshopTheme WorkshopTag

// WorkshopTarget is type WorkshopTarget.
type WorkshopTarget WorkshopTag

// WorkshopSkill is type WorkshopSkill.
type WorkshopSkill WorkshopTag

// WorkshopRecipe is type WorkshopRecipe.
type WorkshopRecipe WorkshopTag

// WorkshopSession is type WorkshopSession; workshop resolves through a
// loader.
type WorkshopSession struct {
	ID                        int64
	WorkshopID                int64
	StartingDatetime          time.Time
	StartingDatetimeFormatted *Localized
	EndingDatetime            time.Time
	EndingDatetimeFormatted   *Localized
	MinCapacity               int
	MaxCapacity               int
	DurationFormatted         *Localized
	DurationValueFormatted    *Localized
	AvailablePlaces           int
	FunnelLink                string
}
