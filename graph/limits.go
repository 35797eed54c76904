package graph

// Request limits, checked before anything runs. Every check takes time
// about linear in the size of the document, whatever the document.
//
// Before validation, DocumentLimit bounds the fragments (maxFragments) and
// operations (maxOperations) of a document. Validation is gqlparser's, with
// two of its rules replaced by linear ones (validationRules):
// MaxIntrospectionDepth (introspectionDepthRule) and
// OverlappingFieldsCanBeMerged (overlappingFieldsRule).
//
// After validation: depth, an operation whose fields nest deeper than
// maxDepth is refused with QUERY_TOO_DEEP. Complexity (ComplexityLimit):
// each field costs 1 plus its selection, and a connection multiplies its
// selection by its page size (first or last, 20 when absent, at most
// 100), so the cost bounds the number of values an answer can hold; an
// operation over maxComplexity is refused with COMPLEXITY_LIMIT_EXCEEDED.
// Introspection: at most one __schema field per operation, of a cost at most
// maxSchemaComplexity, and no alias below __schema and __type
// (INTROSPECTION_LIMIT); __type costs introspectionTypeCost plus its
// selection, its lists counting introspectionListFactor items. A number
// literal no number holds (1e400) is refused (GRAPHQL_VALIDATION_FAILED).
//
// The depth and cost walks are linear: a named fragment is walked once and
// its result reused wherever it is spread (a fragment's depth and cost do
// not depend on where it is spread: its arguments come from literals and
// the request's variables), so a chain of fragments that each spread the
// next one twice, whose expanded form doubles at each level, costs one walk
// a fragment. Counts saturate at math.MaxInt instead of wrapping around.

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"

	"salesplatform/domain"
)

const (
	// maxDepth admits the deepest useful query (boxes → offers → partner →
	// labels is 9 levels, a three-level universe tree 5) with room to spare.
	maxDepth = 12
	// maxComplexity admits a full page (100) of partners with every field
	// and language (about 8,400), not a full page of full pages (30,000 and
	// more).
	maxComplexity = 20000
	// introspectionListFactor is the number of items an introspection list
	// (types, fields, args, inputFields, enumValues, interfaces,
	// possibleTypes, directives…) counts for: 10, the order of a type's
	// fields or a field's arguments. A fixed factor rather than the
	// schema's sizes, so that an operation's cost does not change as the
	// schema grows. It prices the __type fields: a tool's __type with the
	// whole FullType fragment of GraphiQL costs about 4,900, so a few fit in
	// an operation, and nesting lists (fields → type → fields…) multiplies
	// by 10 a level.
	introspectionListFactor = 10
	// introspectionTypeCost is what a __type field costs besides its
	// selection: a type's lookup and its introspection values, whatever is
	// selected, so that a few hundred __type fields are refused however
	// little each asks (199 of { name } fit in maxComplexity).
	introspectionTypeCost = 100
	// maxSchemaFields is the number of __schema fields an operation may
	// hold, counted over the document with its fragments expanded: the one
	// of a tool's introspection query. Each copy answers the whole schema
	// (300 aliases of __schema answered 20 MB).
	maxSchemaFields = 1
	// maxSchemaComplexity bounds the cost of the one __schema field, priced
	// as __type is; it is not part of the operation's complexity (the
	// standard introspection query of GraphiQL and of the graphql-http
	// audit, every option on, costs 51,860 there, more than maxComplexity
	// on its own) but bounds what a single __schema may ask: every list
	// nested below the standard query's types → fields → args multiplies
	// its cost by introspectionListFactor. (Aliases, which would repeat
	// its lists, are refused.)
	maxSchemaComplexity = 100000
	// checkEvery is how many selections the complexity walk counts between
	// two looks at the request's context.
	checkEvery = 1024
	// maxFragments and maxOperations bound the fragment definitions and
	// the operations of a document (DocumentLimit): gqlparser's validation
	// walks each operation and each fragment with every fragment it
	// spreads, directly or not, each found by a linear search, so its time
	// grows with their product (a chain of 1,000 fragments, 34 KB: 0.9 s).
	// 200 fragments cost it about 10 ms at worst.
	maxFragments  = 200
	maxOperations = 50
)

// Error codes (extensions.code) of the operations these limits refuse.
const (
	CodeQueryTooDeep       = "QUERY_TOO_DEEP"
	CodeComplexityLimit    = "COMPLEXITY_LIMIT_EXCEEDED"
	CodeIntrospectionLimit = "INTROSPECTION_LIMIT"
)

