// Package demo is the demo dataset of `salesplatform seed demo` and its
// loader. The dataset is data: the JSON files under data/, embedded in the
// binary (docs/admin-seed.md says what each holds). Load writes it through
// the domain services, so that it passes the validation of the API's writes.
package demo

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/domain/gifts"
	"salesplatform/domain/network"
	"salesplatform/domain/widgets"
)

//go:embed data/*.json
var dataFiles embed.FS

// sharedFile holds values several records use; a record gives one as
// {"$ref": "name"}.
const sharedFile = "shared.json"

// Dataset is the whole demo dataset. Records name each other by key; keys
// are unique across the dataset, except that an administration prototype
// has the key of the catalogue voucher prototype it completes.
type Dataset struct {
	// partners.json
	Staff User
	// PartnerPermissions are granted to each partner's user: what the
	// README's administration walkthrough needs.
	PartnerPermissions []string
	// Partners come marketplace first: the first one's widgets mark the
	// catalogue as loaded.
	Partners []Partner

	// catalogue.json
	Universes          []Universe // parents first
	Themes             []Theme
	VoucherPrototypes  []VoucherPrototype
	GiftcardPrototypes []GiftcardPrototype
	Boxes              []Box
	// events.json
	Events []Event
	// workshops.json
	WorkshopTags       []WorkshopTag
	WorkshopCategories []WorkshopCategory
	Workshops          []Workshop
	// gifts.json
	Gifts []Gift

	// administration.json
	Environments []Environment
	// Colours name the colours of the generated images.
	Colours          map[string]string
	AdminPrototypes  []AdminPrototype
	OptionCategories []OptionCategory
	Options          []Option
	OptionLinks      []OptionLink
	// Coupons: the first marks the administration part as loaded.
	Coupons   []Coupon
	Vouchers  []Voucher
	Giftcards []Giftcard

	// network.json
	// MarketplacePermissions are granted to each marketplace's user besides
	// PartnerPermissions: the network routes' walkthrough needs them.
	MarketplacePermissions []string
	// NetworkPartners: the first marks the network part as loaded.
	NetworkPartners  []NetworkPartner
	BoxOffers        []BoxOffer
	NetworkGiftcards []NetworkGiftcard
	NetworkVouchers  []NetworkVoucher

	// payments.json
	// ReferrerPermissions are granted to the user of each marketplace that
	// refers a payment-hub partner, besides MarketplacePermissions: its
	// payments' refunds need them.
	ReferrerPermissions []string
	// PaymentPartners: the first marks the payment-hub part as loaded.
	PaymentPartners []PaymentPartner
	HubPayments     []HubPayment
	PaymentRequests []HubPaymentRequest

	// ecommerce.json
	// Shops are partners' e-commerce catalogues: the first shop's first
	// product marks the part as loaded.
	Shops []Shop
}

// User is a demo account's credentials.
type User struct {
	Username, Password, Email string
}

// Partner is a demo account and what its partner shows of itself.
type Partner struct {
	Key string
	User
	Name, Domain string
	Marketplace  bool
	// NetworkOf is the key of the marketplace whose network the partner is
	// in (and whose network giftcards it takes); "" for none.
	NetworkOf   string
	Profile     catalogue.PartnerProfile
	Labels      []Label
	Legal       catalogue.LegalInformation
	RefundTerms domain.Localized
	Products    ProductInformation
	Widgets     Widgets
}

// Label is a label the partner displays.
type Label struct {
	Name, LogoURL string
}

// ProductInformation are a partner's settings of the product lines it
// sells; nil for the others. A ValidityPeriodUnit of 2 is months: the
// contract does not document the codes, this assumes the order of the
// giftcard prototypes' units (day, week, month, year).
type ProductInformation struct {
	Events           *catalogue.EventsProductInformation
	Giftcards        *catalogue.GiftcardsProductInformation
	NetworkGiftcards *catalogue.NetworkGiftcardsProductInformation
	NetworkVouchers  *catalogue.NetworkVouchersProductInformation
	Vouchers         *catalogue.VouchersProductInformation
	Workshops        *catalogue.WorkshopsProductInformation
}

// Widgets are a partner's marketing widgets, with a fixed key so that the
// summary can show their URL.
type Widgets struct {
	Key         string
	Navbar      *widgets.WidgetNavbar
	FloatingBar *widgets.WidgetFloatingBar
}

type Universe struct {
	Key, Parent string // Parent "" for a root
	Order       int
	Name        domain.Localized
}

type Theme struct {
	Key  string
	Name domain.Localized
}

