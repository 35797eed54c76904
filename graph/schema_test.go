package graph

import (
	"fmt"
	goast "go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/bojanz/currency"
	"github.com/vektah/gqlparser/v2/ast"
)

// citation is a reference to a section of a contract document (a document
// and section number, or a section number in parentheses): a description
// says what a thing means, not where it was specified.
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

// errorAreas names the area of each schema file that declares mutations:
// its payloads' typed errors are <Area>Error, coded by <Area>ErrorCode,
// and its services are those of domain/<package> (and of more, the other
// packages whose services the file's mutations call).
var errorAreas = map[string]struct {
	area, pkg string
	more      []string
}{
	"../schema.graphqls":               {area: "Account", pkg: "account"},
	"schema/cart.graphqls":             {area: "Cart", pkg: "cart"},
	"schema/catalogue_admin.graphqls":  {area: "Catalogue", pkg: "catalogue"},
	"schema/partner_settings.graphqls": {area: "Catalogue", pkg: "catalogue"},
	"schema/gifts.graphqls":            {area: "Gift", pkg: "gifts"},
	"schema/widgets.graphqls":          {area: "Widget", pkg: "widgets"},
	"schema/vouchers.graphqls":         {area: "Voucher", pkg: "vouchers"},
	"schema/media.graphqls":            {area: "Media", pkg: "media"},
	"schema/prototypes.graphqls":       {area: "Prototype", pkg: "prototypes"},
	"schema/network.graphqls":          {area: "Network", pkg: "network"},
	"schema/payment_hub.graphqls":      {area: "PaymentHub", pkg: "payments", more: []string{"mpcart"}},
	"schema/payments.graphqls":         {area: "PaymentHub", pkg: "payments"},
	"schema/payment_requests.graphqls": {area: "PaymentHub", pkg: "payments"},
	"schema/payouts.graphqls":          {area: "PaymentHub", pkg: "payments"},
	"schema/checkout.graphqls":         {area: "Checkout", pkg: "checkout"},
	"schema/ecommerce.graphqls":        {area: "Ecommerce", pkg: "ecommerce"},
	"schema/webhooks.graphqls":         {area: "Webhook", pkg: "webhooks"},
}

// Every mutation's payload answers errors typed by its area
// ([CatalogueError!]!, whose code is a CatalogueErrorCode), and the
// deprecated userErrors ([UserError!]!) that errors replaced.
func TestSchemaMutationPayloadsHaveTypedErrors(t *testing.T) {
	schema := NewExecutableSchema(Config{Resolvers: &Resolver{}}).Schema()
	var bad []string
	for _, f := range schema.Mutation.Fields {
		if strings.HasPrefix(f.Name, "__") {
			continue
		}
		area, ok := errorAreas[f.Position.Src.Name]
		if !ok {
			bad = append(bad, f.Name+": declared in "+f.Position.Src.Name+", which errorAreas does not name")
			continue
		}
		payload := schema.Types[f.Type.Name()]
		if payload == nil || payload.Kind != ast.Object {
			bad = append(bad, f.Name+": "+f.Type.String()+" is not a payload object")
			continue
		}
		errs, old := payload.Fields.ForName("errors"), payload.Fields.ForName("userErrors")
		switch want := "[" + area.area + "Error!]!"; {
		case errs == nil || errs.Type.String() != want:
			bad = append(bad, f.Name+": "+payload.Name+".errors is not "+want)
		case schema.Types[area.area+"Error"].Fields.ForName("code").Type.String() != area.area+"ErrorCode!":
			bad = append(bad, area.area+"Error.code is not "+area.area+"ErrorCode!")
		case old == nil || old.Type.String() != "[UserError!]!" || old.Directives.ForName("deprecated") == nil:
			bad = append(bad, f.Name+": "+payload.Name+".userErrors is not the deprecated [UserError!]!")
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("mutation payloads without typed errors:\n%s", strings.Join(bad, "\n"))
	}
}

// Each area's error code enum holds exactly the codes its services can
// report, read from the domain's sources: those the shared validators of
// package domain use, those of the area's package, and those of the areas
// it imports. A new code in a service fails here until the enum has it.
func TestSchemaErrorCodesAreTheDomains(t *testing.T) {
	codes, shared := validationCodes(t)
	schema := NewExecutableSchema(Config{Resolvers: &Resolver{}}).Schema()
	for _, area := range errorAreas {
		want := map[string]bool{}
		for _, name := range shared {
			want[strings.ToUpper(codes[name])] = true
		}
		var pkgs []string
		for _, p := range append([]string{area.pkg}, area.more...) {
			pkgs = append(pkgs, areaPackages(t, p)...)
		}
		for _, pkg := range pkgs {
			for _, name := range codesUsedIn(t, "../domain/"+pkg, "domain.") {
				if code, ok := codes[name]; ok {
					want[strings.ToUpper(code)] = true
				}
			}
		}
		got := map[string]bool{}
		for _, v := range schema.Types[area.area+"ErrorCode"].EnumValues {
			got[v.Name] = true
		}
		for c := range want {
			if !got[c] {
				t.Errorf("%sErrorCode lacks %s, which domain/%s can report", area.area, c, area.pkg)
			}
		}
		for c := range got {
			if !want[c] {
				t.Errorf("%sErrorCode has %s, which domain/%s never reports", area.area, c, area.pkg)
			}
		}
	}
}

// CurrencyCode is every currency the formatting data knows, and no other:
// go generate ./graph rewrites it when the data changes.
func TestSchemaCurrencyCodesAreTheFormattingData(t *testing.T) {
	schema := NewExecutableSchema(Config{Resolvers: &Resolver{}}).Schema()
	var got []string
	for _, v := range schema.Types["CurrencyCode"].EnumValues {
		got = append(got, v.Name)
	}
	want := currency.GetCurrencyCodes()
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("CurrencyCode has %d values, the data %d: run go generate ./graph", len(got), len(want))
	}
}