// DepthLimit refuses operations whose fields nest deeper than Max.
// Introspection (__schema, __type) is not counted: its depth is the
// client's tooling's (GraphiQL asks 13 levels), and it reads no data.
type DepthLimit struct{ Max int }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = DepthLimit{}

// ExtensionName implements graphql.HandlerExtension.
func (DepthLimit) ExtensionName() string { return "DepthLimit" }

// Validate implements graphql.HandlerExtension.
func (DepthLimit) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext implements graphql.OperationContextMutator.
func (d DepthLimit) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	if depth := selectionDepth(oc.Operation.SelectionSet, map[string]int{}); depth > d.Max {
		err := gqlerror.Errorf("operation has depth %d, which exceeds the limit of %d", depth, d.Max)
		errcode.Set(err, CodeQueryTooDeep)
		return err
	}
	return nil
}

// selectionDepth is the number of nested field levels of set. fragments
// memoizes the depth of named fragments, so that spreading one many times
// costs one walk (validation has already refused fragment cycles).
func selectionDepth(set ast.SelectionSet, fragments map[string]int) int {
	depth := 0
	for _, sel := range set {
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			if s.Name == "__schema" || s.Name == "__type" {
				continue
			}
			d = 1 + selectionDepth(s.SelectionSet, fragments)
		case *ast.InlineFragment:
			d = selectionDepth(s.SelectionSet, fragments)
		case *ast.FragmentSpread:
			known, ok := fragments[s.Name]
			if !ok && s.Definition != nil {
				known = selectionDepth(s.Definition.SelectionSet, fragments)
				fragments[s.Name] = known
			}
			d = known
		}
		depth = max(depth, d)
	}
	return depth
}

// DocumentLimit refuses a document of more than maxFragments fragment
// definitions or maxOperations operations (GRAPHQL_VALIDATION_FAILED)
// before gqlgen validates it. A document in Cache has passed: it is not
// parsed again.
type DocumentLimit struct {
	Cache graphql.Cache[*ast.QueryDocument]
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
} = DocumentLimit{}

// ExtensionName implements graphql.HandlerExtension.
func (DocumentLimit) ExtensionName() string { return "DocumentLimit" }

// Validate implements graphql.HandlerExtension.
func (DocumentLimit) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationParameters implements graphql.OperationParameterMutator.
// It runs after the automatic persisted queries have set the query.
func (d DocumentLimit) MutateOperationParameters(ctx context.Context, params *graphql.RawParams) *gqlerror.Error {
	if params.Query == "" || !strings.Contains(params.Query, "fragment") && strings.Count(params.Query, "{") <= maxOperations {
		return nil // no fragments, too few braces for too many operations
	}
	if d.Cache != nil {
		if _, ok := d.Cache.Get(ctx, params.Query); ok {
			return nil
		}
	}
	doc, err := parser.ParseQuery(&ast.Source{Input: params.Query})
	if err != nil {
		return nil // gqlgen answers it
	}
	var refusal *gqlerror.Error
	switch {
	case len(doc.Fragments) > maxFragments:
		refusal = gqlerror.Errorf("the document has %d fragments, which exceeds the limit of %d", len(doc.Fragments), maxFragments)
	case len(doc.Operations) > maxOperations:
		refusal = gqlerror.Errorf("the document has %d operations, which exceeds the limit of %d", len(doc.Operations), maxOperations)
	default:
		return nil
	}
	errcode.Set(refusal, errcode.ValidationFailed)
	return refusal
}