type VoucherPrototype struct {
	Key, Partner, Universe string
	Themes                 []string
	Name                   domain.Localized
}

type GiftcardPrototype struct {
	Key, Partner                   string
	Title, Description, TermsOfUse domain.Localized
	CustomizedAmount               bool
	MinimumAmount                  string // "" for none
	PredefinedAmounts              []string
	MoneyPotActivated              bool
	MoneyPotLogo                   string
	ValidityPeriod                 int
	ValidityUnit                   string
}

// Box is a network voucher box of a marketplace, with the offers of its
// network's partners.
type Box struct {
	Key, Marketplace                        string
	Universes                               []string
	Offers                                  []Offer
	Name, ShortDescription, LongDescription domain.Localized
	IsActive, IsHighlight, DisplayNbOffers  bool
	Price                                   string
	Ranking, PeopleIncluded                 int
	MaxNumberUsages, MaxDaysAfterFirstUsage int
	Images                                  []string
}

// Offer is a partner's offer in a box, DRAFT or VALIDATED.
type Offer struct {
	Partner, Status string
}

type Event struct {
	Partner                                          string
	Name, ShortDescription, LongDescription, Booking domain.Localized
	CoverImage                                       string
	Images                                           []string
	DeliveryOptions                                  catalogue.DeliveryOptions
	Formulas                                         []Formula
	Slots                                            []Date
}

type Formula struct {
	Name  domain.Localized
	Price string
}

// Date is an event slot or a workshop session: InDays days after the day
// of the run, at At o'clock in the partner's time zone.
type Date struct {
	InDays                   int
	At                       string // "15:04"
	Length                   Duration
	Places                   int // left to sell
	MinCapacity, MaxCapacity int // sessions only
}

// Duration is a time.Duration written as "1h30m".
type Duration time.Duration

func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.ParseDuration(s)
	*d = Duration(v)
	return err
}

func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// times are the start and end of the date for a run at now in loc.
func (d Date) times(now time.Time, loc *time.Location) (start, end time.Time, err error) {
	clock, err := time.Parse("15:04", d.At)
	if err != nil {
		return start, end, fmt.Errorf("demo dataset: time %q: %w", d.At, err)
	}
	today := now.In(loc)
	start = time.Date(today.Year(), today.Month(), today.Day()+d.InDays, clock.Hour(), clock.Minute(), 0, 0, loc)
	return start, start.Add(time.Duration(d.Length)), nil
}

// WorkshopTag is a term of a shared workshop vocabulary.
type WorkshopTag struct {
	Key  string
	Kind catalogue.WorkshopTagKind
	Name domain.Localized
}

type WorkshopCategory struct {
	Key, Partner           string
	Name                   domain.Localized
	Price                  string
	SpecificValidityPeriod *int // months; nil: the partner's
}

type Workshop struct {
	Partner, Category, Level                string
	Themes, Targets, Skills, Recipes        []string
	Name, ShortDescription, LongDescription domain.Localized
	BookingConditions                       domain.Localized
	Images                                  []string
	CanBePrivatized, DisplayCalendar        bool
	ActivateWorkshopsGroupPayment           bool
	Address                                 string
	Sessions                                []Date
}

// Gift is a sold gift of any kind with a fixed code, to try in
// GET /api/v2/gift/{code}/.
type Gift struct {
	Code string
	Kind gifts.GiftKind
	// Of is the key of the voucher prototype, giftcard prototype or box the
	// gift is of; of the marketplace that sells a network giftcard.
	Of    string
	State string // the voucher's state or the other kinds' status
	// Value is a voucher's total price or a giftcard's value; Remaining what
	// is left of a giftcard.
	Value, Remaining decimal.Decimal
	MaxUsages        int // network vouchers
	BoughtDaysAgo    int
	ValidMonths      int       // from the purchase
	Gifter, Giftee   [2]string // vouchers: first and last names
}

type Environment struct {
	Key  string
	Name domain.Localized
}

// AdminPrototype is the administration record (the 4.6 body, every field)
// of a voucher prototype: the catalogue's of the same key (Name nil), or
// a new one.
type AdminPrototype struct {
	Key, Partner, Universe, Environment string
	Name                                domain.Localized // nil: the catalogue prototype's
	Type                                string
	Highlight                           bool
	PriceScope, Ranking                 int
	MinCapacity, MaxCapacity            int
	StayPrice                           string
	AdultsPrice, ChildrenPrice          string
	BabyPrice                           string
	// Images are gradients between two Colours; the last is the cover.
	Images                        [][2]string
	Description, LongDescription  domain.Localized
	RentConditions, HowToBookHTML domain.Localized
	PDFDescription                domain.Localized
}

