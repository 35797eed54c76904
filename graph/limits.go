package graph

// Request limits, checked after validation and before anything runs.
//
// Depth: an operation whose fields nest deeper than maxDepth is refused with
// QUERY_TOO_DEEP. Complexity: each field costs 1 plus its selection, and a
// connection multiplies its selection by its page size (first, 20 when
// absent, at most 100), so the cost bounds the number of values an answer
// can hold; an operation over maxComplexity is refused with gqlgen's
// COMPLEXITY_LIMIT_EXCEEDED.

import (
	"context"
	"encoding/json"
	"math"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

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
)

// CodeQueryTooDeep is the extensions.code of an operation deeper than the
// depth limit.
const CodeQueryTooDeep = "QUERY_TOO_DEEP"

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

// connectionCost is the complexity of a connection field: its selection
// once per item of the page it asks for.
func connectionCost(child int, first *int) int {
	n := domain.DefaultPageSize
	if first != nil {
		n = min(max(*first, 1), domain.MaxPageSize)
	}
	return 1 + n*child
}

// connectionSchema is the executable schema with one complexity rule for
// every connection: a field whose type is a ...Connection costs
// connectionCost by its first argument. One rule, found from the schema,
// so that no connection (nor one added later) goes uncounted.
type connectionSchema struct{ graphql.ExecutableSchema }

// Complexity implements graphql.ExecutableSchema.
func (s connectionSchema) Complexity(ctx context.Context, typeName, field string, child int, args map[string]any) (int, bool) {
	if def := s.Schema().Types[typeName]; def != nil {
		if f := def.Fields.ForName(field); f != nil && strings.HasSuffix(f.Type.Name(), "Connection") {
			return connectionCost(child, intArg(args["first"])), true
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
		n = int64(x)
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