// ComplexityLimit refuses, before they run, operations that cost more than
// Max (COMPLEXITY_LIMIT_EXCEEDED), that hold more than maxSchemaFields
// __schema fields or a __schema costlier than maxSchemaComplexity
// (INTROSPECTION_LIMIT), and operations with a number literal no number
// holds (1e400, an integer past 64 bits: GRAPHQL_VALIDATION_FAILED), which
// gqlgen's argument reading would turn into a panic.
//
// It replaces gqlgen's extension.FixedComplexityLimit, whose
// complexity.Calculate walks a fragment again at each spread: a document
// of fragments that each spread the next one twice costs 2^levels walks
// (about 1 KB of query, 24 levels: 7.7 s of CPU). Costs are the same as
// gqlgen's otherwise (TestComplexityMatchesGqlgen): each field costs 1
// plus its selection, or what the schema's Complexity says
// (connectionSchema); a field of an interface costs as its costliest
// implementation; __schema is not counted in the complexity (it has its
// own limits); fields are counted whatever their @skip and @include.
//
// The walk looks at the request's context every checkEvery selections and
// stops when it is done: the client went away or the server's deadline
// passed.
type ComplexityLimit struct {
	Max int
	es  graphql.ExecutableSchema
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = &ComplexityLimit{}

// ExtensionName implements graphql.HandlerExtension. The name of gqlgen's
// extension, so that extension.GetComplexityStats finds the stats.
func (*ComplexityLimit) ExtensionName() string { return "ComplexityLimit" }

// Validate implements graphql.HandlerExtension: it keeps the schema.
func (c *ComplexityLimit) Validate(es graphql.ExecutableSchema) error {
	c.es = es
	return nil
}

// MutateOperationContext implements graphql.OperationContextMutator.
func (c *ComplexityLimit) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	w := newCostWalker(ctx, c.es, oc.Variables)
	total := w.selectionSet(oc.Operation.SelectionSet)
	if w.err != nil {
		err := gqlerror.Errorf("the request ended before its operation was checked: %v", w.err)
		errcode.Set(err, errcode.ValidationFailed)
		return err
	}
	if w.badLiteral != nil {
		return w.badLiteral
	}
	if f := w.alias; f != nil {
		err := gqlerror.ErrorPosf(f.Position, "introspection fields take no alias: %s is %s of %s", f.Alias, f.Name, f.ObjectDefinition.Name)
		errcode.Set(err, CodeIntrospectionLimit)
		return err
	}
	if total.schemas > maxSchemaFields {
		err := gqlerror.Errorf("operation has %d __schema fields, which exceeds the limit of %d", total.schemas, maxSchemaFields)
		errcode.Set(err, CodeIntrospectionLimit)
		return err
	}
	if total.schemaCost > maxSchemaComplexity {
		err := gqlerror.Errorf("operation has a __schema of complexity %d, which exceeds the limit of %d", total.schemaCost, maxSchemaComplexity)
		errcode.Set(err, CodeIntrospectionLimit)
		return err
	}
	oc.Stats.SetExtension(c.ExtensionName(), &extension.ComplexityStats{Complexity: total.cost, ComplexityLimit: c.Max})
	if total.cost > c.Max {
		err := gqlerror.Errorf("operation has complexity %d, which exceeds the limit of %d", total.cost, c.Max)
		errcode.Set(err, CodeComplexityLimit)
		return err
	}
	return nil
}

// operationCost is what the walk counts for a selection set, all
// saturating.
type operationCost struct {
	cost       int // the complexity, __schema aside
	schemas    int // __schema fields in the expanded selection
	schemaCost int // their complexity, priced as __type
}

func (a operationCost) plus(b operationCost) operationCost {
	return operationCost{satAdd(a.cost, b.cost), satAdd(a.schemas, b.schemas), satAdd(a.schemaCost, b.schemaCost)}
}

// costWalker counts the cost of one operation.
type costWalker struct {
	ctx    context.Context
	es     graphql.ExecutableSchema
	schema *ast.Schema
	vars   map[string]any
	// fragments memoizes the cost of named fragments; a fragment being
	// walked is present, at zero (validation refuses cycles; this only
	// keeps the walk finite if one got through).
	fragments map[string]*operationCost
	steps     int
	// err is the context's error once it is done; the walk then stops.
	err error
	// badLiteral is the first argument literal no number holds.
	badLiteral *gqlerror.Error
	// alias is the first aliased field of an introspection type.
	alias *ast.Field
}

func newCostWalker(ctx context.Context, es graphql.ExecutableSchema, vars map[string]any) *costWalker {
	return &costWalker{ctx: ctx, es: es, schema: es.Schema(), vars: vars, fragments: map[string]*operationCost{}}
}

// stop counts a step and tells whether the walk must end.
func (w *costWalker) stop() bool {
	if w.err != nil {
		return true
	}
	w.steps++
	if w.steps%checkEvery == 0 {
		w.err = w.ctx.Err()
	}
	return w.err != nil
}

func (w *costWalker) selectionSet(set ast.SelectionSet) operationCost {
	var total operationCost
	for _, sel := range set {
		if w.stop() {
			return total
		}
		switch s := sel.(type) {
		case *ast.Field:
			w.checkDirectives(s.Directives)
			total = total.plus(w.field(s))
		case *ast.InlineFragment:
			w.checkDirectives(s.Directives)
			total = total.plus(w.selectionSet(s.SelectionSet))
		case *ast.FragmentSpread:
			w.checkDirectives(s.Directives)
			total = total.plus(w.fragment(s))
		}
	}
	return total
}

