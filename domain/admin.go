package domain

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"salesplatform/domain/l10n"
)

// Catalogue administration: the writes behind the graph's catalogue
// mutations. The rules common to every admin input live here:
//
//   - who may write which partner's catalogue (adminPartner, manages);
//   - field checks shared by the inputs (localized texts, money, URLs,
//     date ranges), which report every field error at once with DRF's
//     messages.
//
// Admin inputs have no REST twin: their field paths are the graph's input
// names ("shortDescription", ["name", 2, "language"]).

// TextInput is one language's text of a Localized input.
type TextInput struct {
	Lang string // one of Languages
	Text string
}

// Admin limits, where no contract gives one.
const (
	MaxNameLength        = 255  // names and titles
	MaxDescriptionLength = 5000 // descriptions, conditions, terms
	MaxImages            = 20
	MaxMoneyWholeDigits  = 10 // numeric(12,2)
)

// Admin messages.
const (
	MsgMinZero         = "Ensure this value is greater than or equal to 0."
	MsgDecimal         = "A valid number is required."
	msgDecimalPlaces   = "Ensure that there are no more than 2 decimal places."
	msgDecimalWhole    = "Ensure that there are no more than 10 digits before the decimal point."
	MsgLanguageChoice  = "\"%s\" is not a valid choice."
	MsgLanguageTwice   = "This language is given more than once."
	MsgMaxLength       = "Ensure this field has no more than %d characters."
	msgEndBeforeStart  = "The end must be after the start."
	MsgTooManyElements = "Ensure this field has no more than %d elements."
	msgPartnerRequired = "This field is required: staff name the partner whose catalogue they change."
	MsgMarketplaceOnly = "Only a marketplace may do this."
)

// Validation codes of the admin inputs beyond the shared ones.
const (
	VUnique          = "unique"
	VMaxDecimals     = "max_decimal_places"
	VMaxWholeDigits  = "max_whole_digits"
	VMaxDepth        = "max_depth"
	VInvalidState    = "invalid_state"
	VMaxElements     = "max_elements"
	VEndBeforeStart  = "end_before_start"
	VUnknownLanguage = "invalid_choice"
)

// AdminPartner is the partner whose catalogue an admin operation changes:
// the caller's own partner, or for staff the partner partnerID names. A
// partner caller may name its own partner; naming another is CodeNotFound,
// as if it did not exist.
// Errors: those of Authorize(OpCatalogueWrite); CodeNotFound for a partner
// the caller may not act for or that does not exist; CodeInvalid on
// "partnerId" for staff without a partner that name none.
func AdminPartner(ctx context.Context, partners PartnerStore, partnerID *int64) (*Partner, *Caller, error) {
	c, err := Authorize(ctx, OpCatalogueWrite)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case partnerID != nil && c.User.IsStaff:
		p, err := partners.FindPartnerByID(ctx, *partnerID)
		if err != nil {
			return nil, nil, err
		}
		return p, c, nil
	case partnerID != nil:
		if c.Partner == nil || c.Partner.ID != *partnerID {
			return nil, nil, ErrNotFound
		}
		return c.Partner, c, nil
	case c.Partner != nil:
		return c.Partner, c, nil
	case c.User.IsStaff:
		var v Validator
		v.Add(VRequired, msgPartnerRequired, "partnerId")
		return nil, nil, v.Err()
	}
	return nil, nil, &Error{Code: CodeForbidden, Message: MsgPermissionDenied}
}

// manages reports whether the caller may change a record of the partner
// ownerID: its own partner's, or any for staff. Callers answer CodeNotFound
// when it may not, so that other tenants' ids cannot be probed.
func manages(c *Caller, ownerID int64) bool {
	return c.User.IsStaff || (c.Partner != nil && c.Partner.ID == ownerID)
}

// OwnerPartner returns the partner a record belongs to when the caller
// manages it, else CodeNotFound.
// Errors: those of Authorize(OpCatalogueWrite); CodeNotFound.
func OwnerPartner(ctx context.Context, partners PartnerStore, ownerID int64) (*Partner, error) {
	c, err := Authorize(ctx, OpCatalogueWrite)
	if err != nil {
		return nil, err
	}
	if !manages(c, ownerID) {
		return nil, ErrNotFound
	}
	if c.Partner != nil && c.Partner.ID == ownerID {
		return c.Partner, nil
	}
	return partners.FindPartnerByID(ctx, ownerID)
}