// validationCodes reads the validation codes package domain declares (its
// V constants: VMaxLength = "max_length") and the ones its own validators
// use.
func validationCodes(t *testing.T) (codes map[string]string, shared []string) {
	t.Helper()
	codes = map[string]string{}
	for _, file := range parseDir(t, "../domain") {
		for _, decl := range file.Decls {
			gd, ok := decl.(*goast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*goast.ValueSpec)
				for i, name := range vs.Names {
					if lit, ok := valueAt(vs, i).(*goast.BasicLit); ok && strings.HasPrefix(name.Name, "V") && lit.Kind == token.STRING {
						codes[name.Name], _ = strconv.Unquote(lit.Value)
					}
				}
			}
		}
	}
	if len(codes) == 0 {
		t.Fatal("no validation codes found in package domain")
	}
	for _, name := range codesUsedIn(t, "../domain", "") {
		if _, ok := codes[name]; ok {
			shared = append(shared, name)
		}
	}
	return codes, shared
}

func valueAt(vs *goast.ValueSpec, i int) goast.Expr {
	if i < len(vs.Values) {
		return vs.Values[i]
	}
	return nil
}

// codesUsedIn lists the V names the functions of the package in dir refer
// to (as prefix+name: "domain.VInvalid" from an area, "VInvalid" inside
// package domain).
func codesUsedIn(t *testing.T, dir, prefix string) []string {
	t.Helper()
	var out []string
	for _, file := range parseDir(t, dir) {
		for _, decl := range file.Decls {
			fn, ok := decl.(*goast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			goast.Inspect(fn.Body, func(n goast.Node) bool {
				switch n := n.(type) {
				case *goast.SelectorExpr:
					if x, ok := n.X.(*goast.Ident); ok && prefix != "" && x.Name+"." == prefix && strings.HasPrefix(n.Sel.Name, "V") {
						out = append(out, n.Sel.Name)
					}
				case *goast.Ident:
					if prefix == "" && strings.HasPrefix(n.Name, "V") {
						out = append(out, n.Name)
					}
				}
				return true
			})
		}
	}
	return out
}

// areaPackages is pkg and the domain areas it imports, transitively.
func areaPackages(t *testing.T, pkg string) []string {
	t.Helper()
	seen := map[string]bool{}
	var visit func(string)
	visit = func(p string) {
		if seen[p] {
			return
		}
		seen[p] = true
		for _, file := range parseDir(t, "../domain/"+p) {
			for _, imp := range file.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if area, ok := strings.CutPrefix(path, "salesplatform/domain/"); ok && !strings.Contains(area, "/") {
					visit(area)
				}
			}
		}
	}
	visit(pkg)
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	return out
}

// parseDir parses the non-test Go files of dir.
func parseDir(t *testing.T, dir string) []*goast.File {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	var out []*goast.File
	fset := token.NewFileSet()
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
	}
	return out
}
