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
//
// Files: this one holds the limits' bounds, DepthLimit and DocumentLimit;
// complexity.go ComplexityLimit; validation_rules.go the rule set and the
// introspection depth rule; overlapping_fields.go the field merging rule.

import (
	"context"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
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
