package graph

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

	"salesplatform/domain"
)

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
