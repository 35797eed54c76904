package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/complexity"
	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// connectionCases: every connection costs its page size times its
// selection, whether first is a literal, a variable or absent (20), and
// whatever the connection.
var connectionCases = []struct {
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
	// last counts as first does; both (refused when run) as the larger.
	{`{ adminVouchers(last: 100) { edges { node { code } } } }`, `{}`, 1 + 100*3},
	{`query($n: Int) { media(last: $n, before: "x") { totalCount } }`, `{"n": 7}`, 1 + 7*1},
	{`{ media(before: "x") { totalCount } }`, `{}`, 1 + 20*1},
	{`{ boxes(first: 2, last: 50) { totalCount } }`, `{}`, 1 + 50*1},
	{`{ adminOptionCategories(last: 2) { edges { node { options(last: 3) { totalCount } } } } }`, `{}`, 1 + 2*(2+1+3*1)},
	// Fragments, inline fragments, __typename, aliases.
	{`{ a: boxes(first: 5) { ...B } b: boxes(first: 2) { ...B } } fragment B on BoxConnection { totalCount ... on BoxConnection { __typename } }`, `{}`, (1 + 5*2) + (1 + 2*2)},
	{`query($n: Int = 7) { boxes(first: $n) { totalCount } }`, `{}`, 1 + 7*1},
	{`query($skip: Boolean!) { boxes(first: 5) @skip(if: $skip) { totalCount } }`, `{"skip": true}`, 1 + 5*1},
	// The network area's lists, nested ones too.
	{`{ networkGiftcards(first: 10) { edges { node { code usages(first: 5) { totalCount } movements { totalCount } holds(last: 2) { totalCount } } } } }`, `{}`,
		1 + 10*(2+1+(1+5*1)+(1+20*1)+(1+2*1))},
	{`query($e: String!) { networkGiftcardsByEmail(email: $e) { totalCount } }`, `{"e": "a@example.com"}`, 1 + 20*1},
	{`{ networkVoucherBoxes(first: 3) { edges { node { offers(first: 4) { edges { node { partner { name } } } } } } } }`, `{}`,
		1 + 3*(2+1+4*(2+2))},
	{`query($e: String!) { networkVouchersByEmail(email: $e, first: 2) { edges { node { usages(first: 3) { totalCount } } } } }`, `{"e": "a@example.com"}`,
		1 + 2*(2+1+3*1)},
	{`{ networkPartners(last: 7) { totalCount } }`, `{}`, 1 + 7*1},
	// nodes counts its selection once per id.
	{`{ nodes(ids: ["a", "b", "c"]) { id } }`, `{}`, 1 + 3*1},
	{`query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Box { offers(first: 10) { totalCount } } } }`, `{"ids": ["a", "b"]}`, 1 + 2*(1+1+10*1)},
}

// load parses and validates query and coerces its variables as the
// executor does.
func load(t *testing.T, schema *ast.Schema, query, vars string) (*ast.QueryDocument, map[string]any) {
	t.Helper()
	doc, err := gqlparser.LoadQuery(schema, query)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	dec := json.NewDecoder(strings.NewReader(vars))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		t.Fatal(err)
	}
	coerced, gerr := validator.VariableValues(schema, doc.Operations[0], raw)
	if gerr != nil {
		t.Fatal(gerr)
	}
	return doc, coerced
}

// operationCostOf is the walk of ComplexityLimit on one operation.
func operationCostOf(es graphql.ExecutableSchema, op *ast.OperationDefinition, vars map[string]any) operationCost {
	return newCostWalker(context.Background(), es, vars).selectionSet(op.SelectionSet)
}

func TestConnectionComplexity(t *testing.T) {
	es := connectionSchema{NewExecutableSchema(Config{Resolvers: &Resolver{}})}
	for _, c := range connectionCases {
		doc, vars := load(t, es.Schema(), c.query, c.vars)
		if got := operationCostOf(es, doc.Operations[0], vars).cost; got != c.want {
			t.Errorf("%s with %s: complexity %d, want %d", c.query, c.vars, got, c.want)
		}
	}
}

