package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"salesplatform/persistence/dbtest"
)

// relayStoreDir is the relay-runtime check (.ci/relay-store: check.mjs,
// relay-runtime pinned, installed by `npm ci --prefix .ci/relay-store`).
var relayStoreDir = filepath.Join("..", "..", "..", ".ci", "relay-store")

// A Relay client keeps what the graph answers in one store keyed on id
// alone: a universe and a theme that are both record 1 in the demo must
// stay two records there, each query reading back its own answer
// (check.mjs normalizes the two answers with relay-runtime and compares).
// With record numbers in id, the universe read back the theme's name.
func TestGraphRelayStoreKeepsTypesApart(t *testing.T) {
	t.Parallel()
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		needed(t, "node is not installed")
	}
	if _, err := os.Stat(filepath.Join(relayStoreDir, "node_modules", "relay-runtime", "package.json")); err != nil {
		needed(t, "relay-runtime is not installed: npm ci --prefix .ci/relay-store")
	}

	dsn := dbtest.NewDSN(t)
	dataDir := t.TempDir()
	SeedDemo(t, dsn, dataDir)
	srv := Serve(t, dsn, "--data-dir", dataDir)

	// The two queries check.mjs holds as Relay requests, as a client on
	// the château's site sends them.
	answers := t.TempDir()
	for _, q := range []struct{ file, query, field string }{
		{"universes.json", `query RelayStoreUniversesQuery { universes { id legacyId name { fr } } }`, "universes"},
		{"themes.json", `query RelayStoreThemesQuery { themes { id legacyId name { fr } } }`, "themes"},
	} {
		body, _ := json.Marshal(map[string]string{"query": q.query})
		resp := Do(t, "POST", srv.URL+"/graphql", string(body), "X-Partner-Domain", "chateau.localhost")
		if resp.Status != 200 {
			t.Fatalf("%s: status %d: %s", q.field, resp.Status, resp.Body)
		}
		var answer struct {
			Data   map[string][]struct{ ID, LegacyID string }
			Errors json.RawMessage
		}
		if err := json.Unmarshal([]byte(resp.Body), &answer); err != nil || answer.Errors != nil {
			t.Fatalf("%s: %v %s", q.field, err, resp.Body)
		}
		// The collision the check is about: record 1 of both types.
		one := ""
		for _, r := range answer.Data[q.field] {
			if r.LegacyID == "1" {
				one = r.ID
			}
		}
		if one == "" {
			t.Fatalf("%s: no record 1 in the demo's answer, nothing collides: %s", q.field, resp.Body)
		}
		// No lookup reads one alone: node(id:) is null, NOT_FOUND.
		body, _ = json.Marshal(map[string]any{"query": `query($id: ID!) { node(id: $id) { id } }`, "variables": map[string]string{"id": one}})
		node := Do(t, "POST", srv.URL+"/graphql", string(body), "X-Partner-Domain", "chateau.localhost")
		if !strings.Contains(node.Body, `"node":null`) || !strings.Contains(node.Body, `"NOT_FOUND"`) {
			t.Errorf("node(id: %s) = %s, want null with NOT_FOUND", one, node.Body)
		}
		if err := os.WriteFile(filepath.Join(answers, q.file), []byte(resp.Body), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	// A universe alone is read back as its UniverseRecord, for whoever
	// reads the catalogue.
	body, _ := json.Marshal(map[string]any{"query": `query($id: ID!) { node(id: $id) { id ... on UniverseRecord { legacyId name { fr } } } }`,
		"variables": map[string]string{"id": globalID("UniverseRecord", 1)}})
	resp := Do(t, "POST", srv.URL+"/graphql", string(body), "X-Partner-Domain", "chateau.localhost")
	WantJSON(t, []byte(resp.Body), `{"data": {"node": {"id": "`+globalID("UniverseRecord", 1)+`", "legacyId": "1",
		"name": {"fr": "Culture & patrimoine"}}}}`)

	cmd := exec.Command(nodeBin, "check.mjs", answers)
	cmd.Dir = relayStoreDir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("relay-runtime store check: %v\n%s", err, out)
	}
	if !strings.HasPrefix(string(out), "ok: ") {
		t.Fatalf("relay-runtime store check said:\n%s", out)
	}
	t.Logf("%s", out)
}
