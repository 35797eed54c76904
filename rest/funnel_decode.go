package rest

import (
	"net/url"
	"sort"
	"strconv"
	"strings"

	"salesplatform/domain"
	"salesplatform/domain/cart"
	"salesplatform/domain/checkout"
)

// decodeFunnelCustomization reads the customization form: per cart line
// N, lines.N.quantity, lines.N.variant_id and lines.N.attribute_values.A
// (A an attribute id), and delivery_mode. The input lists the lines by
// index; a refusal names the line's position in that list, as the
// service's do.
func decodeFunnelCustomization(form url.Values) checkout.CustomizationInput {
	type fields struct {
		quantity, variant *string
		attrs             map[int64]string
	}
	byIndex := map[int]*fields{}
	for key, vs := range form {
		rest, ok := strings.CutPrefix(key, "lines.")
		if !ok || len(vs) == 0 {
			continue
		}
		n, name, _ := strings.Cut(rest, ".")
		idx, err := strconv.Atoi(n)
		if err != nil || idx < 0 || idx >= cart.MaxCartItems {
			continue // no line of a cart: nothing to change
		}
		f := byIndex[idx]
		if f == nil {
			f = &fields{}
			byIndex[idx] = f
		}
		value := strings.TrimSpace(vs[0])
		switch {
		case name == "quantity":
			f.quantity = &value
		case name == "variant_id":
			f.variant = &value
		case strings.HasPrefix(name, "attribute_values."):
			id, err := strconv.ParseInt(strings.TrimPrefix(name, "attribute_values."), 10, 64)
			if err == nil && id > 0 && len(f.attrs) < cart.MaxAttributesPerItem {
				if f.attrs == nil {
					f.attrs = map[int64]string{}
				}
				f.attrs[id] = value
			}
		}
	}
	indexes := make([]int, 0, len(byIndex))
	for idx := range byIndex {
		indexes = append(indexes, idx)
	}
	sort.Ints(indexes)
	var in checkout.CustomizationInput
	for i, idx := range indexes {
		f := byIndex[idx]
		l := checkout.LineInput{Index: idx, AttributeValues: f.attrs}
		if f.quantity != nil {
			if q, err := strconv.ParseInt(*f.quantity, 10, 64); err == nil {
				l.Quantity = domain.Some(q)
			} else if *f.quantity == "" {
				in.Refuse(domain.VRequired, domain.MsgRequired, "lines", i, "quantity")
			} else {
				in.Refuse(domain.VInvalid, domain.MsgInteger, "lines", i, "quantity")
			}
		}
		if f.variant != nil && *f.variant != "" { // "" is the select's prompt: the variant is kept
			if v, err := strconv.ParseInt(*f.variant, 10, 64); err == nil {
				l.VariantID = domain.Some(v)
			} else {
				in.Refuse(domain.VInvalid, domain.MsgInteger, "lines", i, "variant_id")
			}
		}
		in.Lines = append(in.Lines, l)
	}
	if m, ok := form["delivery_mode"]; ok && len(m) > 0 {
		in.DeliveryMode = domain.Some(strings.TrimSpace(m[0]))
	}
	return in
}

// decodeFunnelInformation reads the information form: first_name,
// last_name, email, phone, street, postal_code, city, country,
// beneficiary_first_name, beneficiary_last_name, beneficiary_email. A
// field the form did not show is absent.
func decodeFunnelInformation(form url.Values) checkout.InformationInput {
	text := func(name string) domain.Optional[string] {
		if vs, ok := form[name]; ok && len(vs) > 0 {
			return domain.Some(strings.TrimSpace(vs[0]))
		}
		return domain.Optional[string]{}
	}
	return checkout.InformationInput{
		FirstName: text("first_name"), LastName: text("last_name"), Email: text("email"), Phone: text("phone"),
		Street: text("street"), PostalCode: text("postal_code"), City: text("city"), Country: text("country"),
		BeneficiaryFirstName: text("beneficiary_first_name"), BeneficiaryLastName: text("beneficiary_last_name"),
		BeneficiaryMail: text("beneficiary_email"),
	}
}

// decodeFunnelCodes reads the payment step's codes: coupon and giftcard
// (empty removes the code).
func decodeFunnelCodes(form url.Values) checkout.CodesInput {
	var in checkout.CodesInput
	if vs, ok := form["coupon"]; ok && len(vs) > 0 {
		in.Coupon = domain.Some(strings.TrimSpace(vs[0]))
	}
	if vs, ok := form["giftcard"]; ok && len(vs) > 0 {
		in.Giftcard = domain.Some(strings.TrimSpace(vs[0]))
	}
	return in
}