// A full page of network giftcards, each with a full page of usages and
// their partners, costs more than an operation may.
func TestNetworkDeepQueryOverLimit(t *testing.T) {
	es := connectionSchema{NewExecutableSchema(Config{Resolvers: &Resolver{}})}
	doc, vars := load(t, es.Schema(), `{ networkGiftcards(first: 100) { edges { node { code
		usages(first: 100) { edges { node { value partner { name } } } } } } } }`, `{}`)
	if got := operationCostOf(es, doc.Operations[0], vars).cost; got <= maxComplexity {
		t.Errorf("complexity %d, want more than %d", got, maxComplexity)
	}
}

// The walk that replaced gqlgen's complexity.Calculate counts the same as
// it on every query but introspection (which gqlgen prices 1 a field, and
// not at all under __schema), here and on a schema with an interface and a
// union.
func TestComplexityMatchesGqlgen(t *testing.T) {
	es := connectionSchema{NewExecutableSchema(Config{Resolvers: &Resolver{}})}
	for _, c := range connectionCases {
		doc, vars := load(t, es.Schema(), c.query, c.vars)
		ours := operationCostOf(es, doc.Operations[0], vars).cost
		if theirs := complexity.Calculate(context.Background(), es, doc.Operations[0], vars); ours != theirs || ours != c.want {
			t.Errorf("%s: ours %d, gqlgen %d, want %d", c.query, ours, theirs, c.want)
		}
	}

	// An interface field costs as its costliest implementation.
	shapes := stubSchema{gqlparser.MustLoadSchema(&ast.Source{Input: `
		type Query { shapes(n: Int): [Shape!]! shape: Shape any: Any }
		interface Shape { area(scale: Int): Int! sides: [Side!]! }
		type Side { length: Int! }
		type Square implements Shape { area(scale: Int): Int! sides: [Side!]! }
		type Circle implements Shape { area(scale: Int): Int! sides: [Side!]! radius: Int! }
		union Any = Square | Circle`}),
		map[string]func(child int, args map[string]any) int{
			"Square.area":  func(_ int, args map[string]any) int { return 3 + intValue(args["scale"]) },
			"Circle.area":  func(_ int, args map[string]any) int { return 7 },
			"Square.sides": func(child int, _ map[string]any) int { return 4 * child },
			"Circle.sides": func(child int, _ map[string]any) int { return 0 }, // under 1: the default
			"Query.shapes": func(child int, args map[string]any) int { return 1 + intValue(args["n"])*child },
		}}
	for _, c := range []struct {
		query, vars string
		want        int
	}{
		{`{ shape { area } }`, `{}`, 1 + 7},
		{`{ shape { area(scale: 10) } }`, `{}`, 1 + 13},
		{`query($s: Int) { shape { area(scale: $s) sides { length } } }`, `{"s": 2}`, 1 + 7 + 4*1},
		{`{ shapes(n: 3) { ...S } } fragment S on Shape { area sides { length } ... on Circle { radius } }`, `{}`, 1 + 3*(7+4+1)},
		{`{ any { __typename ... on Square { area } ... on Circle { radius } } }`, `{}`, 1 + 1 + 3 + 1},
	} {
		doc, vars := load(t, shapes.Schema(), c.query, c.vars)
		ours := operationCostOf(shapes, doc.Operations[0], vars).cost
		if theirs := complexity.Calculate(context.Background(), shapes, doc.Operations[0], vars); ours != theirs || ours != c.want {
			t.Errorf("%s: ours %d, gqlgen %d, want %d", c.query, ours, theirs, c.want)
		}
	}
}

// stubSchema is an executable schema that only prices fields.
type stubSchema struct {
	schema *ast.Schema
	costs  map[string]func(child int, args map[string]any) int
}

func (s stubSchema) Schema() *ast.Schema { return s.schema }