// Localized reads a Localized input: known languages, each once, texts of
// at most max characters. A blank text means no text in that language.
// required asks for at least one text.
func (v *Validator) Localized(in []TextInput, max int, required bool, path ...any) Localized {
	out := Localized{}
	seen := map[string]bool{}
	at := func(i int, field string) []any { return append(append([]any{}, path...), i, field) }
	for i, t := range in {
		switch {
		case t.Lang == "":
			v.Add(VRequired, MsgRequired, at(i, "language")...)
			continue
		case !IsLanguage(t.Lang):
			v.Add(VUnknownLanguage, fmt.Sprintf(MsgLanguageChoice, t.Lang), at(i, "language")...)
			continue
		case seen[t.Lang]:
			v.Add(VUnique, MsgLanguageTwice, at(i, "language")...)
			continue
		}
		seen[t.Lang] = true
		text := strings.TrimSpace(t.Text)
		switch {
		case strings.ContainsRune(text, 0):
			v.Add(VInvalid, MsgNullCharacters, at(i, "text")...)
		case utf8.RuneCountInString(text) > max:
			v.Add(VMaxLength, fmt.Sprintf(MsgMaxLength, max), at(i, "text")...)
		case text != "":
			out[t.Lang] = text
		}
	}
	if required && len(out) == 0 && len(in) == len(seen) {
		v.Add(VRequired, MsgRequired, path...)
	}
	return out
}

// OptLocalized is localized for an optional input: nil keeps old.
func (v *Validator) OptLocalized(in []TextInput, old Localized, max int, required bool, path ...any) Localized {
	if in == nil {
		if required && len(old) == 0 {
			v.Add(VRequired, MsgRequired, path...)
		}
		return old
	}
	return v.Localized(in, max, required, path...)
}

// Money reads an amount given as a decimal string (Amount's rule).
func (v *Validator) Money(s string, path ...any) decimal.Decimal {
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil || strings.ContainsAny(s, "eE") {
		v.Add(VInvalid, MsgDecimal, path...)
		return decimal.Zero
	}
	return v.Amount(d, path...)
}

// Amount is the rule of every amount of money: at least 0, at most two
// decimal places, at most MaxMoneyWholeDigits before the point.
func (v *Validator) Amount(d decimal.Decimal, path ...any) decimal.Decimal {
	switch {
	case d.IsNegative():
		v.Add(VMinValue, MsgMinZero, path...)
	case d.Exponent() < -2 && !d.Equal(d.Round(2)):
		v.Add(VMaxDecimals, msgDecimalPlaces, path...)
	case len(d.Truncate(0).Abs().String()) > MaxMoneyWholeDigits:
		v.Add(VMaxWholeDigits, msgDecimalWhole, path...)
	default:
		return d.Round(2)
	}
	return decimal.Zero
}

// OptMoney is money for an optional input: nil keeps old.
func (v *Validator) OptMoney(s *string, old decimal.Decimal, path ...any) decimal.Decimal {
	if s == nil {
		return old
	}
	return v.Money(*s, path...)
}

// NonNegative checks a count or a duration.
func (v *Validator) NonNegative(n int, path ...any) int {
	if n < 0 {
		v.Add(VMinValue, MsgMinZero, path...)
	}
	return n
}

// OptInt is nonNegative for an optional input: nil keeps old.
func (v *Validator) OptInt(n *int, old int, path ...any) int {
	if n == nil {
		return old
	}
	return v.NonNegative(*n, path...)
}

// Text reads a plain text of at most max characters.
func (v *Validator) Text(s string, max int, path ...any) string {
	v.PlainText(s, max, path)
	return strings.TrimSpace(s)
}

// OptText is text for an optional input: nil keeps old.
func (v *Validator) OptText(s *string, old string, max int, path ...any) string {
	if s == nil {
		return old
	}
	return v.Text(*s, max, path...)
}

// URL reads "" or an absolute http(s) URL.
func (v *Validator) URL(s string, path ...any) string {
	s = strings.TrimSpace(s)
	v.HTTPURL(s, path)
	return s
}

// OptURL is url for an optional input: nil keeps old.
func (v *Validator) OptURL(s *string, old string, path ...any) string {
	if s == nil {
		return old
	}
	return v.URL(*s, path...)
}

// ImageURLs reads a list of image URLs, none empty: nil keeps old.
func (v *Validator) ImageURLs(in, old []string, path ...any) []string {
	if in == nil {
		return old
	}
	if len(in) > MaxImages {
		v.Add(VMaxElements, fmt.Sprintf(MsgTooManyElements, MaxImages), path...)
		return old
	}
	out := make([]string, len(in))
	for i, u := range in {
		at := append(append([]any{}, path...), i)
		if strings.TrimSpace(u) == "" {
			v.Add(VRequired, MsgBlank, at...)
			continue
		}
		out[i] = v.URL(u, at...)
	}
	return out
}

// DateRange checks that end comes after start; the error is on endPath.
func (v *Validator) DateRange(start, end time.Time, endPath ...any) {
	if !end.After(start) {
		v.Add(VEndBeforeStart, msgEndBeforeStart, endPath...)
	}
}

// Pick returns *p, or old when p is nil: an optional input field.
func Pick[T any](p *T, old T) T {
	if p == nil {
		return old
	}
	return *p
}

// FormatMoney is an amount in the partner's currency, formatted per language.
func FormatMoney(p *Partner, amount decimal.Decimal) Localized {
	return Localized(l10n.Money(amount, p.PriceCurrency()))
}
