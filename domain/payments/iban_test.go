package payments_test

import (
	"fmt"
	"testing"

	"salesplatform/domain/payments"
)

func TestCheckIBAN(t *testing.T) {
	// Examples of the IBAN registry and of national banks.
	for _, iban := range []string{"FR1420041010050500013M02606", "GB82WEST12345698765432", "DE89370400440532013000",
		"BE68539007547034", "NL91ABNA0417164300", "CH9300762011623852957", "NO9386011117947", "MT84MALT011000012345MTLCAST001S",
		"IT60X0542811101000000123456", "ES9121000418450200051332"} {
		if p := payments.CheckIBAN(iban); p != "" {
			t.Errorf("%s refused: %s", iban, p)
		}
	}
	for _, c := range []struct{ iban, want string }{
		{"FR1420041010050500013M02607", payments.MsgIBANChecksum}, // last digit mistyped
		{"FR1520041010050500013M02606", payments.MsgIBANChecksum}, // check digits wrong
		{"GB82WEST12345698765423", payments.MsgIBANChecksum},      // two digits swapped
		{"FR142004101005050001302606", fmt.Sprintf(payments.MsgIBANLength, "FR", 27, 26)},
		{"DE8937040044053201300000", fmt.Sprintf(payments.MsgIBANLength, "DE", 22, 24)},
		{"ZZ1420041010050500013M02606", fmt.Sprintf(payments.MsgIBANCountry, "ZZ")},
		{"FR14-20041010050500013M0260", payments.MsgIBANFormat},
		{"fr1420041010050500013M02606", payments.MsgIBANFormat}, // not normalized
		{"1R1420041010050500013M02606", payments.MsgIBANFormat},
		{"FRAB20041010050500013M02606", payments.MsgIBANFormat},
		{"FR14", payments.MsgIBANFormat},
		{"FR14200410100505000130260600000000000", payments.MsgIBANFormat}, // past 34
	} {
		if got := payments.CheckIBAN(c.iban); got != c.want {
			t.Errorf("CheckIBAN(%s) = %q, want %q", c.iban, got, c.want)
		}
	}
}

func TestNormalizeAndMaskIBAN(t *testing.T) {
	iban := payments.NormalizeIBAN(" fr14 2004 1010 0505 0001 3m02 606 ")
	if iban != "FR1420041010050500013M02606" {
		t.Fatalf("NormalizeIBAN = %q", iban)
	}
	if got, want := payments.MaskIBAN(iban), "FR14•••••••••••••••••••2606"; got != want {
		t.Errorf("MaskIBAN = %q, want %q", got, want)
	}
	if got := payments.MaskIBAN(""); got != "" {
		t.Errorf("MaskIBAN(\"\") = %q", got)
	}
}

func TestValidBIC(t *testing.T) {
	for _, bic := range []string{"BNPAFRPP", "BNPAFRPPXXX", "DEUTDEFF500", "NEDSZAJJ"} {
		if !payments.ValidBIC(bic) {
			t.Errorf("%s refused", bic)
		}
	}
	for _, bic := range []string{"", "BNPAFRP", "BNPAFRPPXX", "BNPAFRPPXXXX", "BNP1FRPP", "BNPAF1PP", "bnpafrpp", "BNPAFRP-"} {
		if payments.ValidBIC(bic) {
			t.Errorf("%q accepted", bic)
		}
	}
	if got := payments.NormalizeBIC(" bnpa frpp "); got != "BNPAFRPP" {
		t.Errorf("NormalizeBIC = %q", got)
	}
}