type OptionCategory struct {
	Key, Partner      string
	Ranking           int
	Min, Max          *int
	Name, Description domain.Localized
}

type Option struct {
	Key, Partner, Category string // Category "" for none
	Price, SellingPrice    string
	Countable, Global      bool
	Ranking                int
	Services               []OptionService
	Name, Description      domain.Localized
}

type OptionService struct {
	Cost, BuyingVAT, SellingVAT, Price string
}

// OptionLink offers an option with a prototype (a global option is offered
// with all of its partner's already).
type OptionLink struct {
	Prototype, Option string
	Count             int
	Included          bool
}

type Coupon struct {
	Partner, Code, Text    string
	Discount, DiscountType string
	MaxUsage               int
	Giftcards              bool // usable for giftcards too
}

// Voucher is a voucher sold BoughtDaysAgo: issued in draft or paid, then
// moved along Path (vouchers.VoucherTransitions). Its message is in its
// language, as its buyer wrote it.
type Voucher struct {
	Prototype, Language, Price string
	Draft                      bool
	Path                       []string
	BoughtDaysAgo              int
	Gifter, Giftee             Customer
	Summary, Message, Payment  string
	Coupon                     string
	ReceptionMode              int
	Adults, Children, Nights   int
	Options                    []BoughtOption
}

type Customer struct {
	First, Last, Email, Civility, City, Country, Phone string
}

type BoughtOption struct {
	Option string
	Count  int
	Price  string
}

// Giftcard is a giftcard issued by staff, without a sale.
type Giftcard struct {
	Prototype, Value string
	Draft            bool
	Gifter           [2]string
}

// NetworkPartner is a partner a marketplace adds to its network through
// the administration API, with its company record; its source id is the
// marketplace's own id of it, which uses name it by.
type NetworkPartner struct {
	Key, Marketplace, SourceID, Name string
	Company                          Company
	Tags                             []string
	// NetworkGiftcards and NetworkVouchers link it to the marketplace's
	// network giftcard and network voucher settings.
	NetworkGiftcards, NetworkVouchers bool
	Referrer                          string // a network partner's key; "" for none
	Inactive                          bool   // status i, set by an update
}

// Company is a network partner's company record. LegalBirthday is a day,
// "2006-01-02"; Type one of network.CompanyTypes.
type Company struct {
	CommercialName, ShortName, Type, Siret       string
	LegalFirstName, LegalLastName, LegalBirthday string
	Address1, Address2, PostalCode, City         string
	Country, RCS, APE, VATID, Email, Phone       string
	Website                                      string
}

// BoxOffer is a network partner's offer in a box of the catalogue.
type BoxOffer struct {
	Box string
	Offer
}

// NetworkGiftcard is a network giftcard a marketplace sold BoughtDaysAgo,
// with a fixed code, then used at partners of its network (a paid card:
// its first usage moves it to using) and held by their booking systems.
type NetworkGiftcard struct {
	Code, Marketplace, Status string
	Value                     decimal.Decimal
	Language                  string
	BoughtDaysAgo             int
	ValidMonths               int // from the purchase
	Gifter                    Customer
	Giftee                    *Customer // nil: the card is the gifter's own
	FromGifter                string
	Usages                    []NetworkGiftcardUsage // in order
	Holds                     []NetworkGiftcardHold  // after the usages, in order
}

// PaymentPartner is a payment-hub partner a marketplace (Referrer, a
// demo partner's key) creates and activates; it is in its referrer's
// network under SourceID, so that it takes the referrer's network
// giftcards as an extra source.
type PaymentPartner struct {
	Key, Referrer, SourceID         string
	Name, CommercialName, ShortName string
	LegalFirstName, LegalLastName   string
	LegalEmail, AgencyEmail         string
	IBAN, BIC, PayoutFrequency      string
	// FreezePayout lets its payments be dated for payouts.
	FreezePayout bool
}

// HubPayment is a payment to a payment-hub partner: charged at once by a
// card that pays (Card "paid"), or waiting for the card holder on the
// provider's page (Card ""); part of it from a network giftcard
// (ExtraSource); refunded by Refunds, in order.
type HubPayment struct {
	Key, Partner             string
	Customer                 Customer
	Amount                   decimal.Decimal
	Product, Origin, Receipt string
	ExtraSource              *ExtraSource
	Card                     string
	// FreezeDaysAgo dates it for payouts that many days before the run,
	// or after it when negative (0: not dated); its partner must have
	// FreezePayout.
	FreezeDaysAgo int
	Refunds       []HubRefund
}

