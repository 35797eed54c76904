package graph

import (
	"net/http"
	"strings"
	"testing"
)

// Every custom scalar the schema takes as input answers any JSON value it
// cannot hold with a clean error: BAD_USER_INPUT on the argument (or
// GRAPHQL_VALIDATION_FAILED for a literal no number can hold), never a
// panic (a 500) nor a masked INTERNAL_SERVER_ERROR, and nothing is logged.
// The values are refused before any resolver runs, so no service is
// needed.
func TestScalarInputErrors(t *testing.T) {
	g := newTestGraph()
	// Each operation has the value at %s, once as a literal, once through
	// a variable of the scalar's type ($v).
	for _, c := range []struct {
		scalar string
		op     string
		valid  []string // values of the lists below the scalar holds
	}{
		{"UUID!", `query%s { cart(id: %s) { id } }`, nil},
		{"Int64!", `mutation%s { createCart(input: {items: [{productId: %s, quantity: 1}]}) { cart { id } } }`, []string{`-1`}},
		{"Int64", `mutation%s { createCart(input: {items: [{productId: 1, quantity: 1, variantId: %s}]}) { cart { id } } }`, []string{`-1`}},
		{"Decimal!", `mutation%s { createVoucherPrototype(input: {name: [], description: [], longDescription: [], type: STAY, universeId: "1", stayPrice: %s}) { userErrors { message } } }`,
			// 23 digits: a decimal the scalar holds (the service then
			// refuses more than 10 before the point); as a literal it is
			// an Int no int64 holds, refused by validation.
			[]string{`-1`, `1.5`, `"99999999999999999999999"`, `99999999999999999999999`}},
		{"DateTime", `mutation%s { issueGiftcard(input: {giftcardPrototypeId: "1", value: "1", expiresOn: %s}) { userErrors { message } } }`, nil},
		{"Upload!", `mutation%s { uploadMedia(input: {name: "x", file: %s}) { userErrors { message } } }`, nil},
	} {
		literals := []string{`1e400`, `-1e400`, `99999999999999999999999`, `-1`, `1.5`, `true`, `{a: 1}`, `[1]`, `"not valid"`, `"1e400"`, `"99999999999999999999999"`, `"1e-1000000000"`}
		variables := []string{`1e400`, `-1e400`, `99999999999999999999999`, `-1`, `1.5`, `true`, `{"a": 1}`, `[1]`, `"not valid"`, `"1e400"`, `"99999999999999999999999"`, `"1e-1000000000"`}
		for _, v := range c.valid {
			variables = slicesWithout(variables, v)
			if v != `99999999999999999999999` {
				literals = slicesWithout(literals, v)
			}
		}
		check := func(what string, a answer) {
			t.Helper()
			bad := a.status != http.StatusOK || len(a.Errors) == 0
			for _, code := range a.codes() {
				bad = bad || code != "BAD_USER_INPUT" && code != "GRAPHQL_VALIDATION_FAILED"
			}
			if bad {
				t.Errorf("%s %s: %d %.400s", c.scalar, what, a.status, a.raw)
			}
		}
		for _, v := range literals {
			check("literal "+v, g.ask(t, sprintf(c.op, "", v), ""))
		}
		for _, v := range variables {
			check("variable "+v, g.ask(t, sprintf(c.op, "($v: "+c.scalar+")", "$v"), `{"v": `+v+`}`))
		}
	}
	// A variable's default that no number holds.
	for _, q := range []string{
		`query($v: UUID = 1e400) { cart(id: $v) { id } }`,
		`query($v: Int64 = 99999999999999999999999) { __typename }`,
		`query($v: Decimal = {a: 1e400}) { __typename }`,
	} {
		if a := g.ask(t, q, ""); a.status != http.StatusOK || len(a.Errors) != 1 || a.codes()[0] != "GRAPHQL_VALIDATION_FAILED" {
			t.Errorf("%s: %d %.300s", q, a.status, a.raw)
		}
	}
	if logs := g.logs.String(); logs != "" {
		t.Errorf("input errors were logged as server errors:\n%s", logs)
	}
}

func sprintf(format string, args ...string) string {
	for _, a := range args {
		format = strings.Replace(format, "%s", a, 1)
	}
	return format
}

func slicesWithout(s []string, drop string) []string {
	var out []string
	for _, v := range s {
		if v != drop {
			out = append(out, v)
		}
	}
	return out
}
