package network

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/webhooks"
)

// Network giftcard statuses (the spec's values; transitions are this
// area's: a use moves paid to using).
const (
	StatusDraft     = "draft"
	StatusCancelled = "cncld"
	StatusTest      = "test"
)

// Statuses are the statuses a card may be created in.
var Statuses = []string{StatusDraft, StatusPaid, StatusCancelled, StatusUsing, StatusTest}

// Limits of a card's fields.
const (
	MaxNameLength     = 150
	MaxFromGifter     = 1000
	MaxThemeLength    = 64
	MaxCommentLength  = 1000
	MaxReservationID  = 255
	MaxSourceIDLength = 18 // digits: a source id is matched as an int64
)

// defaultLanguage is a card's language when its creation names none, as
// for vouchers.
const defaultLanguage = "fr"

// MaxCardValue bounds a card's value.
var MaxCardValue = decimal.NewFromInt(1_000_000)

// Customer is a card's buyer (gifter) or beneficiary (giftee).
type Customer struct {
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	Email     string `json:"email"`
}

// Giftcard is a network giftcard's record: the full record of the
// administration API and its by-code record. Card (balances.go) is its
// balance view, what a spend checks.
type Giftcard struct {
	ID             int64
	UUID           uuid.UUID
	Code           string
	Status         string
	Value          decimal.Decimal
	RemainingValue decimal.Decimal
	Currency       string // the marketplace's when the card was made
	Language       string // of its mails
	CreationDate   time.Time
	ActivationDate *time.Time
	ExpirationDate *time.Time
	IsActive       bool
	IsSplittable   bool
	Gifter         Customer
	Giftee         *Customer // nil: the card is the gifter's own
	FromGifter     string
	Theme          string

	MarketplaceID   int64
	MarketplaceUUID uuid.UUID
	TimeZone        string // the marketplace's: dates are shown in it

	// The order that sold the card; nil for a card made through the API.
	OrderUUID         *uuid.UUID
	OrderCreationDate *time.Time
	// The marketplace's network giftcard description and title, in the
	// card's language.
	Description      string
	ShortDescription string
}

// Location is the zone the card's dates are shown in.
func (g *Giftcard) Location() *time.Location { return location(g.TimeZone) }

// Beneficiary is the address a usage notification goes to: the giftee's,
// else the gifter's.
func (g *Giftcard) Beneficiary() string {
	if g.Giftee != nil && g.Giftee.Email != "" {
		return g.Giftee.Email
	}
	return g.Gifter.Email
}

// GiftcardInput is the creation of a network giftcard (the
// administration API's create): marketplace_uuid, status, value, gifter,
// giftee, from_gifter, activation_date and expiration_date, and the
// optional is_splittable, is_active, language and theme of this service.
type GiftcardInput struct {
	domain.Refusals
	MarketplaceUUID domain.Optional[uuid.UUID]
	Status          domain.Optional[string]
	Value           domain.Optional[decimal.Decimal]
	Gifter          domain.Optional[CustomerInput]
	Giftee          domain.Optional[CustomerInput]
	FromGifter      domain.Optional[string]
	Theme           domain.Optional[string]
	Language        domain.Optional[string]
	IsSplittable    domain.Optional[bool]
	IsActive        domain.Optional[bool]
	ActivationDate  domain.Optional[LocalTime]
	ExpirationDate  domain.Optional[LocalTime]
}

// CustomerInput is a card's gifter or giftee as a write gives it.
type CustomerInput struct {
	FirstName domain.Optional[string]
	LastName  domain.Optional[string]
	Email     domain.Optional[string]
}