// HubPaymentRequest is a payment request (pay-by-link) of a payment-hub
// partner, left pending for the customer to pay on its page.
type HubPaymentRequest struct {
	Partner                string
	Customer               Customer
	Amount                 decimal.Decimal
	Language               string
	Reference, Description string
	Product                string
}

// ExtraSource is the part of a payment a network giftcard (by its code)
// pays.
type ExtraSource struct {
	Giftcard string
	Amount   decimal.Decimal
}

// HubRefund is a refund of a payment, shared between its sources in
// proportion to what each paid.
type HubRefund struct {
	Amount decimal.Decimal
	Reason string
}

// NetworkGiftcardUsage is a use of a card at Partner: a network partner,
// named by its source id, or a demo partner of the network, by its id.
type NetworkGiftcardUsage struct {
	Partner       string
	Value         decimal.Decimal
	DaysAgo       int
	Comment       string
	ReservationID string
	Cancelled     bool // then cancelled by the marketplace
}

// NetworkGiftcardHold is an amount of a card held at a partner (as in a
// usage) under a reservation id: still held, or ended by End.
type NetworkGiftcardHold struct {
	Partner, ReservationID string
	Amount                 decimal.Decimal
	End                    string          // "", "capture" or "release"
	Capture                decimal.Decimal // the usage a captured hold becomes; zero: the whole amount
}

// Hold ends.
const (
	HoldCapture = "capture"
	HoldRelease = "release"
)

// Captured is the value of the usage a captured hold became.
func (h NetworkGiftcardHold) Captured() decimal.Decimal {
	if h.Capture.IsZero() {
		return h.Amount
	}
	return h.Capture
}

// Remaining is the card's remaining value once loaded: its value less its
// active usages, its held amounts and its captured ones.
func (g NetworkGiftcard) Remaining() decimal.Decimal {
	r := g.Value
	for _, u := range g.Usages {
		if !u.Cancelled {
			r = r.Sub(u.Value)
		}
	}
	for _, h := range g.Holds {
		switch h.End {
		case "":
			r = r.Sub(h.Amount)
		case HoldCapture:
			r = r.Sub(h.Captured())
		}
	}
	return r
}

// FinalStatus is the card's status once loaded: a usage, even cancelled,
// or a capture moved a paid card to using.
func (g NetworkGiftcard) FinalStatus() string {
	used := len(g.Usages) > 0
	for _, h := range g.Holds {
		used = used || h.End == HoldCapture
	}
	if g.Status == network.StatusPaid && used {
		return network.StatusUsing
	}
	return g.Status
}

// NetworkVoucher is a network voucher of a box, sold BoughtDaysAgo with a
// fixed code, then used at partners with a validated offer in the box (a
// paid voucher: its first usage moves it to using).
type NetworkVoucher struct {
	Code, Box, Status string
	Language          string
	BoughtDaysAgo     int
	ValidMonths       int // from the purchase
	Gifter            Customer
	Giftee            *Customer
	Usages            []NetworkVoucherUsage // in order
}

// NetworkVoucherUsage is a use of a voucher at Partner, named as in a
// NetworkGiftcardUsage.
type NetworkVoucherUsage struct {
	Partner   string
	DaysAgo   int
	Comment   string
	Cancelled bool
	Payout    int64 // a stand-in payout id the usage is in; 0 for none
}

// UsageCount is the voucher's usage count once loaded: its active usages.
func (v NetworkVoucher) UsageCount() int {
	n := 0
	for _, u := range v.Usages {
		if !u.Cancelled {
			n++
		}
	}
	return n
}

// FinalStatus is the voucher's status once loaded.
func (v NetworkVoucher) FinalStatus() string {
	if v.Status == network.StatusPaid && len(v.Usages) > 0 {
		return network.StatusUsing
	}
	return v.Status
}

// Data returns the embedded dataset, read once; callers must not change it.
// Errors: a file that does not decode, or a record naming no record.
func Data() (*Dataset, error) { return readOnce() }

var readOnce = sync.OnceValues(func() (*Dataset, error) { return read(dataFiles) })

