package payments

import (
	"salesplatform/domain"
	"salesplatform/domain/network"
)

// CustomerInput is the customer of a payment or a payment request; its
// refusals are named inside the customer field.
type CustomerInput struct {
	domain.Refusals
	FirstName, LastName, Email domain.Optional[string]
}

// readCustomer reads the customer field o: names not blank, the e-mail
// valid (and required when emailRequired); a customer that is not
// required may be null. The errors are in f.V, named inside field.
func readCustomer(f domain.Fields, field string, o domain.Optional[CustomerInput], required, emailRequired bool) *network.Customer {
	in, ok, _ := domain.Present(f, field, o, required, !required)
	if !ok {
		return nil
	}
	sub := domain.Fields{V: in.Refusals.Validator()}
	var cu network.Customer
	for _, x := range []struct {
		name string
		o    domain.Optional[string]
		into *string
		max  int
		req  bool
	}{{"first_name", in.FirstName, &cu.FirstName, network.MaxNameLength, true},
		{"last_name", in.LastName, &cu.LastName, network.MaxNameLength, true},
		{"email", in.Email, &cu.Email, domain.MaxEmailLength, emailRequired}} {
		if s := sub.String(x.name, x.o, true, true, x.max); s != nil {
			*x.into = *s
			if x.req && *s == "" {
				sub.V.Add(domain.VRequired, domain.MsgBlank, x.name)
			}
		}
	}
	if cu.Email != "" && !domain.ValidEmail(cu.Email) {
		sub.V.Add(domain.VInvalid, domain.MsgEmail, "email")
	}
	for _, fe := range sub.V.Fields {
		f.V.Add(fe.Code, fe.Message, append([]any{field}, fe.Path...)...)
	}
	return &cu
}
