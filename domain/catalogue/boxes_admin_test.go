package catalogue_test

import (
	"testing"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/persistence/dbtest"
)

func TestNextBoxOfferStatus(t *testing.T) {
	t.Parallel()
	const (
		none      = ""
		draft     = catalogue.BoxOfferStatusDraft
		validated = catalogue.BoxOfferStatusValidated
		refused   = catalogue.BoxOfferStatusRefused
		propose   = catalogue.BoxOfferPropose
		validate  = catalogue.BoxOfferValidate
		refuse    = catalogue.BoxOfferRefuse
	)
	for _, c := range []struct {
		from, action, want string // want "" is refused
		msg                string
	}{
		{none, propose, draft, ""},
		{refused, propose, draft, ""},
		{draft, validate, validated, ""},
		{draft, refuse, refused, ""},
		{validated, refuse, refused, ""},
		{refused, validate, validated, ""},
		{draft, propose, "", "An offer with status DRAFT cannot be proposed again."},
		{validated, propose, "", "An offer with status VALIDATED cannot be proposed again."},
		{validated, validate, "", "An offer with status VALIDATED cannot be validated."},
		{refused, refuse, "", "An offer with status REFUSED cannot be refused."},
		{none, validate, "", "There is no offer to validate."},
	} {
		t.Run(c.from+"_"+c.action, func(t *testing.T) {
			got, err := catalogue.NextBoxOfferStatus(c.from, c.action)
			if c.want != "" {
				if err != nil || got != c.want {
					t.Fatalf("got %q, %v; want %q", got, err, c.want)
				}
				return
			}
			e := dbtest.WantCode(t, err, domain.CodeInvalid)
			if len(e.Fields) != 1 || e.Fields[0].Code != domain.VInvalidState || e.Fields[0].Message != c.msg ||
				domain.PathKey(e.Fields[0].Path) != "status" {
				t.Fatalf("fields = %+v, want %q on status", e.Fields, c.msg)
			}
		})
	}
}