func read(files fs.FS) (*Dataset, error) {
	shared := map[string]json.RawMessage{}
	b, err := fs.ReadFile(files, "data/"+sharedFile)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &shared); err != nil {
		return nil, fmt.Errorf("demo dataset %s: %w", sharedFile, err)
	}
	entries, err := fs.ReadDir(files, "data")
	if err != nil {
		return nil, err
	}
	d := &Dataset{}
	for _, e := range entries {
		if e.Name() == sharedFile {
			continue
		}
		b, err := fs.ReadFile(files, "data/"+e.Name())
		if err != nil {
			return nil, err
		}
		if err := decode(b, shared, d); err != nil {
			return nil, fmt.Errorf("demo dataset %s: %w", e.Name(), err)
		}
	}
	if err := d.check(); err != nil {
		return nil, fmt.Errorf("demo dataset: %w", err)
	}
	return d, nil
}

// decode sets the fields of d that the file gives, its references to
// shared values replaced by them; a field d lacks is an error.
func decode(b []byte, shared map[string]json.RawMessage, d *Dataset) error {
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		return err
	}
	doc, err := resolve(doc, shared)
	if err != nil {
		return err
	}
	if b, err = json.Marshal(doc); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(d); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more than one JSON value")
	}
	return nil
}

func resolve(v any, shared map[string]json.RawMessage) (any, error) {
	var err error
	switch v := v.(type) {
	case map[string]any:
		if name, ok := v["$ref"].(string); ok && len(v) == 1 {
			s, ok := shared[name]
			if !ok {
				return nil, fmt.Errorf("%s has no %q", sharedFile, name)
			}
			var out any
			return out, json.Unmarshal(s, &out)
		}
		for k, e := range v {
			if v[k], err = resolve(e, shared); err != nil {
				return nil, err
			}
		}
	case []any:
		for i, e := range v {
			if v[i], err = resolve(e, shared); err != nil {
				return nil, err
			}
		}
	}
	return v, nil
}

var colourPattern = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)

// check reports keys given twice and references to no record of the
// right table, so that the loader never meets one.
func (d *Dataset) check() error {
	k := &keyIndex{tables: map[string]string{}}
	d.checkCatalogueKeys(k)
	d.checkWorkshopKeys(k)
	d.checkBoxKeys(k)
	d.checkAdministrationKeys(k)
	d.checkVoucherKeys(k)
	for _, p := range d.NetworkPartners {
		if p.Referrer != "" {
			k.ref("network partner "+p.Key, "networkPartners", p.Referrer)
		}
		k.def("networkPartners", p.Key)
	}
	errs := append(k.errs, d.checkNetwork()...)
	errs = append(errs, d.checkPayments()...)
	errs = append(errs, d.checkShops()...)
	if len(d.Partners) == 0 || len(d.Coupons) == 0 || len(d.NetworkPartners) == 0 {
		errs = append(errs, errors.New("no partner, coupon or network partner: nothing marks the dataset as loaded"))
	}
	return errors.Join(errs...)
}

// keyIndex is the table of every key met so far, in the files' order, and
// what check found wrong.
type keyIndex struct {
	tables map[string]string // key → table
	errs   []error
}

// def records a record of table: its key must be new.
func (k *keyIndex) def(table, key string) {
	if key == "" {
		k.errs = append(k.errs, fmt.Errorf("a record of %s has no key", table))
	} else if t, taken := k.tables[key]; taken {
		k.errs = append(k.errs, fmt.Errorf("the key %q names a record of %s and one of %s", key, t, table))
	}
	k.tables[key] = table
}

// ref requires each key to name a record of table met before.
func (k *keyIndex) ref(what, table string, keys ...string) {
	for _, key := range keys {
		if k.tables[key] != table {
			k.errs = append(k.errs, fmt.Errorf("%s: no record of %s has the key %q (or it comes later)", what, table, key))
		}
	}
}

// checkCatalogueKeys checks the catalogue's partners, universes, themes,
// prototypes and events.
func (d *Dataset) checkCatalogueKeys(k *keyIndex) {
	for _, p := range d.Partners {
		k.def("partners", p.Key)
	}
	for _, p := range d.Partners {
		if p.NetworkOf != "" {
			k.ref("partner "+p.Key, "partners", p.NetworkOf)
		}
	}
	for _, u := range d.Universes {
		if u.Parent != "" {
			k.ref("universe "+u.Key, "universes", u.Parent)
		}
		k.def("universes", u.Key)
	}
	for _, t := range d.Themes {
		k.def("themes", t.Key)
	}
	for _, p := range d.VoucherPrototypes {
		k.ref("voucher prototype "+p.Key, "partners", p.Partner)
		k.ref("voucher prototype "+p.Key, "universes", p.Universe)
		k.ref("voucher prototype "+p.Key, "themes", p.Themes...)
		k.def("voucherPrototypes", p.Key)
	}
	for _, p := range d.GiftcardPrototypes {
		k.ref("giftcard prototype "+p.Key, "partners", p.Partner)
		k.def("giftcardPrototypes", p.Key)
	}
	for _, e := range d.Events {
		k.ref("event "+e.Name["en"], "partners", e.Partner)
	}
}

