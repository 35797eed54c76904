package domain_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// allowedImports is the dependency graph of the domain: for each package
// below domain/ ("" is the core), the packages of this module its code may
// import. Areas build on the core and on a few other areas; nothing in the
// domain imports graph, rest, persistence or cmd. A new area adds its line
// (docs/ARCHITECTURE.md draws the same graph).
var allowedImports = map[string][]string{
	"":                      {"l10n"},
	"l10n":                  {},
	"l10n/internal/cldrgen": {},
	"account":               {""},
	"cart":                  {""},
	"ecommerce":             {""},
	"catalogue":             {"", "l10n"},
	"gifts":                 {"", "l10n"},
	"media":                 {""},
	"widgets":               {""},
	"vouchers":              {"", "catalogue", "gifts"},
	"prototypes":            {"", "catalogue", "vouchers"},
	"network":               {"", "idempotency", "notify", "webhooks"},
	"payments":              {"", "idempotency", "l10n", "network", "webhooks"},
	"notify":                {"", "l10n"},
	"mpcart":                {"", "idempotency"},
	"checkout":              {"", "cart", "ecommerce", "l10n", "network", "notify", "payments", "webhooks"},
	"webhooks":              {"", "notify"},
	// Not an area: the idempotency keys of the operations that create or
	// move value (network, payments).
	"idempotency": {""},
	// Not an area: the services of every area, handed to both surfaces.
	"services": {"account", "cart", "catalogue", "gifts", "media", "widgets", "vouchers", "prototypes", "network", "mpcart", "payments", "ecommerce", "checkout", "webhooks"},
}

const module = "salesplatform/"

// TestImports fails when a file of the domain imports a package its area
// may not: graph, rest, persistence or cmd from anywhere in the domain, or
// an area outside its line of allowedImports. Tests may also use the test
// helpers of persistence (dbtest) and set up records of any area.
func TestImports(t *testing.T) {
	fset := token.NewFileSet()
	seen := map[string]bool{}
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(p))
		if pkg == "." {
			pkg = ""
		}
		seen[pkg] = true
		allowed, known := allowedImports[pkg]
		if !known {
			t.Errorf("%s: package domain/%s has no line in allowedImports", p, pkg)
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		test := strings.HasSuffix(p, "_test.go")
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(ip, module) {
				continue
			}
			switch rel := strings.TrimPrefix(ip, module); {
			case test && (rel == "persistence" || strings.HasPrefix(rel, "persistence/")):
			case rel == "domain":
				if !slices.Contains(allowed, "") {
					t.Errorf("%s imports the domain core, which domain/%s may not", p, pkg)
				}
			case strings.HasPrefix(rel, "domain/"):
				area := strings.TrimPrefix(rel, "domain/")
				if area != pkg && !slices.Contains(allowed, area) && !test {
					t.Errorf("%s imports domain/%s, which domain/%s may not", p, area, pkg)
				}
			default:
				t.Errorf("%s imports %s: the domain imports no other layer", p, ip)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range allowedImports {
		if !seen[pkg] {
			t.Errorf("allowedImports names domain/%s, which does not exist", pkg)
		}
	}
}
