package graph

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

// citation is a reference to a section of a contract document ("Document
// 3, 2.3", "(2.12)"): a description says what a thing means, not where it
// was specified.
var citation = regexp.MustCompile(`Document \d|\(\d+\.\d+[^)]*\)`)

// schemaDescriptions calls visit with every description of the schema's
// own types, fields, arguments, input fields and enum values (introspection
// and built-in types left out), and where it is.
func schemaDescriptions(visit func(where, desc string)) {
	schema := NewExecutableSchema(Config{Resolvers: &Resolver{}}).Schema()
	for name, def := range schema.Types {
		if strings.HasPrefix(name, "__") || def.BuiltIn {
			continue
		}
		visit(name, def.Description)
		for _, f := range def.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			where := name + "." + f.Name
			visit(where, f.Description)
			for _, a := range f.Arguments {
				visit(where+"("+a.Name+":)", a.Description)
			}
		}
		if def.Kind == ast.Enum {
			for _, v := range def.EnumValues {
				visit(name+"."+v.Name, v.Description)
			}
		}
	}
}

// No description cites a section of a contract document.
func TestSchemaDescriptionsCiteNoDocument(t *testing.T) {
	var cited []string
	schemaDescriptions(func(where, desc string) {
		if citation.MatchString(desc) {
			cited = append(cited, where+": "+desc)
		}
	})
	sort.Strings(cited)
	if len(cited) > 0 {
		t.Errorf("%d descriptions cite a document's section:\n%s", len(cited), strings.Join(cited, "\n"))
	}
}

// The Node interface, node and nodes, and every Node type's id and
// legacyId say what they mean.
func TestSchemaNodeDescriptions(t *testing.T) {
	schema := NewExecutableSchema(Config{Resolvers: &Resolver{}}).Schema()
	var missing []string
	need := func(where, desc string) {
		if strings.TrimSpace(desc) == "" {
			missing = append(missing, where)
		}
	}
	node := schema.Types["Node"]
	need("Node", node.Description)
	need("Node.id", node.Fields.ForName("id").Description)
	for _, name := range []string{"node", "nodes"} {
		f := schema.Query.Fields.ForName(name)
		need("Query."+name, f.Description)
		for _, a := range f.Arguments {
			need("Query."+name+"("+a.Name+":)", a.Description)
		}
	}
	for _, def := range schema.GetPossibleTypes(node) {
		need(def.Name, def.Description)
		need(def.Name+".id", def.Fields.ForName("id").Description)
		need(def.Name+".legacyId", def.Fields.ForName("legacyId").Description)
	}
	if len(missing) > 0 {
		t.Errorf("no description: %s", strings.Join(missing, ", "))
	}
}