// checkWorkshopKeys checks the workshops, their categories and tags.
func (d *Dataset) checkWorkshopKeys(k *keyIndex) {
	for _, t := range d.WorkshopTags {
		k.def("workshopTags/"+string(t.Kind), t.Key)
	}
	for _, c := range d.WorkshopCategories {
		k.ref("workshop category "+c.Key, "partners", c.Partner)
		k.def("workshopCategories", c.Key)
	}
	for _, w := range d.Workshops {
		what := "workshop " + w.Name["en"]
		k.ref(what, "partners", w.Partner)
		k.ref(what, "workshopCategories", w.Category)
		if w.Level != "" {
			k.ref(what, "workshopTags/"+string(catalogue.WorkshopLevel), w.Level)
		}
		k.ref(what, "workshopTags/"+string(catalogue.WorkshopTheme), w.Themes...)
		k.ref(what, "workshopTags/"+string(catalogue.WorkshopTarget), w.Targets...)
		k.ref(what, "workshopTags/"+string(catalogue.WorkshopSkill), w.Skills...)
		k.ref(what, "workshopTags/"+string(catalogue.WorkshopRecipe), w.Recipes...)
	}
}

// checkBoxKeys checks the network boxes and the gifts, which name a
// prototype, a marketplace or a box.
func (d *Dataset) checkBoxKeys(k *keyIndex) {
	for _, b := range d.Boxes {
		k.ref("box "+b.Key, "partners", b.Marketplace)
		k.ref("box "+b.Key, "universes", b.Universes...)
		for _, o := range b.Offers {
			k.ref("box "+b.Key, "partners", o.Partner)
		}
		k.def("boxes", b.Key)
	}
	giftOf := map[gifts.GiftKind]string{gifts.GiftKindVoucher: "voucherPrototypes",
		gifts.GiftKindGiftcard: "giftcardPrototypes", gifts.GiftKindNetworkGiftcard: "partners",
		gifts.GiftKindNetworkVoucher: "boxes"}
	for _, g := range d.Gifts {
		if table, ok := giftOf[g.Kind]; ok {
			k.ref("gift "+g.Code, table, g.Of)
		} else {
			k.errs = append(k.errs, fmt.Errorf("gift %s: unknown kind %q", g.Code, g.Kind))
		}
	}
}

// checkAdministrationKeys checks the administration's environments,
// prototypes (a new one, or more of a catalogue one), options and their
// links.
func (d *Dataset) checkAdministrationKeys(k *keyIndex) {
	for _, e := range d.Environments {
		k.def("environments", e.Key)
	}
	for _, p := range d.AdminPrototypes {
		what := "administration prototype " + p.Key
		k.ref(what, "partners", p.Partner)
		k.ref(what, "universes", p.Universe)
		k.ref(what, "environments", p.Environment)
		if len(p.Images) == 0 {
			k.errs = append(k.errs, fmt.Errorf("%s: no image", what))
		}
		for _, img := range p.Images {
			k.errs = append(k.errs, d.checkColour(what, img[0])...)
			k.errs = append(k.errs, d.checkColour(what, img[1])...)
		}
		switch {
		case p.Name == nil:
			k.ref(what, "voucherPrototypes", p.Key)
			k.tables[p.Key] = "adminPrototypes"
		default:
			k.def("adminPrototypes", p.Key)
		}
	}
	for _, c := range d.OptionCategories {
		k.ref("option category "+c.Key, "partners", c.Partner)
		k.def("optionCategories", c.Key)
	}
	for _, o := range d.Options {
		k.ref("option "+o.Key, "partners", o.Partner)
		if o.Category != "" {
			k.ref("option "+o.Key, "optionCategories", o.Category)
		}
		k.def("options", o.Key)
	}
	for _, l := range d.OptionLinks {
		what := fmt.Sprintf("option link %s/%s", l.Prototype, l.Option)
		k.ref(what, "adminPrototypes", l.Prototype)
		k.ref(what, "options", l.Option)
	}
}

// checkColour reports a colour name of the palette missing or not in the
// form #RRGGBB.
func (d *Dataset) checkColour(what, name string) []error {
	if !colourPattern.MatchString(d.Colours[name]) {
		return []error{fmt.Errorf("%s: no colour %q in the form #RRGGBB", what, name)}
	}
	return nil
}

