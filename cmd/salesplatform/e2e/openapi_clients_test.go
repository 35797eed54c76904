package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	// The generated Go client's runtime: the client is generated at test
	// time only, so this import keeps the pinned module in go.mod.
	_ "github.com/oapi-codegen/runtime"

	"salesplatform/cmd/salesplatform/demo"
	"salesplatform/persistence/dbtest"
)

// TestGeneratedClients generates a Go client from rest/openapi/openapi.yaml
// with oapi-codegen (pinned in go.mod) into a package of this module, builds
// it with testdata/apiclientcheck, and runs it against a server with the
// demo dataset: the client's calls must decode the real answers into the
// documented types, and strictly (no field the document lacks). The answers
// are written to $OPENAPI_ANSWERS_DIR when set, where .ci/run's TypeScript
// check (.ci/openapi-typescript) assigns them to the types openapi-typescript
// generates.
func TestGeneratedClients(t *testing.T) {
	t.Parallel()
	data, err := demo.Data()
	if err != nil {
		t.Fatal(err)
	}
	// A directory starting with "_" is a package of the module that
	// ./... patterns leave out, should one be left behind.
	pkg, err := os.MkdirTemp(".", "_apiclient-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(pkg) })
	run := func(name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
	}
	check, err := os.ReadFile(filepath.Join("testdata", "apiclientcheck", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "main.go"), check, 0o644); err != nil {
		t.Fatal(err)
	}
	run("go", "tool", "oapi-codegen", "-generate", "types,client", "-package", "main",
		"-o", filepath.Join(pkg, "client.gen.go"), filepath.Join("..", "..", "..", "rest", "openapi", "openapi.yaml"))
	bin := filepath.Join(t.TempDir(), "apiclientcheck")
	run("go", "build", "-o", bin, "./"+filepath.ToSlash(pkg))

	dsn := dbtest.NewDSN(t)
	dataDir := t.TempDir()
	tokens := SeedDemo(t, dsn, dataDir)
	srv := Serve(t, dsn, "--data-dir", dataDir)
	answers := os.Getenv("OPENAPI_ANSWERS_DIR")
	if answers == "" {
		answers = t.TempDir()
	} else if err := os.MkdirAll(answers, 0o755); err != nil {
		t.Fatal(err)
	}
	var sites []string
	for _, p := range data.Partners {
		if p.Domain != "" {
			sites = append(sites, p.Domain)
		}
	}
	if len(sites) == 0 || data.Partners[0].Widgets.Key == "" {
		t.Fatal("the demo has no partner site or widget key")
	}
	run(bin, srv.URL, answers, tokens[data.Staff.Username], strings.Join(sites, ","), data.Partners[0].Widgets.Key)
	for _, name := range []string{"partner_page", "partner", "vouchers_product_information", "widgets", "box_page",
		"box_detail", "payment_page", "payment"} {
		if _, err := os.Stat(filepath.Join(answers, name+".json")); err != nil {
			t.Errorf("answer %s not recorded: %v", name, err)
		}
	}
}
