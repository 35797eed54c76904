package e2e

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// outsideCitation is a pointer out of the repository: a path into the
// contract documents the service was built from, or a section number of
// one ("Document 3, 2.3", "(part 2.12)", "(4.5)"). The repository carries
// its own contract (rest/openapi/openapi.yaml, the schema) and says what a
// thing is, not where another text specified it.
var outsideCitation = regexp.MustCompile(`\.\./shared|shared/spec|ROUTES\.md|Document [0-9]|\((?:parts? )?[0-9]+\.[0-9]+(?:[,–-] ?[0-9]+\.[0-9]+)*\)|parts? [0-9]+\.[0-9]+`)

// The README, the docs, the code's comments, the schema, the migrations
// and the OpenAPI document cite nothing outside the repository.
func TestNoCitationOfOutsideDocuments(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	skip := map[string]bool{".git": true, "node_modules": true, "assets": true}
	texts := map[string]bool{".md": true, ".go": true, ".graphqls": true, ".sql": true, ".yaml": true, ".yml": true, ".html": true}
	self, _ := filepath.Abs("docs_test.go")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skip[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if abs, _ := filepath.Abs(path); abs == self || !texts[filepath.Ext(path)] || strings.HasSuffix(path, "_gen.go") || strings.HasSuffix(path, "generated.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := outsideCitation.FindString(line); m != "" {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d cites %q outside the repository", rel, i+1, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