// checkVoucherKeys checks the administration's coupons, vouchers and
// giftcards.
func (d *Dataset) checkVoucherKeys(k *keyIndex) {
	coupons := map[[2]string]bool{}
	for _, c := range d.Coupons {
		k.ref("coupon "+c.Code, "partners", c.Partner)
		coupons[[2]string{c.Partner, c.Code}] = true
	}
	for i, v := range d.Vouchers {
		what := fmt.Sprintf("voucher %d", i+1)
		k.ref(what, "adminPrototypes", v.Prototype)
		for _, o := range v.Options {
			k.ref(what, "options", o.Option)
		}
		if p := d.adminPrototype(v.Prototype); v.Coupon != "" && p != nil && !coupons[[2]string{p.Partner, v.Coupon}] {
			k.errs = append(k.errs, fmt.Errorf("%s: its partner has no coupon %q", what, v.Coupon))
		}
	}
	for _, g := range d.Giftcards {
		k.ref("giftcard of "+strings.Join(g.Gifter[:], " "), "giftcardPrototypes", g.Prototype)
	}
}

// checkNetwork checks the rest of network.json: marketplaces, boxes,
// partners in the right network, codes given once, statuses.
func (d *Dataset) checkNetwork() []error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	marketplace := func(what, key string) {
		if p := d.Partner(key); p == nil || !p.Marketplace {
			fail("%s: no marketplace has the key %q", what, key)
		}
	}
	// member reports whether the partner of that key is in the network of
	// marketplace: a network partner of it, or a demo partner whose
	// NetworkOf it is.
	member := func(key, marketplace string) bool {
		if p := d.Partner(key); p != nil {
			return p.NetworkOf == marketplace
		}
		np := d.NetworkPartner(key)
		return np != nil && np.Marketplace == marketplace
	}
	for _, p := range d.NetworkPartners {
		what := "network partner " + p.Key
		marketplace(what, p.Marketplace)
	}
	for _, o := range d.BoxOffers {
		what := fmt.Sprintf("offer of %s in the box %s", o.Partner, o.Box)
		b := d.box(o.Box)
		switch {
		case b == nil:
			fail("%s: no box has the key %q", what, o.Box)
		case d.NetworkPartner(o.Partner) == nil || !member(o.Partner, b.Marketplace):
			fail("%s: no network partner of %s has the key %q", what, b.Marketplace, o.Partner)
		}
	}
	codes := map[string]bool{}
	for _, g := range d.Gifts {
		codes[strings.ToLower(g.Code)] = true
	}
	code := func(c string) {
		if codes[strings.ToLower(c)] {
			fail("the gift code %s is given twice", c)
		}
		codes[strings.ToLower(c)] = true
	}
	usable := func(what, status string, used bool) {
		switch {
		case !slices.Contains(network.Statuses, status):
			fail("%s: unknown status %q", what, status)
		case used && status != network.StatusPaid:
			fail("%s: only a paid one is used (its first usage moves it to using), not one in %s", what, status)
		}
	}
	usage := func(what, partner, marketplace string, cancelled bool, payout int64) {
		if !member(partner, marketplace) {
			fail("%s: no partner of the network of %s has the key %q", what, marketplace, partner)
		}
		if cancelled && payout != 0 {
			fail("%s: a usage in a payout cannot be cancelled", what)
		}
	}
	for _, g := range d.NetworkGiftcards {
		what := "network giftcard " + g.Code
		code(g.Code)
		marketplace(what, g.Marketplace)
		usable(what, g.Status, len(g.Usages)+len(g.Holds) > 0)
		for i, u := range g.Usages {
			usage(fmt.Sprintf("%s, usage %d", what, i+1), u.Partner, g.Marketplace, u.Cancelled, 0)
		}
		for _, h := range g.Holds {
			usage(what+", hold "+h.ReservationID, h.Partner, g.Marketplace, false, 0)
			if h.End != "" && h.End != HoldCapture && h.End != HoldRelease {
				fail("%s, hold %s: unknown end %q", what, h.ReservationID, h.End)
			}
		}
	}
	for _, v := range d.NetworkVouchers {
		what := "network voucher " + v.Code
		code(v.Code)
		b := d.box(v.Box)
		if b == nil {
			fail("%s: no box has the key %q", what, v.Box)
			continue
		}
		usable(what, v.Status, len(v.Usages) > 0)
		for i, u := range v.Usages {
			usage(fmt.Sprintf("%s, usage %d", what, i+1), u.Partner, b.Marketplace, u.Cancelled, u.Payout)
		}
	}
	return errs
}

