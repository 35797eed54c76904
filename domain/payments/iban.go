package payments

import (
	"fmt"
	"strings"
)

// IBANs (ISO 13616) and BICs (ISO 9362). No maintained Go module for them
// is offered by the module proxy this project builds from, so the checks
// are here, small: an IBAN is its country's length (ibanLengths, from the
// SWIFT IBAN registry) and passes the mod-97 check (ISO 7064); the BBAN's
// own structure per country is not checked, so a mistyped digit is caught
// by the checksum and a wrong length by the table, as a bank's form does.

// ibanLengths is the length of an IBAN per country code.
var ibanLengths = map[string]int{
	"AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29,
	"BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29,
	"ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28,
	"HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20,
	"LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19,
	"MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29,
	"RO": 24, "RS": 22, "SA": 24, "SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28,
	"TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
}

// Messages of refused IBANs and BICs.
const (
	MsgIBANFormat   = "Enter a valid IBAN: a country code, two check digits and the account number, letters and digits only."
	MsgIBANCountry  = "IBANs of country %q are not accepted."
	MsgIBANLength   = "An IBAN of %s has %d characters, not %d."
	MsgIBANChecksum = "This IBAN's check digits are wrong: check it for a typing mistake."
	MsgBIC          = "Enter a valid BIC: 8 or 11 letters and digits (bank, country, location, optional branch)."
)

// NormalizeIBAN is an IBAN as written on paper or screens ("fr76 3000
// 6000 ...") in its electronic form: upper case, without spaces.
func NormalizeIBAN(s string) string {
	return strings.ToUpper(strings.Join(strings.Fields(s), ""))
}

// CheckIBAN returns "" for a valid IBAN in electronic form (NormalizeIBAN),
// else the reason (one of the Msg IBAN messages, formatted).
func CheckIBAN(iban string) (problem string) {
	if len(iban) < 5 || len(iban) > 34 || !isUpperAlnum(iban) || !isLetters(iban[:2]) || !isDigits(iban[2:4]) {
		return MsgIBANFormat
	}
	country := iban[:2]
	want, known := ibanLengths[country]
	switch {
	case !known:
		return fmt.Sprintf(MsgIBANCountry, country)
	case len(iban) != want:
		return fmt.Sprintf(MsgIBANLength, country, want, len(iban))
	case ibanMod97(iban) != 1:
		return MsgIBANChecksum
	}
	return ""
}

// ibanMod97 is the ISO 7064 MOD 97-10 remainder of iban with its first
// four characters moved to the end and letters read as 10 to 35, computed
// digit by digit so that no big number is built.
func ibanMod97(iban string) int {
	rearranged := iban[4:] + iban[:4]
	r := 0
	for i := 0; i < len(rearranged); i++ {
		c := rearranged[i]
		if c >= 'A' && c <= 'Z' {
			v := int(c-'A') + 10
			r = (r*100 + v) % 97
		} else {
			r = (r*10 + int(c-'0')) % 97
		}
	}
	return r
}

// NormalizeBIC is a BIC in upper case, without spaces.
func NormalizeBIC(s string) string { return NormalizeIBAN(s) }

// ValidBIC reports whether bic (NormalizeBIC) is a BIC: four letters of
// the bank, two of its country, two letters or digits of its location,
// and optionally three of its branch.
func ValidBIC(bic string) bool {
	return (len(bic) == 8 || len(bic) == 11) && isLetters(bic[:6]) && isUpperAlnum(bic[6:])
}

// MaskIBAN shows a valid IBAN's country, check digits and last four
// characters only (FR76•••••••••••••••••••1234): enough to recognise an
// account, not to pay into it. "" stays "".
func MaskIBAN(iban string) string {
	if len(iban) <= 8 {
		return strings.Repeat("•", len(iban))
	}
	return iban[:4] + strings.Repeat("•", len(iban)-8) + iban[len(iban)-4:]
}

func isUpperAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			return false
		}
	}
	return true
}