// CreateGiftcard makes a network giftcard of in. The code is drawn by
// domain.NewGiftCode; the currency is the marketplace's. The caller is a
// member of the marketplace with create_network_giftcard_api, or staff.
// Errors: those of Authorize(OpNetworkGiftcardCreate); CodeInvalid with
// DRF's field messages.
func (s *GiftcardService) CreateGiftcard(ctx context.Context, in GiftcardInput) (*Giftcard, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkGiftcardCreate)
	if err != nil {
		return nil, err
	}
	v := in.Refusals.Validator()
	f := domain.Fields{V: v}
	g := &Giftcard{IsActive: true, IsSplittable: true, Language: defaultLanguage}
	marketplace, err := s.readMarketplace(ctx, f, in.MarketplaceUUID, c)
	if err != nil {
		return nil, err
	}
	g.Status = domain.Pick(f.Choice("status", in.Status, true, Statuses), "")
	if value := f.PositiveMoney("value", in.Value, true); value != nil {
		if value.GreaterThan(MaxCardValue) {
			v.Add(domain.VMaxValue, fmt.Sprintf("Ensure this value is less than or equal to %s.", MaxCardValue), "value")
		}
		g.Value, g.RemainingValue = *value, *value
	}
	if gifter := CheckCustomer(f, "gifter", in.Gifter, true, true); gifter != nil {
		g.Gifter = *gifter
	}
	g.Giftee = CheckCustomer(f, "giftee", in.Giftee, false, false)
	g.FromGifter = domain.Pick(f.String("from_gifter", in.FromGifter, true, true, MaxFromGifter), "")
	g.Theme = domain.Pick(f.String("theme", in.Theme, false, true, MaxThemeLength), "")
	g.Language = domain.Pick(f.Choice("language", in.Language, false, domain.Languages), g.Language)
	g.IsSplittable = domain.Pick(f.Bool("is_splittable", in.IsSplittable), true)
	g.IsActive = domain.Pick(f.Bool("is_active", in.IsActive), true)
	loc := time.UTC
	if marketplace != nil {
		loc = location(marketplace.TimeZone)
	}
	if at, ok := checkLocalTime(f, "activation_date", in.ActivationDate, true); ok {
		t := at.startOfDay(loc)
		g.ActivationDate = &t
	}
	if at, ok := checkLocalTime(f, "expiration_date", in.ExpirationDate, true); ok {
		t := at.endOfDay(loc)
		g.ExpirationDate = &t
	}
	if g.ActivationDate != nil && g.ExpirationDate != nil && !g.ExpirationDate.After(*g.ActivationDate) {
		v.Add(domain.VInvalid, "The expiration date must be after the activation date.", "expiration_date")
	}
	inReadingOrder(v, "marketplace_uuid", "status", "value", "gifter", "giftee", "from_gifter", "theme", "language",
		"is_splittable", "is_active", "activation_date", "expiration_date")
	if err := v.Err(); err != nil {
		return nil, err
	}
	g.MarketplaceID, g.MarketplaceUUID, g.Currency = marketplace.ID, marketplace.UUID, marketplace.PriceCurrency()
	var out *Giftcard
	out, err = guarded(ctx, s.uow, s.keys, "network.giftcard.create", in, &out, func(ctx context.Context, tx Stores) error {
		// A code drawn twice (1 in 2^60) draws again.
		for range codeAttempts {
			g.Code = domain.NewGiftCode()
			taken, err := tx.Giftcards.InsertGiftcard(ctx, g)
			if err != nil {
				return err
			}
			if taken {
				continue
			}
			if out, err = tx.Giftcards.GiftcardByCode(ctx, g.Code, nil); err != nil {
				return err
			}
			return tx.Events.Publish(ctx, webhooks.Event{Type: "network_giftcard.created",
				Partners: []int64{out.MarketplaceID}, Resource: out})
		}
		return fmt.Errorf("network giftcard: no free code after %d draws", codeAttempts)
	})
	return out, err
}

// codeAttempts bounds the codes drawn for one card.
const codeAttempts = 5