func (s stubSchema) Complexity(_ context.Context, typeName, field string, child int, args map[string]any) (int, bool) {
	if f, ok := s.costs[typeName+"."+field]; ok {
		return f(child, args), true
	}
	return 0, false
}

func (stubSchema) Exec(context.Context) graphql.ResponseHandler { return nil }

func intValue(v any) int {
	if p := intArg(v); p != nil {
		return *p
	}
	return 0
}

// Introspection: __type costs introspectionTypeCost plus its selection,
// its lists introspectionListFactor items; __schema is counted apart.
func TestIntrospectionCost(t *testing.T) {
	es := connectionSchema{NewExecutableSchema(Config{Resolvers: &Resolver{}})}
	for _, c := range []struct {
		query string
		want  operationCost
	}{
		{`{ __type(name: "Query") { name } }`, operationCost{cost: 100 + 1}},
		{`{ __type(name: "Query") { fields { name args { name } } } }`, operationCost{cost: 100 + 1 + 10*(1+1+10*1)}},
		{`{ a: __type(name: "Query") { name } b: __type(name: "Box") { kind ofType { name } } }`, operationCost{cost: 101 + 100 + 1 + 2}},
		{`{ __schema { types { name } } }`, operationCost{schemas: 1, schemaCost: 1 + 1 + 10*1}},
		{`{ viewer { __typename } ...S } fragment S on Query { __schema { queryType { name } } }`, operationCost{cost: 2, schemas: 1, schemaCost: 1 + 2}},
		{`{ ...S ...S } fragment S on Query { __schema { queryType { name } } }`, operationCost{schemas: 2, schemaCost: 2 * (1 + 2)}},
	} {
		doc, vars := load(t, es.Schema(), c.query, `{}`)
		if got := operationCostOf(es, doc.Operations[0], vars); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.query, got, c.want)
		}
	}
}

// Counts saturate at math.MaxInt instead of wrapping around.
func TestSaturation(t *testing.T) {
	for _, c := range []struct{ got, want int }{
		{satAdd(math.MaxInt, 1), math.MaxInt},
		{satAdd(math.MaxInt-1, 1), math.MaxInt},
		{satAdd(2, 3), 5},
		{satAdd(-5, 3), 3},
		{satMul(math.MaxInt/2+1, 2), math.MaxInt},
		{satMul(1<<32, 1<<31), math.MaxInt},
		{satMul(1<<31, 1<<31), 1 << 62},
		{satMul(1<<32, 1<<32), math.MaxInt},
		{satMul(-1, 5), 0},
		{connectionCost(math.MaxInt/10, nil, nil), math.MaxInt},
		{connectionCost(math.MaxInt/100, nil, nil), 1 + 20*(math.MaxInt/100)},
		{connectionCost(math.MaxInt, nil, nil), math.MaxInt},
	} {
		if c.got != c.want {
			t.Errorf("got %d, want %d", c.got, c.want)
		}
	}
}

// A cancelled request stops the walk and is refused, at once.
func TestComplexityStopsWhenCancelled(t *testing.T) {
	es := connectionSchema{NewExecutableSchema(Config{Resolvers: &Resolver{}})}
	doc, vars := load(t, es.Schema(), aliases(5000, ` a%d: __typename`), `{}`)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := newCostWalker(ctx, es, vars)
	w.selectionSet(doc.Operations[0].SelectionSet)
	if !errors.Is(w.err, context.Canceled) || w.steps != checkEvery {
		t.Errorf("cancelled walk: err %v after %d steps", w.err, w.steps)
	}
	limit := &ComplexityLimit{Max: maxComplexity}
	_ = limit.Validate(es)
	oc := &graphql.OperationContext{Doc: doc, Operation: doc.Operations[0], Variables: vars}
	if err := limit.MutateOperationContext(ctx, oc); err == nil {
		t.Error("a cancelled request's operation was let through")
	}
}

