package graph

import (
	"fmt"
	"os"
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

// Every type, field, argument, input field and enum value of the schema
// (introspection and built-in scalars left out) has a description that
// says what it means for a client. With SCHEMA_DUMP_UNDESCRIBED set, the
// test also logs the undescribed elements (go test -run
// TestSchemaEveryElementDescribed -v ./graph/).
func TestSchemaEveryElementDescribed(t *testing.T) {
	var missing []string
	schemaDescriptions(func(where, desc string) {
		if strings.TrimSpace(desc) == "" {
			missing = append(missing, where)
		}
	})
	sort.Strings(missing)
	if os.Getenv("SCHEMA_DUMP_UNDESCRIBED") != "" {
		var b strings.Builder
		for _, m := range missing {
			fmt.Fprintf(&b, "\t%q: true,\n", m)
		}
		t.Logf("%d undescribed:\n%s", len(missing), b.String())
	}
	if len(missing) > 0 {
		t.Errorf("%d schema elements have no description:\n%s", len(missing), strings.Join(missing, "\n"))
	}
}

// mutationsWithoutUserErrors lists the mutations whose payload has no
// userErrors field, because they return their object directly. None does
// today: add one here only with the reason it cannot report typed errors.
var mutationsWithoutUserErrors = map[string]bool{}

// Every mutation's payload type carries typed errors in a userErrors field
// of type [UserError!]!.
func TestSchemaMutationPayloadsHaveUserErrors(t *testing.T) {
	schema := NewExecutableSchema(Config{Resolvers: &Resolver{}}).Schema()
	var bad []string
	for _, f := range schema.Mutation.Fields {
		if strings.HasPrefix(f.Name, "__") {
			continue
		}
		payload := schema.Types[f.Type.Name()]
		var userErrors *ast.FieldDefinition
		if payload != nil && payload.Kind == ast.Object {
			userErrors = payload.Fields.ForName("userErrors")
		}
		switch {
		case userErrors == nil:
			if !mutationsWithoutUserErrors[f.Name] {
				bad = append(bad, f.Name+": "+f.Type.String()+" has no userErrors")
			}
		case userErrors.Type.String() != "[UserError!]!":
			bad = append(bad, f.Name+": "+payload.Name+".userErrors is "+userErrors.Type.String()+", not [UserError!]!")
		case mutationsWithoutUserErrors[f.Name]:
			bad = append(bad, f.Name+" now has userErrors: remove it from mutationsWithoutUserErrors")
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("mutation payloads without userErrors:\n%s", strings.Join(bad, "\n"))
	}
}