// readMarketplace reads marketplace_uuid: the caller's own marketplace,
// or for staff any. Another partner reads as an unknown one.
func (s *GiftcardService) readMarketplace(ctx context.Context, f domain.Fields, o domain.Optional[uuid.UUID], c *domain.Caller) (*domain.Partner, error) {
	id := f.UUID("marketplace_uuid", o, true)
	if id == nil {
		return nil, nil
	}
	p, err := domain.WritePartner(ctx, s.uow.Stores().Partners, c, id, "marketplace_uuid")
	if domain.IsCode(err, domain.CodeInvalid) {
		f.V.Fields = append(f.V.Fields, err.(*domain.Error).Fields...)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !p.IsMarketplace {
		f.V.Add(domain.VInvalid, "This partner is not a marketplace.", "marketplace_uuid")
		return nil, nil
	}
	return p, nil
}

// CheckCustomer reads a customer (a card's gifter or giftee): first_name,
// last_name and email, each required; email may be blank unless
// emailRequired. A required customer may not be null. Its errors are
// recorded under field.
func CheckCustomer(f domain.Fields, field string, o domain.Optional[CustomerInput], required, emailRequired bool) *Customer {
	in, ok, _ := domain.Present(f, field, o, required, !required)
	if !ok {
		return nil
	}
	var cu Customer
	for _, x := range []struct {
		name string
		o    domain.Optional[string]
		into *string
		max  int
		req  bool
	}{{"first_name", in.FirstName, &cu.FirstName, MaxNameLength, true}, {"last_name", in.LastName, &cu.LastName, MaxNameLength, true},
		{"email", in.Email, &cu.Email, domain.MaxEmailLength, emailRequired}} {
		sub := domain.Fields{V: &domain.Validator{}}
		if domain.HasFieldError(f.V, field, x.name) {
			continue
		}
		if s := sub.String(x.name, x.o, true, true, x.max); s != nil {
			*x.into = *s
			if x.req && *s == "" {
				sub.V.Add(domain.VRequired, domain.MsgBlank, x.name)
			}
		}
		if x.name == "email" && cu.Email != "" && !domain.ValidEmail(cu.Email) {
			sub.V.Add(domain.VInvalid, domain.MsgEmail, "email")
		}
		for _, fe := range sub.V.Fields {
			f.V.Add(fe.Code, fe.Message, append([]any{field}, fe.Path...)...)
		}
	}
	return &cu
}

// LocalTime is a date-time as a client sent it: with its offset, without
// one, or a day alone. The last two are read in the card's marketplace's
// zone, which is known only once the card is found.
type LocalTime struct {
	t     time.Time // the wall clock, in UTC when naive
	naive bool      // no offset given
	day   bool      // a day alone
}

// At is a LocalTime of an instant.
func At(t time.Time) LocalTime { return LocalTime{t: t} }

// Day is a LocalTime of a day alone.
func Day(year int, month time.Month, day int) LocalTime {
	return LocalTime{t: time.Date(year, month, day, 0, 0, 0, 0, time.UTC), naive: true, day: true}
}

// ParseLocalTime reads RFC 3339 (offset optional, fractional seconds
// allowed) or YYYY-MM-DD, from the year 1970 to 9999 (before, zones had
// offsets of minutes and seconds, and no card was sold).
func ParseLocalTime(s string) (LocalTime, bool) {
	s = strings.TrimSpace(s)
	if len(s) == len(time.DateOnly) { // a day alone: no other layout is this short
		if t, err := time.Parse(time.DateOnly, s); err == nil && inYears(t) {
			return LocalTime{t: t, naive: true, day: true}, true
		}
		return LocalTime{}, false
	}
	if len(s) > 10 && s[10] == ' ' { // "2026-03-10 09:30", as ISO 8601 allows
		s = s[:10] + "T" + s[11:]
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil && inYears(t) {
			return LocalTime{t: t}, true
		}
	}
	for _, layout := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02T15:04"} {
		if t, err := time.Parse(layout, s); err == nil && inYears(t) {
			return LocalTime{t: t, naive: true}, true
		}
	}
	return LocalTime{}, false
}

// inYears reports whether t's year, in its own offset and in UTC, is
// within 1970 and 9998, so that no zone takes it out of 1969 to 9999.
func inYears(t time.Time) bool {
	return t.Year() >= 1970 && t.Year() <= 9998 && t.UTC().Year() >= 1970 && t.UTC().Year() <= 9998
}

// wall is the time's wall clock in loc, at hour when it is a day alone.
func (l LocalTime) wall(loc *time.Location, hour, min, sec, nsec int) time.Time {
	if !l.naive {
		return l.t
	}
	y, m, d := l.t.Date()
	if l.day {
		return time.Date(y, m, d, hour, min, sec, nsec, loc)
	}
	return time.Date(y, m, d, l.t.Hour(), l.t.Minute(), l.t.Second(), l.t.Nanosecond(), loc)
}

// Noon reads a use's date: a day alone is taken at 12:00 in loc (the
// spec's rule against time-zone slips).
func (l LocalTime) Noon(loc *time.Location) time.Time { return l.wall(loc, 12, 0, 0, 0) }

func (l LocalTime) startOfDay(loc *time.Location) time.Time { return l.wall(loc, 0, 0, 0, 0) }

func (l LocalTime) endOfDay(loc *time.Location) time.Time {
	return l.wall(loc, 23, 59, 59, int(time.Second-time.Microsecond))
}

// MarshalJSON writes the time as it was sent (for idempotency
// fingerprints): RFC 3339, without an offset when naive, a date alone for
// a day.
func (l LocalTime) MarshalJSON() ([]byte, error) {
	switch {
	case l.day:
		return json.Marshal(l.t.Format(time.DateOnly))
	case l.naive:
		return json.Marshal(l.t.Format("2006-01-02T15:04:05.999999999"))
	}
	return json.Marshal(l.t.Format(time.RFC3339Nano))
}

// IsZero reports an absent LocalTime.
func (l LocalTime) IsZero() bool { return l.t.IsZero() }

// MsgDateTime refuses a date-time that cannot be read as a LocalTime.
const MsgDateTime = "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z], YYYY-MM-DD."

