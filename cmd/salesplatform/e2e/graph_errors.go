package e2e

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"salesplatform/graph"
)

// graphSchema is the graph's schema, as the server serves it.
var graphSchema = sync.OnceValue(func() *ast.Schema {
	return graph.NewExecutableSchema(graph.Config{}).Schema()
})

// CheckPayloadErrors fails tb unless the typed errors (errors) of every
// mutation payload in a response's data name the input as sent: each
// field path starts with an argument of the mutation and goes through its
// input object's own field names and list indexes. Where the operation
// also selects the deprecated userErrors, both must list the same errors,
// the typed code being the upper-case REST code.
func CheckPayloadErrors(tb testing.TB, query string, data json.RawMessage) {
	tb.Helper()
	doc, errs := gqlparser.LoadQuery(graphSchema(), query)
	if errs != nil || len(doc.Operations) != 1 || doc.Operations[0].Operation != ast.Mutation {
		return // not one mutation: nothing to check
	}
	var payloads map[string]struct {
		Errors     []map[string]any `json:"errors"`
		UserErrors []map[string]any `json:"userErrors"`
	}
	if err := json.Unmarshal(data, &payloads); err != nil {
		return
	}
	for _, sel := range doc.Operations[0].SelectionSet {
		f, ok := sel.(*ast.Field)
		if !ok {
			continue
		}
		p := payloads[f.Alias]
		for _, e := range p.Errors {
			if field, ok := e["field"].([]any); ok {
				if err := resolveInputPath(f.Definition, field); err != nil {
					tb.Errorf("%s: errors.field %v does not name the input as sent: %v", f.Name, field, err)
				}
			}
		}
		if p.Errors == nil || p.UserErrors == nil {
			continue
		}
		if len(p.Errors) != len(p.UserErrors) {
			tb.Errorf("%s: %d errors but %d userErrors", f.Name, len(p.Errors), len(p.UserErrors))
			continue
		}
		for i, e := range p.Errors {
			u := p.UserErrors[i]
			if m, ok := u["message"]; ok && e["message"] != nil && m != e["message"] {
				tb.Errorf("%s: errors[%d].message %q, userErrors's %q", f.Name, i, e["message"], m)
			}
			if c, ok := u["code"].(string); ok && e["code"] != nil && strings.ToUpper(c) != e["code"] {
				tb.Errorf("%s: errors[%d].code %v, userErrors's %q", f.Name, i, e["code"], c)
			}
		}
	}
}

// checkGraphAnswer is CheckPayloadErrors for a JSON GraphQL request body
// and its answer.
func checkGraphAnswer(tb testing.TB, request, answer []byte) {
	tb.Helper()
	var req struct {
		Query string `json:"query"`
	}
	var res struct {
		Data json.RawMessage `json:"data"`
	}
	if json.Unmarshal(request, &req) != nil || json.Unmarshal(answer, &res) != nil || req.Query == "" {
		return
	}
	CheckPayloadErrors(tb, req.Query, res.Data)
}

// resolveInputPath walks path through the arguments of the field def.
func resolveInputPath(def *ast.FieldDefinition, path []any) error {
	if len(path) == 0 {
		return fmt.Errorf("empty path")
	}
	name, _ := path[0].(string)
	arg := def.Arguments.ForName(name)
	if arg == nil {
		return fmt.Errorf("%q is not an argument of %s", name, def.Name)
	}
	typ := arg.Type
	for _, p := range path[1:] {
		seg, _ := p.(string)
		if typ.Elem != nil {
			if _, err := strconv.Atoi(seg); err != nil {
				return fmt.Errorf("%q: a list needs an index", seg)
			}
			typ = typ.Elem
			continue
		}
		in := graphSchema().Types[typ.NamedType]
		if in == nil || in.Kind != ast.InputObject {
			return fmt.Errorf("%q: %s has no fields", seg, typ.NamedType)
		}
		field := in.Fields.ForName(seg)
		if field == nil {
			return fmt.Errorf("%q is not a field of %s", seg, in.Name)
		}
		typ = field.Type
	}
	return nil
}