// introspectionDepthRule gives gqlparser's verdicts.
func TestIntrospectionDepthRule(t *testing.T) {
	es := connectionSchema{NewExecutableSchema(Config{Resolvers: &Resolver{}})}
	theirs := rules.NewDefaultRules()
	refused := 0
	for _, q := range []string{
		`{ __schema { types { fields { type { fields { name } } } } } }`,
		`{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }`,
		`{ __type(name: "Query") { fields { type { interfaces { possibleTypes { name } } } } } }`,
		`{ __type(name: "Query") { ...A } } fragment A on __Type { fields { type { ...B } } } fragment B on __Type { inputFields { type { fields { name } } } }`,
		`{ __type(name: "Query") { ...A } } fragment A on __Type { fields { type { ...B } } } fragment B on __Type { name }`,
		`{ __type(name: "Query") { ...A ...A } } fragment A on __Type { ... on __Type { fields { name } } }`,
		graphiQLIntrospection,
	} {
		doc, err := gqlparser.LoadQuery(es.Schema(), q) // parse and validate
		if err != nil && !strings.Contains(err.Error(), "Maximum introspection depth exceeded") {
			t.Fatal(err)
		}
		if doc == nil {
			doc, _ = gqlparser.LoadQueryWithRules(es.Schema(), q, rules.NewRules())
		}
		want := validator.ValidateWithRules(es.Schema(), doc, theirs)
		got := validator.ValidateWithRules(es.Schema(), doc, validationRules())
		if len(got) != len(want) || len(got) > 0 && got[0].Error() != want[0].Error() {
			t.Errorf("%.80s: %v, gqlparser %v", q, got, want)
		}
		if len(got) > 0 {
			refused++
		}
	}
	if refused != 3 {
		t.Errorf("%d queries refused, want 3", refused)
	}
}

// Our validation rules give gqlparser's verdicts on the spec's tests
// (graphql-js's, as gqlparser imports them into
// validator/imported/spec/*.yml).
func TestValidationRulesSpec(t *testing.T) {
	for _, c := range []struct {
		file          string
		ours, theirs  core.Rule
		cases, errors int
	}{
		{"OverlappingFieldsCanBeMergedRule.spec.yml", overlappingFieldsRule, rules.OverlappingFieldsCanBeMergedRule, 49, 25},
		{"MaxIntrospectionDepthRule.spec.yml", introspectionDepthRule, rules.MaxIntrospectionDepth, 17, 11},
	} {
		n, refused := 0, 0
		for _, sc := range specCases(t, c.file) {
			got := validator.ValidateWithRules(sc.schema, sc.doc, onlyRule(c.ours))
			theirs := validator.ValidateWithRules(sc.schema, sc.doc, onlyRule(c.theirs))
			if hasFragmentCycle(sc.doc) {
				// Ours do not follow cycles, which NoFragmentCycles refuses.
				if len(validator.ValidateWithRules(sc.schema, sc.doc, validationRules())) == 0 {
					t.Errorf("%s: a cycle was let through", sc.name)
				}
			} else if (len(got) > 0) != (len(theirs) > 0) {
				t.Errorf("%s: %v, gqlparser %v", sc.name, got, theirs)
			}
			if len(got) > 0 {
				refused++
			}
			n++
		}
		if n < c.cases || refused < c.errors {
			t.Errorf("%s: %d cases, %d refused", c.file, n, refused)
		}
	}
}

func onlyRule(rule core.Rule) *rules.Rules {
	r := rules.NewRules()
	r.AddRule(rule.Name, rule.RuleFunc)
	return r
}

type specCase struct {
	name   string
	schema *ast.Schema
	doc    *ast.QueryDocument
}