// checkLocalTime reads a date-time or a day: required ones may not be
// null.
func checkLocalTime(f domain.Fields, field string, o domain.Optional[LocalTime], required bool) (LocalTime, bool) {
	l, ok, _ := domain.Present(f, field, o, required, !required)
	return l, ok
}

// GiftcardByCode returns the card with code (case-insensitive) of the
// caller's marketplace, or any for staff.
// Errors: those of Authorize(OpNetworkGiftcardRead); CodeNotFound.
func (s *GiftcardService) GiftcardByCode(ctx context.Context, code string) (*Giftcard, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkGiftcardRead)
	if err != nil {
		return nil, err
	}
	if !validCode(code) {
		return nil, domain.ErrNotFound
	}
	return s.uow.Stores().Giftcards.GiftcardByCode(ctx, code, c.Tenant())
}

// GiftcardsByEmail returns a page of the caller's marketplace's cards
// (any for staff) whose gifter or giftee has that e-mail address
// (case-insensitive), newest first. Their codes are masked unless the
// caller may use or create cards.
// Errors: those of Authorize(OpNetworkGiftcardRead); CodeNotFound past the
// last page.
func (s *GiftcardService) GiftcardsByEmail(ctx context.Context, email string, page domain.PageRequest) (*domain.Page[*Giftcard], error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkGiftcardRead)
	if err != nil {
		return nil, err
	}
	email = strings.TrimSpace(email)
	if utf8.RuneCountInString(email) > domain.MaxEmailLength || !domain.ValidEmail(email) {
		// No card has it (and NUL bytes never reach PostgreSQL).
		return domain.NewPage[*Giftcard](nil, 0, page)
	}
	cards, count, err := s.uow.Stores().Giftcards.GiftcardsByEmail(ctx, email, c.Tenant(), page)
	if err != nil {
		return nil, err
	}
	if !MaySeeCodes(c) {
		for _, g := range cards {
			g.Code = MaskCode(g.Code)
		}
	}
	return domain.NewPage(cards, count, page)
}

// Usages returns a page of the usages of the card with code, oldest
// first, cancelled ones included.
// Errors: those of Authorize(OpNetworkGiftcardRead); CodeNotFound for an
// unknown code or another marketplace's card, or past the last page.
func (s *GiftcardService) Usages(ctx context.Context, code string, page domain.PageRequest) (*domain.Page[*Usage], error) {
	card, err := s.readableCard(ctx, code)
	if err != nil {
		return nil, err
	}
	usages, count, err := s.uow.Stores().Giftcards.UsagesOfCard(ctx, card.ID, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(usages, count, page)
}

// readableCard finds the card with code for a reader of its usages,
// holds or ledger: of the caller's marketplace, any for staff.
// Errors: those of Authorize(OpNetworkGiftcardRead); CodeNotFound for an
// unknown code or another marketplace's card.
func (s *GiftcardService) readableCard(ctx context.Context, code string) (*Card, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkGiftcardRead)
	if err != nil {
		return nil, err
	}
	if !validCode(code) {
		return nil, domain.ErrNotFound
	}
	card, err := s.uow.Stores().Giftcards.FindCardByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	if !c.Sees(card.MarketplaceID) {
		return nil, domain.ErrNotFound
	}
	return card, nil
}

// MaySeeCodes reports whether lists show the caller whole codes: those
// who may use or create the cards. Others see MaskCode's.
func MaySeeCodes(c *domain.Caller) bool {
	return c.HasPermission(domain.PermUseNetworkGiftcardAPI) || c.HasPermission(domain.PermCreateNetworkGiftcardAPI)
}

// MaskCode hides all but the last four characters of a code.
func MaskCode(code string) string {
	if len(code) <= 4 {
		return strings.Repeat("•", len(code))
	}
	return strings.Repeat("•", len(code)-4) + code[len(code)-4:]
}

// validCode reports whether code can name a card at all (the gift codes'
// pattern), so that nothing else reaches a store.
func validCode(code string) bool {
	if code == "" || len(code) > 64 {
		return false
	}
	for _, r := range code {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// inReadingOrder orders v's errors as the input's fields are read,
// refusals among them, so that a surface lists them in that order.
func inReadingOrder(v *domain.Validator, fields ...string) {
	rank := func(fe domain.FieldError) int {
		if len(fe.Path) > 0 {
			if s, ok := fe.Path[0].(string); ok {
				if i := slices.Index(fields, s); i >= 0 {
					return i
				}
			}
		}
		return len(fields)
	}
	slices.SortStableFunc(v.Fields, func(a, b domain.FieldError) int { return rank(a) - rank(b) })
}
