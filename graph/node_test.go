package graph

import (
	"errors"
	"testing"

	"salesplatform/domain"
)

func TestGlobalID(t *testing.T) {
	for _, c := range []struct{ typ, key, id string }{
		{"Box", "1", "Qm94OjE"},
		{"AdminVoucher", "SHOP-001", "QWRtaW5Wb3VjaGVyOlNIT1AtMDAx"},
		{"Cart", "9b383e38-bcd5-4ce5-b02a-3b6dee0d4af6", globalID("Cart", "9b383e38-bcd5-4ce5-b02a-3b6dee0d4af6")},
		{"NetworkPartner", "12:345", "TmV0d29ya1BhcnRuZXI6MTI6MzQ1"},
	} {
		if got := globalID(c.typ, c.key); got != c.id {
			t.Errorf("globalID(%s, %s) = %s, want %s", c.typ, c.key, got, c.id)
		}
		typ, key, ok := decodeGlobalID(c.id)
		if !ok || typ != c.typ || key != c.key {
			t.Errorf("decodeGlobalID(%s) = %s, %s, %v", c.id, typ, key, ok)
		}
	}
	if numericGlobalID("Box", 1) != "Qm94OjE" {
		t.Errorf("numericGlobalID")
	}
	// Anything but the canonical id of a Node type with a key of its kind.
	for _, id := range []string{"", "1", "Qm94OjE=", "Qm94OjF", "Qm94Og", globalID("Box", "01"), globalID("Box", "-1"),
		globalID("Box", "0"), globalID("Box", "9223372036854775808"), globalID("Theme", "1"), globalID("Cart", "X"),
		globalID("Cart", "9B383E38-BCD5-4CE5-B02A-3B6DEE0D4AF6"), globalID("AdminVoucher", ""), globalID("AdminVoucher", "a\nb"),
		"Qm94OjE\n", "Qm94+jE", globalID("NetworkPartner", "12"), globalID("NetworkPartner", "12:0"),
		globalID("NetworkPartner", "012:3"), globalID("NetworkPartner", "1:2:3"), globalID("NetworkPartner", ":3")} {
		if typ, key, ok := decodeGlobalID(id); ok {
			t.Errorf("decodeGlobalID(%q) = %s, %s: want refused", id, typ, key)
		}
	}
	// Every Node type of the schema has a lookup, and nothing else has one.
	schema := NewExecutableSchema(Config{Resolvers: &Resolver{}}).Schema()
	impl := schema.GetPossibleTypes(schema.Types["Node"])
	if len(impl) != len(nodeTypes) {
		t.Errorf("%d types implement Node, %d have a lookup", len(impl), len(nodeTypes))
	}
	for _, def := range impl {
		if _, ok := nodeTypes[def.Name]; !ok {
			t.Errorf("%s implements Node without a lookup in nodeTypes", def.Name)
		}
	}
}

func TestLookupKey(t *testing.T) {
	if k, err := lookupKey("Box", globalID("Box", "7")); k != "7" || err != nil {
		t.Errorf("global: %s %v", k, err)
	}
	if k, err := lookupKey("Box", "7"); k != "7" || err != nil {
		t.Errorf("legacy: %s %v", k, err)
	}
	if _, err := lookupKey("Box", globalID("Event", "7")); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("another type: %v", err)
	}
	if _, err := globalKey("id", "Partner", "7"); domain.AsError(err) == nil || domain.AsError(err).Code != domain.CodeInvalid {
		t.Errorf("globalKey of a record id: %v", err)
	}
	if k := filterKey("Workshop", globalID("Workshop", "3")); k != "3" {
		t.Errorf("filterKey = %s", k)
	}
}