func (w *costWalker) fragment(s *ast.FragmentSpread) operationCost {
	if known, ok := w.fragments[s.Name]; ok {
		return *known
	}
	if s.Definition == nil {
		return operationCost{}
	}
	known := &operationCost{}
	w.fragments[s.Name] = known
	w.checkDirectives(s.Definition.Directives)
	*known = w.selectionSet(s.Definition.SelectionSet)
	return *known
}

func (w *costWalker) field(f *ast.Field) operationCost {
	if f.Definition == nil || f.ObjectDefinition == nil {
		return operationCost{}
	}
	typ := w.schema.Types[f.Definition.Type.Name()]
	if typ == nil {
		return operationCost{}
	}
	if w.alias == nil && f.Alias != f.Name && strings.HasPrefix(f.ObjectDefinition.Name, "__") {
		w.alias = f
	}
	args := w.arguments(f)
	var child operationCost
	switch typ.Kind {
	case ast.Object, ast.Interface, ast.Union:
		child = w.selectionSet(f.SelectionSet)
	}
	if typ.Name == "__Schema" {
		// Not in the complexity, as in gqlgen: priced apart, and counted.
		return operationCost{
			schemas:    satAdd(1, child.schemas),
			schemaCost: satAdd(child.schemaCost, satAdd(1, child.cost)),
		}
	}
	c := child
	c.cost = w.fieldCost(f, child.cost, args)
	return c
}

// fieldCost is the cost of field f given the cost of its selection.
func (w *costWalker) fieldCost(f *ast.Field, child int, args map[string]any) int {
	if strings.HasPrefix(f.ObjectDefinition.Name, "__") && f.Definition.Type.Elem != nil {
		// A list of the introspection types (__Type.fields and so on).
		return satAdd(1, satMul(introspectionListFactor, child))
	}
	if f.Name == "__type" {
		return satAdd(introspectionTypeCost, child)
	}
	if f.ObjectDefinition.Kind != ast.Interface {
		return w.typeFieldCost(f.ObjectDefinition, f.Name, child, args)
	}
	// An interface has no costs of its own: its costliest implementation.
	worst := 0
	for _, t := range w.schema.GetPossibleTypes(f.ObjectDefinition) {
		worst = max(worst, w.typeFieldCost(t, f.Name, child, args))
	}
	return worst
}

// typeFieldCost is the cost of field of def: the schema's when it has one
// (connectionSchema prices connections), else 1 plus its selection.
func (w *costWalker) typeFieldCost(def *ast.Definition, field string, child int, args map[string]any) int {
	if c, ok := w.es.Complexity(w.ctx, def.Name, field, child, args); ok && c >= 1 {
		return c
	}
	return satAdd(1, child)
}

// arguments is f.ArgumentMap(w.vars), which panics on a literal no Go
// number holds (1e400): such a literal is recorded in w.badLiteral and the
// argument left out.
func (w *costWalker) arguments(f *ast.Field) map[string]any {
	if len(f.Definition.Arguments) == 0 {
		return nil
	}
	args := make(map[string]any, len(f.Definition.Arguments))
	for _, def := range f.Definition.Arguments {
		var val any
		has := false
		if arg := f.Arguments.ForName(def.Name); arg != nil {
			if arg.Value.Kind == ast.Variable {
				val, has = w.vars[arg.Value.Raw]
			} else {
				v, err := arg.Value.Value(w.vars)
				if err != nil {
					w.literalError(arg.Value, err)
					continue
				}
				val, has = v, true
			}
		}
		if !has && def.DefaultValue != nil {
			if v, err := def.DefaultValue.Value(w.vars); err == nil {
				val, has = v, true
			}
		}
		if has {
			args[def.Name] = val
		}
	}
	return args
}

// checkDirectives records a directive argument literal no number holds.
func (w *costWalker) checkDirectives(directives ast.DirectiveList) {
	for _, d := range directives {
		for _, arg := range d.Arguments {
			if _, err := arg.Value.Value(w.vars); err != nil {
				w.literalError(arg.Value, err)
			}
		}
	}
}

func (w *costWalker) literalError(v *ast.Value, err error) {
	if w.badLiteral != nil {
		return
	}
	bad := v
	// The literal at fault, in a list or an input object.
	for found := true; found; {
		found = false
		for _, c := range bad.Children {
			if _, cerr := c.Value.Value(w.vars); cerr != nil {
				bad, found = c.Value, true
				break
			}
		}
	}
	msg := fmt.Sprintf("the number %s is out of range", bad.Raw)
	if bad.Kind != ast.IntValue && bad.Kind != ast.FloatValue {
		msg = "invalid literal: " + err.Error()
	}
	e := gqlerror.ErrorPosf(bad.Position, "%s", msg)
	errcode.Set(e, errcode.ValidationFailed)
	w.badLiteral = e
}

