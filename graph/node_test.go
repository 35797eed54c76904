package graph

import (
	"context"
	"errors"
	"slices"
	"sort"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"salesplatform/domain"
)

// globalByConstruction are the object types with an id field that need
// not implement Node, each with why its id is unique across the whole
// graph all the same (a random UUID, say). Relay's store keys records on
// id alone, so an id that repeats across types merges two records. None
// today: every type with an id is a Node.
var globalByConstruction = map[string]string{}

// Every object type with a field named id implements Node (its id a
// global id, typename-prefixed), or is in globalByConstruction.
func TestSchemaIDsAreGlobal(t *testing.T) {
	schema := NewExecutableSchema(Config{Resolvers: &Resolver{}}).Schema()
	var offenders []string
	for name, def := range schema.Types {
		if def.Kind != ast.Object || def.Fields.ForName("id") == nil {
			continue
		}
		if slices.Contains(def.Interfaces, "Node") {
			continue
		}
		if _, ok := globalByConstruction[name]; !ok {
			offenders = append(offenders, name)
		}
	}
	sort.Strings(offenders)
	if len(offenders) > 0 {
		t.Errorf("%d object types have an id but do not implement Node (Relay would mix their records up with others of the same record id): %v", len(offenders), offenders)
	}
	for name := range globalByConstruction {
		if def := schema.Types[name]; def == nil || def.Fields.ForName("id") == nil {
			t.Errorf("globalByConstruction names %s, which has no id field", name)
		}
	}
}

// A Node type without a lookup is NOT_FOUND on node(id:), its id being
// well-formed all the same.
func TestNodeWithoutLookup(t *testing.T) {
	r := &Resolver{}
	for _, id := range []string{numericGlobalID("Universe", 1), globalID("Gift", "voucher:1")} {
		if n, err := r.resolveNode(context.Background(), "id", id); n != nil || !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("node(%s) = %v, %v: want NOT_FOUND", id, n, err)
		}
	}
}

func TestGlobalID(t *testing.T) {
	for _, c := range []struct{ typ, key, id string }{
		{"Box", "1", "Qm94OjE"},
		{"AdminVoucher", "SHOP-001", "QWRtaW5Wb3VjaGVyOlNIT1AtMDAx"},
		{"Cart", "9b383e38-bcd5-4ce5-b02a-3b6dee0d4af6", globalID("Cart", "9b383e38-bcd5-4ce5-b02a-3b6dee0d4af6")},
		{"NetworkPartner", "12:345", "TmV0d29ya1BhcnRuZXI6MTI6MzQ1"},
		{"Universe", "1", "VW5pdmVyc2U6MQ"},
		{"Gift", "network_voucher:12", globalID("Gift", "network_voucher:12")},
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
		globalID("Box", "0"), globalID("Box", "9223372036854775808"), globalID("Money", "1"), globalID("Cart", "X"),
		globalID("Cart", "9B383E38-BCD5-4CE5-B02A-3B6DEE0D4AF6"), globalID("AdminVoucher", ""), globalID("AdminVoucher", "a\nb"),
		"Qm94OjE\n", "Qm94+jE", globalID("NetworkPartner", "12"), globalID("NetworkPartner", "12:0"),
		globalID("NetworkPartner", "012:3"), globalID("NetworkPartner", "1:2:3"), globalID("NetworkPartner", ":3"),
		globalID("Gift", "12"), globalID("Gift", ":12"), globalID("Gift", "Voucher:12"), globalID("Gift", "voucher:012"),
		globalID("Gift", "voucher:1:2")} {
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
	// A record several types show is read by the global id of any of them.
	for _, id := range []string{globalID("EventSlot", "4"), globalID("EventSlotListItem", "4"), "4"} {
		if n, err := recordIDOf(id, "EventSlot", "EventSlotListItem"); n != 4 || err != nil {
			t.Errorf("recordIDOf(%s) = %d, %v", id, n, err)
		}
	}
	if _, err := recordIDOf(globalID("Event", "4"), "EventSlot", "EventSlotListItem"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("recordIDOf another type: %v", err)
	}
	if n := refID(globalID("Universe", "5"), universeTypes...); n != 5 {
		t.Errorf("refID = %d", n)
	}
	if n := refID(globalID("Theme", "5"), universeTypes...); n != 0 {
		t.Errorf("refID of another type = %d, want 0 (no record)", n)
	}
}
