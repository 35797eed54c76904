package graph

import (
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

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