// satAdd is a + b, math.MaxInt past it; negative operands count as 0.
func satAdd(a, b int) int {
	a, b = max(a, 0), max(b, 0)
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

// satMul is a × b, math.MaxInt past it; negative operands count as 0.
func satMul(a, b int) int {
	if a <= 0 || b <= 0 {
		return 0
	}
	if a > math.MaxInt/b {
		return math.MaxInt
	}
	return a * b
}

// connectionCost is the complexity of a connection field: its selection
// once per item of the page it asks for, by first or last (the larger
// when both are given, which the resolver refuses).
func connectionCost(child int, first, last *int) int {
	n := domain.PageSize(first)
	if last != nil {
		n = domain.PageSize(last)
		if first != nil {
			n = max(n, domain.PageSize(first))
		}
	}
	n = max(n, 1) // first: 0 still reads one row, for the count
	return satAdd(1, satMul(n, child))
}

// connectionSchema is the executable schema with one complexity rule for
// every connection: a field whose type is a ...Connection costs
// connectionCost by its first and last arguments. One rule, found from the schema,
// so that no connection (nor one added later) goes uncounted.
type connectionSchema struct{ graphql.ExecutableSchema }

// Complexity implements graphql.ExecutableSchema.
func (s connectionSchema) Complexity(ctx context.Context, typeName, field string, child int, args map[string]any) (int, bool) {
	if typeName == "Query" && field == "nodes" { // its selection once per id (at most maxNodes)
		ids, _ := args["ids"].([]any)
		return satAdd(1, satMul(max(min(len(ids), maxNodes), 1), child)), true
	}
	if def := s.Schema().Types[typeName]; def != nil {
		if f := def.Fields.ForName(field); f != nil && strings.HasSuffix(f.Type.Name(), "Connection") {
			return connectionCost(child, intArg(args["first"]), intArg(args["last"])), true
		}
	}
	return s.ExecutableSchema.Complexity(ctx, typeName, field, child, args)
}

// intArg reads an Int argument as the complexity walk gives it: the
// query's literal or the request's variable, not yet coerced. nil when
// absent or null.
func intArg(v any) *int {
	var n int64
	switch x := v.(type) {
	case int:
		n = int64(x)
	case int64:
		n = x
	case float64:
		if math.IsNaN(x) {
			return nil
		}
		n = int64(min(max(x, math.MinInt32), math.MaxInt32))
	case json.Number:
		i, err := x.Int64()
		if err != nil {
			return nil
		}
		n = i
	default:
		return nil
	}
	i := int(min(max(n, math.MinInt32), math.MaxInt32))
	return &i
}

// maxIntrospectionLists is gqlparser's limit of nested introspection lists
// (fields, interfaces, possibleTypes, inputFields) below a __schema or a
// __type: a path of that many is refused.
const maxIntrospectionLists = 3

// introspectionDepthRule is gqlparser's MaxIntrospectionDepth validation
// rule ("Maximum introspection depth exceeded"), with the same verdicts,
// in time linear in the document: gqlparser's walks a fragment again at
// each spread, so fragments on __Type that each spread the next one twice
// cost 2^levels steps (20 levels: 0.4 s; 30: minutes) before any limit of
// ours runs. Each fragment's deepest path of lists is computed once per
// document.
var introspectionDepthRule = core.Rule{
	Name: rules.MaxIntrospectionDepth.Name,
	RuleFunc: func(observers *core.Events, addError core.AddErrFunc) {
		fragments := map[string]int{} // deepest lists, per document
		observers.OnField(func(_ *core.Walker, field *ast.Field) {
			if field.Name != "__schema" && field.Name != "__type" {
				return
			}
			if introspectionLists(field.SelectionSet, fragments) >= maxIntrospectionLists {
				addError(core.Message("Maximum introspection depth exceeded"), core.At(field.Position))
			}
		})
	},
}

// introspectionLists is the number of the list fields gqlparser counts
// (fields, interfaces, possibleTypes, inputFields) on the path of set that
// has most. fragments memoizes named fragments; one being walked counts 0
// (a cycle, which NoFragmentCycles refuses).
func introspectionLists(set ast.SelectionSet, fragments map[string]int) int {
	deepest := 0
	for _, sel := range set {
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			d = introspectionLists(s.SelectionSet, fragments)
			switch s.Name {
			case "fields", "interfaces", "possibleTypes", "inputFields":
				d++
			}
		case *ast.InlineFragment:
			d = introspectionLists(s.SelectionSet, fragments)
		case *ast.FragmentSpread:
			known, ok := fragments[s.Name]
			if !ok && s.Definition != nil {
				fragments[s.Name] = 0
				known = introspectionLists(s.Definition.SelectionSet, fragments)
				fragments[s.Name] = known
			}
			d = known
		}
		deepest = max(deepest, d)
	}
	return deepest
}