// specCases reads the cases of one of gqlparser's imported spec files. The
// files are YAML of one shape each: schemas.yml block scalars ("- |-"),
// the rules' files entries of name, rule, schema, query (a block) and
// errors.
func specCases(t *testing.T, file string) []specCase {
	t.Helper()
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/vektah/gqlparser/v2").Output()
	if err != nil {
		t.Skipf("gqlparser's sources: %v", err)
	}
	specDir := filepath.Join(strings.TrimSpace(string(dir)), "validator", "imported", "spec")
	rawSchemas, err := os.ReadFile(filepath.Join(specDir, "schemas.yml"))
	if err != nil {
		t.Skipf("gqlparser's imported tests: %v", err)
	}
	rawTests, err := os.ReadFile(filepath.Join(specDir, file))
	if err != nil {
		t.Skipf("gqlparser's imported tests: %v", err)
	}
	blocks := strings.Split(string(rawSchemas), "\n- ")
	schemas := map[int]*ast.Schema{}
	var out []specCase
	for _, entry := range strings.Split("\n"+string(rawTests), "\n- name: ")[1:] {
		name, rest, _ := strings.Cut(entry, "\n")
		_, rest, _ = strings.Cut(rest, "  schema: ")
		num, rest, _ := strings.Cut(rest, "\n")
		schema, err := strconv.Atoi(num)
		if err != nil || schema >= len(blocks) {
			t.Fatalf("%s: schema %q", name, num)
		}
		if schemas[schema] == nil {
			block, _ := strings.CutPrefix(strings.TrimPrefix(blocks[schema], "- "), "|-\n")
			if schemas[schema], err = gqlparser.LoadSchema(&ast.Source{Input: block}); err != nil {
				t.Fatalf("schema %d: %v", schema, err)
			}
		}
		_, rest, _ = strings.Cut(rest, "  query: |2-\n")
		query, _, ok := strings.Cut(rest, "\n  errors:")
		if !ok {
			t.Fatalf("%s: no errors", name)
		}
		doc, perr := parser.ParseQuery(&ast.Source{Input: query})
		if perr != nil {
			t.Fatalf("%s: %v", name, perr)
		}
		out = append(out, specCase{name, schemas[schema], doc})
	}
	return out
}

// overlappingFieldsRule's work grows with the document, not with the
// pairs of its fields nor with the expansion of its fragments.
func TestMergeSteps(t *testing.T) {
	es := connectionSchema{NewExecutableSchema(Config{Resolvers: &Resolver{}})}
	chain := func(levels int, step string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "{ ...F%d }\nfragment V on Viewer { permissions }\nfragment F0 on Query { v: viewer { permissions } }\n", levels)
		for i := 1; i <= levels; i++ {
			fmt.Fprintf(&b, step+"\n", i, i-1, i-1)
		}
		return b.String()
	}
	for _, c := range []struct {
		query    string
		maxSteps int
	}{
		{"{" + strings.Repeat(" __typename", 20000) + " }", 3 * 20000},
		{"{" + strings.Repeat(" a: viewer { permissions }", 5000) + " }", 8 * 5000},
		{chain(200, "fragment F%d on Query { v: viewer { ...V } ...F%d ...F%d }"), 20 * 200},
		{chain(200, "fragment F%d on Query { v: viewer { ... on Viewer { ...V } } ... on Query { ...F%d } ...F%d }"), 20 * 200},
		{strings.Repeat("{ ... on Query ", 5000) + "{ __typename }" + strings.Repeat("}", 5000), 3 * 5000},
	} {
		doc, err := parser.ParseQuery(&ast.Source{Input: c.query})
		if err != nil {
			t.Fatal(err)
		}
		var errs []string
		m := newMerger(func(opts ...core.ErrorOption) { errs = append(errs, "error") })
		r := rules.NewRules()
		r.AddRule("merge", func(observers *core.Events, _ core.AddErrFunc) { m.observe(observers) })
		validator.ValidateWithRules(es.Schema(), doc, r)
		if m.steps > c.maxSteps || len(errs) > 0 {
			t.Errorf("%.60s: %d steps (at most %d), errors %v", c.query, m.steps, c.maxSteps, errs)
		}
	}
}