// Partner is the partner of that key; nil when there is none.
func (d *Dataset) Partner(key string) *Partner {
	for i := range d.Partners {
		if d.Partners[i].Key == key {
			return &d.Partners[i]
		}
	}
	return nil
}

// NetworkPartner is the network partner of that key; nil when there is
// none.
func (d *Dataset) NetworkPartner(key string) *NetworkPartner {
	for i := range d.NetworkPartners {
		if d.NetworkPartners[i].Key == key {
			return &d.NetworkPartners[i]
		}
	}
	return nil
}

func (d *Dataset) box(key string) *Box {
	for i := range d.Boxes {
		if d.Boxes[i].Key == key {
			return &d.Boxes[i]
		}
	}
	return nil
}

func (d *Dataset) adminPrototype(key string) *AdminPrototype {
	for i := range d.AdminPrototypes {
		if d.AdminPrototypes[i].Key == key {
			return &d.AdminPrototypes[i]
		}
	}
	return nil
}

// Seller is the partner that sells the gift: its prototype's partner, or
// the marketplace for network gifts.
func (d *Dataset) Seller(g Gift) *Partner {
	seller := g.Of
	switch g.Kind {
	case gifts.GiftKindVoucher:
		for _, p := range d.VoucherPrototypes {
			if p.Key == g.Of {
				seller = p.Partner
			}
		}
	case gifts.GiftKindGiftcard:
		for _, p := range d.GiftcardPrototypes {
			if p.Key == g.Of {
				seller = p.Partner
			}
		}
	case gifts.GiftKindNetworkVoucher:
		for _, b := range d.Boxes {
			if b.Key == g.Of {
				seller = b.Marketplace
			}
		}
	}
	return d.Partner(seller)
}

// sortedKeys are m's keys in order, for deterministic inputs.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// checkPayments checks payments.json: referrers are marketplaces,
// payments name a partner of the file and a sold card of its referrer,
// and refund no more than they took.
func (d *Dataset) checkPayments() []error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	partners := map[string]PaymentPartner{}
	for _, p := range d.PaymentPartners {
		if m := d.Partner(p.Referrer); m == nil || !m.Marketplace {
			fail("payment partner %s: no marketplace has the key %q", p.Key, p.Referrer)
		}
		partners[p.Key] = p
	}
	for _, p := range d.HubPayments {
		partner, ok := partners[p.Partner]
		if !ok {
			fail("payment %s: no payment partner has the key %q", p.Key, p.Partner)
		}
		if p.FreezeDaysAgo != 0 && !partner.FreezePayout {
			fail("payment %s: dated for payouts, but %s does not date its payments", p.Key, p.Partner)
		}
		if p.Card != "" && p.Card != HubCardPaid {
			fail("payment %s: card is %q or empty, not %q", p.Key, HubCardPaid, p.Card)
		}
		if e := p.ExtraSource; e != nil {
			card := d.networkGiftcard(e.Giftcard)
			switch {
			case card == nil || card.Marketplace != partner.Referrer:
				fail("payment %s: %s is no network giftcard of %s", p.Key, e.Giftcard, partner.Referrer)
			case e.Amount.GreaterThan(p.Amount) || e.Amount.GreaterThan(card.Value):
				fail("payment %s: %s cannot pay %s", p.Key, e.Giftcard, e.Amount)
			}
		}
		refunded := decimal.Zero
		for _, r := range p.Refunds {
			refunded = refunded.Add(r.Amount)
		}
		if refunded.GreaterThan(p.Amount) || len(p.Refunds) > 0 && p.Card != HubCardPaid {
			fail("payment %s: refunds more than it took, or before it was paid", p.Key)
		}
	}
	for i, r := range d.PaymentRequests {
		if _, ok := partners[r.Partner]; !ok {
			fail("payment request %d: no payment partner has the key %q", i+1, r.Partner)
		}
	}
	return errs
}

// HubCardPaid is a HubPayment's Card charged at once.
const HubCardPaid = "paid"

func (d *Dataset) networkGiftcard(code string) *NetworkGiftcard {
	for i := range d.NetworkGiftcards {
		if d.NetworkGiftcards[i].Code == code {
			return &d.NetworkGiftcards[i]
		}
	}
	return nil
}

// paysHub reports whether a payment of the payment hub draws from the
// network giftcard with that code.
func (d *Dataset) paysHub(code string) bool {
	for _, p := range d.HubPayments {
		if p.ExtraSource != nil && p.ExtraSource.Giftcard == code {
			return true
		}
	}
	return false
}
