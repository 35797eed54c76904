package graph

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/complexity"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/validator"
)

// Every connection costs its page size times its selection, whether first
// is a literal, a variable or absent (20), and whatever the connection.
func TestConnectionComplexity(t *testing.T) {
	es := connectionSchema{NewExecutableSchema(Config{Resolvers: &Resolver{}})}
	for _, c := range []struct {
		query string
		vars  string
		want  int
	}{
		// edges 1 + node 1 + code 1 per item, plus the connection itself.
		{`{ adminVouchers(first: 100) { edges { node { code } } } }`, `{}`, 1 + 100*3},
		{`{ adminVouchers { edges { node { code } } } }`, `{}`, 1 + 20*3},
		{`query($n: Int) { adminVouchers(first: $n) { edges { node { code } } } }`, `{"n": 50}`, 1 + 50*3},
		{`{ adminVouchers(first: 100000) { edges { node { code } } } }`, `{}`, 1 + 100*3},
		{`{ adminVouchers(first: 0) { totalCount } }`, `{}`, 1 + 1*1},
		{`{ viewer { partner { media(first: 10) { edges { node { id } } } } } }`, `{}`, 2 + 1 + 10*3},
		{`{ adminOptionCategories(first: 2) { edges { node { options(first: 3) { totalCount } } } } }`, `{}`, 1 + 2*(2+1+3*1)},
		{`{ boxes(first: 5) { totalCount } }`, `{}`, 1 + 5*1},
	} {
		doc, err := gqlparser.LoadQuery(es.Schema(), c.query)
		if err != nil {
			t.Fatal(err)
		}
		var raw map[string]any
		dec := json.NewDecoder(strings.NewReader(c.vars))
		dec.UseNumber()
		if err := dec.Decode(&raw); err != nil {
			t.Fatal(err)
		}
		vars, gerr := validator.VariableValues(es.Schema(), doc.Operations[0], raw)
		if gerr != nil {
			t.Fatal(gerr)
		}
		if got := complexity.Calculate(context.Background(), es, doc.Operations[0], vars); got != c.want {
			t.Errorf("%s with %s: complexity %d, want %d", c.query, c.vars, got, c.want)
		}
	}
}