// validationRules are gqlparser's default rules with
// introspectionDepthRule for MaxIntrospectionDepth and
// overlappingFieldsRule for OverlappingFieldsCanBeMerged.
func validationRules() *rules.Rules {
	r := rules.NewDefaultRules()
	r.ReplaceRule(introspectionDepthRule.Name, introspectionDepthRule.RuleFunc)
	r.ReplaceRule(overlappingFieldsRule.Name, overlappingFieldsRule.RuleFunc)
	return r
}

// maxMergeSteps bounds the work of overlappingFieldsRule on one document
// (fields collected, pairs and values compared): a million, some
// milliseconds, a hundred times what GraphiQL's introspection query takes.
// A document past it is refused.
const maxMergeSteps = 1_000_000

// overlappingFieldsRule is the spec's Field Selection Merging
// (FieldsInSetCanMerge; gqlparser's OverlappingFieldsCanBeMerged): the
// fields a selection set answers under one response name must be the same
// field with the same arguments, unless their parents are different object
// types, and return the same shape. gqlparser's compares every pair of
// fields of a name (5,000 __typename, 53 KB of query: 4.8 s) and walks
// fragments again at each spread (fragments that each spread the next one
// twice: 2^levels). This one compares each field of a name with the first
// (an equivalence: same name, arguments and shape), merges the selections
// of the fields of a name into one collection where each fragment is
// counted once, as the executor's CollectFields does, and checks each
// selection set of the document once. Its work is bounded by
// maxMergeSteps.
//
// It differs from gqlparser's on two points, both the spec's: arguments
// compare by their whole value (gqlparser compares lists and objects by
// kind only), and a leaf and a composite type conflict (gqlparser lets
// them through when their parents are different objects).
var overlappingFieldsRule = core.Rule{
	Name: rules.OverlappingFieldsCanBeMergedRule.Name,
	RuleFunc: func(observers *core.Events, addError core.AddErrFunc) {
		newMerger(addError).observe(observers)
	},
}

func newMerger(addError core.AddErrFunc) *merger {
	return &merger{addError: addError, checked: map[*ast.Selection]bool{}, reported: map[string]bool{}}
}

// observe checks the selection sets of the operations, of the fields and
// of the fragments nothing spreads, as the walk meets them. Each collects
// its inline fragments and the fragments it spreads, so their fields are
// checked there and not again on their own (nested inline fragments or a
// chain of fragments would be collected again at each level).
func (m *merger) observe(observers *core.Events) {
	observers.OnOperation(func(w *core.Walker, op *ast.OperationDefinition) { m.within(w, op.SelectionSet) })
	observers.OnField(func(w *core.Walker, f *ast.Field) { m.within(w, f.SelectionSet) })
	observers.OnFragment(func(w *core.Walker, f *ast.FragmentDefinition) {
		if m.learn(w.Document); !m.spread[f.Name] {
			m.within(w, f.SelectionSet)
		}
	})
}

// merger checks the selection sets of one document.
type merger struct {
	schema   *ast.Schema
	addError core.AddErrFunc
	checked  map[*ast.Selection]bool // selection sets checked, by their first selection
	reported map[string]bool         // errors reported, by message and position
	steps    int
	over     bool // maxMergeSteps reached: reported, and nothing more is checked
	// spread holds the fragments the document spreads; cyclic, that they
	// spread each other in a cycle (NoFragmentCycles refuses it, and
	// merging would not end). Both are learnt once.
	spread map[string]bool
	cyclic bool
}

// learn reads, once, which fragments the document spreads and whether in
// a cycle.
func (m *merger) learn(doc *ast.QueryDocument) {
	if m.spread != nil {
		return
	}
	m.spread = map[string]bool{}
	var spreads func(set ast.SelectionSet)
	spreads = func(set ast.SelectionSet) {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				spreads(s.SelectionSet)
			case *ast.InlineFragment:
				spreads(s.SelectionSet)
			case *ast.FragmentSpread:
				m.spread[s.Name] = true
			}
		}
	}
	for _, op := range doc.Operations {
		spreads(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		spreads(f.SelectionSet)
	}
	m.cyclic = hasFragmentCycle(doc)
}

// responseGroup is the fields of one response name in a collection.
type responseGroup struct {
	name   string
	fields []*ast.Field
}

// conflict is why the fields of a response name cannot merge: reason, or
// the conflicts of their subfields.
type conflict struct {
	name   string
	reason string
	sub    []*conflict
	at     *ast.Position
}

func (c *conflict) why(b *strings.Builder) {
	if len(c.sub) == 0 {
		b.WriteString(c.reason)
		return
	}
	for i, s := range c.sub {
		if i > 0 {
			b.WriteString(" and ")
		}
		fmt.Fprintf(b, `subfields "%s" conflict because `, s.name)
		s.why(b)
	}
}

// tick counts a step; false once maxMergeSteps is reached.
func (m *merger) tick() bool {
	if m.over {
		return false
	}
	m.steps++
	if m.steps > maxMergeSteps {
		m.over = true
		m.addError(core.Message("the operation has too many fields to check that they merge"))
		return false
	}
	return true
}

// within checks one selection set of the document, once.
func (m *merger) within(w *core.Walker, set ast.SelectionSet) {
	m.learn(w.Document)
	schema := w.Schema
	if len(set) == 0 || m.over || m.cyclic || m.checked[&set[0]] {
		return
	}
	m.schema = schema
	m.checked[&set[0]] = true
	var groups []*responseGroup
	m.collect(set, &groups, map[string]int{}, map[string]bool{})
	for _, g := range groups {
		if c := m.group(g, false); c != nil {
			var b strings.Builder
			c.why(&b)
			msg := fmt.Sprintf(`Fields "%s" conflict because %s. Use different aliases on the fields to fetch both if this was intentional.`, c.name, b.String())
			key := msg
			if c.at != nil {
				key += fmt.Sprintf("@%d:%d", c.at.Line, c.at.Column)
			}
			if !m.reported[key] {
				m.reported[key] = true
				m.addError(core.Message("%s", msg), core.At(c.at))
			}
		}
	}
}

// collect adds the fields of set to groups, by response name in order,
// with its inline fragments and each named fragment once (visited).
func (m *merger) collect(set ast.SelectionSet, groups *[]*responseGroup, index map[string]int, visited map[string]bool) {
	for _, sel := range set {
		if !m.tick() {
			return
		}
		switch s := sel.(type) {
		case *ast.Field:
			if s.ObjectDefinition == nil {
				continue
			}
			name := s.Alias
			if name == "" {
				name = s.Name
			}
			i, ok := index[name]
			if !ok {
				i = len(*groups)
				index[name] = i
				*groups = append(*groups, &responseGroup{name: name})
			}
			(*groups)[i].fields = append((*groups)[i].fields, s)
		case *ast.InlineFragment:
			m.collect(s.SelectionSet, groups, index, visited)
		case *ast.FragmentSpread:
			if visited[s.Name] || s.Definition == nil {
				continue
			}
			visited[s.Name] = true
			m.collect(s.Definition.SelectionSet, groups, index, visited)
		}
	}
}

// group checks the fields of one response name. exclusive: their parents
// are known to be different objects, so only their shapes must agree.
func (m *merger) group(g *responseGroup, exclusive bool) *conflict {
	if len(g.fields) < 2 {
		return nil
	}
	var buckets [][]*ast.Field
	if !exclusive {
		buckets = m.buckets(g.fields)
		for _, bucket := range buckets {
			a := bucket[0]
			for _, b := range bucket[1:] {
				if !m.tick() {
					return nil
				}
				if a.Name != b.Name {
					return &conflict{name: g.name, at: b.Position, reason: fmt.Sprintf(`"%s" and "%s" are different fields`, a.Name, b.Name)}
				}
				if !m.sameArguments(a.Arguments, b.Arguments) {
					return &conflict{name: g.name, at: b.Position, reason: "they have differing arguments"}
				}
			}
		}
	}
	first := g.fields[0]
	for _, f := range g.fields[1:] {
		if !m.tick() {
			return nil
		}
		if first.Definition != nil && f.Definition != nil && m.typesConflict(first.Definition.Type, f.Definition.Type) {
			return &conflict{name: g.name, at: f.Position, reason: fmt.Sprintf(`they return conflicting types "%s" and "%s"`,
				first.Definition.Type.String(), f.Definition.Type.String())}
		}
	}
	if exclusive || len(buckets) > 1 { // the shapes of their selections
		if c := m.merged(g.name, g.fields, true); c != nil || exclusive {
			return c
		}
	}
	for _, bucket := range buckets { // and, where parents may be one object, all of them
		if c := m.merged(g.name, bucket, false); c != nil {
			return c
		}
	}
	return nil
}

// merged checks the selections of fields as one set, each fragment
// counted once.
func (m *merger) merged(name string, fields []*ast.Field, exclusive bool) *conflict {
	var groups []*responseGroup
	index, visited := map[string]int{}, map[string]bool{}
	for _, f := range fields {
		m.collect(f.SelectionSet, &groups, index, visited)
	}
	var subs []*conflict
	for _, g := range groups {
		if c := m.group(g, exclusive); c != nil {
			subs = append(subs, c)
		}
	}
	if len(subs) == 0 {
		return nil
	}
	return &conflict{name: name, sub: subs, at: fields[len(fields)-1].Position}
}

// buckets splits fields by parent: the fields of each object type, with
// those of interfaces and unions (which may be any of them) in every
// bucket. Fields of different buckets have parents that are different
// objects: they never both answer.
func (m *merger) buckets(fields []*ast.Field) [][]*ast.Field {
	var objects [][]*ast.Field
	byType := map[string]int{}
	var abstract []*ast.Field
	for _, f := range fields {
		if f.ObjectDefinition.Kind != ast.Object || f.Definition == nil {
			abstract = append(abstract, f)
			continue
		}
		i, ok := byType[f.ObjectDefinition.Name]
		if !ok {
			i = len(objects)
			byType[f.ObjectDefinition.Name] = i
			objects = append(objects, nil)
		}
		objects[i] = append(objects[i], f)
	}
	if len(objects) == 0 {
		return [][]*ast.Field{abstract}
	}
	for i := range objects {
		objects[i] = append(objects[i], abstract...)
	}
	return objects
}

// typesConflict tells whether two fields' types differ in shape: in
// lists or non-null, or as different leaf types, or a leaf and a
// composite.
func (m *merger) typesConflict(t1, t2 *ast.Type) bool {
	for {
		if t1.NonNull != t2.NonNull || (t1.Elem == nil) != (t2.Elem == nil) {
			return true
		}
		if t1.Elem == nil {
			break
		}
		t1, t2 = t1.Elem, t2.Elem
	}
	d1, d2 := m.schema.Types[t1.NamedType], m.schema.Types[t2.NamedType]
	if d1 == nil || d2 == nil {
		return false
	}
	leaf1 := d1.Kind == ast.Scalar || d1.Kind == ast.Enum
	leaf2 := d2.Kind == ast.Scalar || d2.Kind == ast.Enum
	return (leaf1 || leaf2) && d1.Name != d2.Name
}

func (m *merger) sameArguments(a, b ast.ArgumentList) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		y := b.ForName(x.Name)
		if y == nil || !m.sameValue(x.Value, y.Value) {
			return false
		}
	}
	return true
}

func (m *merger) sameValue(a, b *ast.Value) bool {
	if a == nil || b == nil {
		return a == b
	}
	if !m.tick() {
		return true
	}
	if a.Kind != b.Kind || a.Raw != b.Raw || len(a.Children) != len(b.Children) {
		return false
	}
	for i, c := range a.Children {
		other := b.Children[i]
		if a.Kind == ast.ObjectValue { // fields in any order
			other = nil
			for _, o := range b.Children {
				if o.Name == c.Name {
					other = o
					break
				}
			}
			if other == nil {
				return false
			}
		}
		if c.Name != other.Name || !m.sameValue(c.Value, other.Value) {
			return false
		}
	}
	return true
}

// hasFragmentCycle tells whether fragments of doc spread each other in a
// cycle, in time linear in doc.
func hasFragmentCycle(doc *ast.QueryDocument) bool {
	const (
		unseen = iota
		walking
		done
	)
	state := map[string]int{}
	var visit func(name string) bool
	var inSet func(set ast.SelectionSet) bool
	inSet = func(set ast.SelectionSet) bool {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				if inSet(s.SelectionSet) {
					return true
				}
			case *ast.InlineFragment:
				if inSet(s.SelectionSet) {
					return true
				}
			case *ast.FragmentSpread:
				if visit(s.Name) {
					return true
				}
			}
		}
		return false
	}
	visit = func(name string) bool {
		switch state[name] {
		case walking:
			return true
		case done:
			return false
		}
		state[name] = walking
		if f := doc.Fragments.ForName(name); f != nil && inSet(f.SelectionSet) {
			return true
		}
		state[name] = done
		return false
	}
	for _, f := range doc.Fragments {
		if visit(f.Name) {
			return true
		}
	}
	return false
}
