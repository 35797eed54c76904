package e2e

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"salesplatform/persistence/dbtest"
)

// TestExamples runs the shell examples of README.md and docs/*.md against
// the demo, as a reader would paste them. The conventions:
//
//   - Every ```sh block runs, unless the line before its fence is
//     `<!-- example: skip (why) -->`. The blocks of one file run in order in
//     one bash (`set -e -o pipefail`): a variable one block sets, the next
//     sees.
//   - 127.0.0.1:8000 stands for the test's server, serving a fresh database
//     with `seed demo` loaded. `go run ./cmd/salesplatform ARGS` runs the
//     built binary on that database (DATABASE_URL, DATA_DIR); without a
//     command (serve) it does nothing: the server runs already.
//   - Every curl must answer 2xx, unless the comment right above its
//     command says which status it expects: `(404)` or `→ 404`.
//   - A comment right below a command that opens with `# {` or `# [`,
//     continued by the comment lines after it that start with `#  `, is that
//     command's answer: the body must hold its text, in order, where `…` and
//     `<…>` stand for anything (spaces after `:`, `,`, `{`, `[` and before
//     `}`, `]` ignored; a no-break space is a space).
func TestExamples(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"bash", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			needed(t, "the examples need %s: %v", tool, err)
		}
	}
	root := filepath.Join("..", "..", "..")
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	pages := map[string]*examplePage{}
	var names []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(root, f)
		p, err := parseExamples(string(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(p.script) > 0 {
			pages[name] = p
			names = append(names, name)
		}
	}
	if pages["README.md"] == nil || pages["docs/admin-seed.md"] == nil {
		t.Fatalf("no examples found in README.md or docs/admin-seed.md")
	}

	bin := buildBinary(t)
	dsn := dbtest.NewDSN(t)
	dataDir := t.TempDir()
	SeedDemo(t, dsn, dataDir)
	srv := Serve(t, dsn, "--data-dir", dataDir)
	host := strings.TrimPrefix(srv.URL, "http://")

	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			runExamples(t, pages[name], bin, host, map[string]string{
				"DATABASE_URL": dsn, "DATA_DIR": dataDir, "REDIS_URL": ""})
		})
	}
}

// examplePrelude is prepended to each page's script: curl records each
// call's line, status and body; go runs the built binary.
const examplePrelude = `set -e -o pipefail
__line=0 __want=2xx
__example() { __line=$1 __want=${2:-2xx}; }
trap 'echo "examples: stopped at the command of line $__line" >&2' ERR
curl() {
	local body="$EXAMPLES_DIR/$__line.body" status
	: > "$body.part"
	status=$(command curl -sS -o "$body.part" -w '%{http_code}' "$@") || status=000
	cat "$body.part"
	cat "$body.part" >> "$body"
	rm -f "$body.part"
	echo "$__line $status $__want" >> "$EXAMPLES_DIR/calls"
}
go() {
	if [ "${1-} ${2-}" != "run ./cmd/salesplatform" ]; then
		echo "examples: only 'go run ./cmd/salesplatform' runs here, not 'go $*'" >&2
		return 2
	fi
	shift 2
	case "${1-serve}" in
	serve | -*) return 0 ;; # the test serves the demo already
	esac
	"$SALESPLATFORM" "$@"
}
`

// examplePage is a page's examples as one script, with what to check.
type examplePage struct {
	script []string       // the blocks' lines, with __example markers
	calls  map[int]bool   // lines of the commands that call curl
	answer map[int]string // the answer shown below a command, by its line
}

var (
	exampleSkip   = regexp.MustCompile(`^<!-- example: skip \(.+\) -->$`)
	exampleStatus = regexp.MustCompile(`\(([1-5][0-9][0-9])\)|→ ?([1-5][0-9][0-9])\b`)
)

// parseExamples reads the ```sh blocks of a Markdown page into a script
// for bash in which each command is preceded by `__example LINE [STATUS]`,
// LINE its line in the page.
func parseExamples(page string) (*examplePage, error) {
	p := &examplePage{calls: map[int]bool{}, answer: map[int]string{}}
	lines := strings.Split(page, "\n")
	for i := 0; i < len(lines); i++ {
		trimmed := strings.TrimSpace(lines[i])
		if strings.HasPrefix(trimmed, "<!-- example") && !exampleSkip.MatchString(trimmed) {
			return nil, fmt.Errorf("line %d: %q is not `<!-- example: skip (why) -->`", i+1, trimmed)
		}
		if trimmed != "```sh" {
			continue
		}
		indent := lines[i][:strings.Index(lines[i], "```")]
		skip := false
		for j := i - 1; j >= 0; j-- {
			if prev := strings.TrimSpace(lines[j]); prev != "" {
				skip = exampleSkip.MatchString(prev)
				break
			}
		}
		end := i + 1
		for end < len(lines) && strings.TrimSpace(lines[end]) != "```" {
			end++
		}
		if end == len(lines) {
			return nil, fmt.Errorf("line %d: the block does not end", i+1)
		}
		if !skip {
			block := make([]string, 0, end-i-1)
			for _, l := range lines[i+1 : end] {
				block = append(block, strings.TrimPrefix(l, indent))
			}
			p.addBlock(block, i+2)
		}
		i = end
	}
	return p, nil
}

// addBlock adds a block whose first line is the page's line first.
func (p *examplePage) addBlock(block []string, first int) {
	var quote byte // the quote open at the end of the line, if any
	continued := false
	var comments []string
	last, answerOf, afterCommand := 0, 0, false
	for i, line := range block {
		n := first + i
		trimmed := strings.TrimSpace(line)
		if quote != 0 || continued {
			p.script = append(p.script, line)
			if strings.Contains(line, "curl ") {
				p.calls[last] = true
			}
			quote, continued = scanShellLine(line, quote)
			continue
		}
		switch {
		case trimmed == "":
			comments, answerOf, afterCommand = nil, 0, false
		case strings.HasPrefix(trimmed, "#"):
			text := strings.TrimPrefix(trimmed, "#")
			switch {
			case answerOf != 0 && strings.HasPrefix(text, "  "):
				p.answer[answerOf] += strings.TrimSpace(text)
			case afterCommand && (strings.HasPrefix(text, " {") || strings.HasPrefix(text, " [")):
				answerOf = last
				p.answer[answerOf] = strings.TrimSpace(text)
			default:
				answerOf = 0
				comments = append(comments, text)
			}
			afterCommand = false
		default:
			want := ""
			for _, c := range comments {
				if m := exampleStatus.FindStringSubmatch(c); m != nil {
					want = m[1] + m[2]
				}
			}
			p.script = append(p.script, fmt.Sprintf("__example %d %s", n, want))
			last, comments, answerOf, afterCommand = n, nil, 0, true
			if strings.Contains(line, "curl ") {
				p.calls[last] = true
			}
			quote, continued = scanShellLine(line, quote)
		}
		p.script = append(p.script, line)
	}
}

// scanShellLine follows bash's quotes over a line that starts with quote
// open (0 for none) and says which is open at its end, and whether the
// line continues on the next (a backslash, a pipe or && at its end,
// outside quotes).
func scanShellLine(line string, quote byte) (byte, bool) {
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case quote == '"':
			if c == '\\' {
				i++
			} else if c == '"' {
				quote = 0
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return 0, false
		}
	}
	end := strings.TrimRight(line, " \t")
	return quote, quote == 0 && (strings.HasSuffix(end, "\\") || strings.HasSuffix(end, "|") || strings.HasSuffix(end, "&&"))
}

var (
	answerWildcard = regexp.MustCompile(`…|<[^<>]*>`)
	answerSpaceIn  = regexp.MustCompile(`([:,\[{])\s+`)
	answerSpaceOut = regexp.MustCompile(`\s+([\]}])`)
)

// normalizeAnswer drops the spaces around JSON's punctuation, and makes
// the no-break spaces of formatted amounts plain ones.
func normalizeAnswer(s string) string {
	s = strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(s)
	return answerSpaceOut.ReplaceAllString(answerSpaceIn.ReplaceAllString(s, "$1"), "$1")
}

// runExamples runs a page's script against the server at host and checks
// every call's status and every answer shown.
func runExamples(t *testing.T, p *examplePage, bin, host string, env map[string]string) {
	dir := t.TempDir()
	script := strings.ReplaceAll(examplePrelude+strings.Join(p.script, "\n")+"\n", "127.0.0.1:8000", host)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "EXAMPLES_DIR="+dir, "SALESPLATFORM="+bin)
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("the examples failed: %v\n%s", err, out)
	}

	called := map[int]bool{}
	if f, err := os.Open(filepath.Join(dir, "calls")); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var line int
			var status, want string
			if _, err := fmt.Sscan(sc.Text(), &line, &status, &want); err != nil {
				t.Fatalf("calls: %q: %v", sc.Text(), err)
			}
			called[line] = true
			if status == want || (want == "2xx" && len(status) == 3 && status[0] == '2') {
				continue
			}
			body, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%d.body", line)))
			t.Errorf("line %d: curl answered %s, want %s: %.600s", line, status, want, body)
		}
		f.Close()
	}
	for line := range p.calls {
		if !called[line] && err == nil {
			t.Errorf("line %d: its curl never ran", line)
		}
	}
	for line, want := range p.answer {
		b, readErr := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%d.body", line)))
		if readErr != nil {
			t.Errorf("line %d: no answer to check against %s", line, want)
			continue
		}
		body, at := normalizeAnswer(string(b)), 0
		want = strings.ReplaceAll(want, "127.0.0.1:8000", host)
		for _, frag := range answerWildcard.Split(normalizeAnswer(want), -1) {
			i := strings.Index(body[at:], frag)
			if i < 0 {
				t.Errorf("line %d: the answer lacks %q where the page shows %s;\ngot %.2000s", line, frag, want, b)
				break
			}
			at += i + len(frag)
		}
	}
}

// The conventions TestExamples reads: markers before commands only (not
// inside a quoted body or after a continued line), the status a comment
// names, the answer below a command, skipped blocks.
func TestParseExamples(t *testing.T) {
	t.Parallel()
	page := strings.Join([]string{
		"Text.",
		"",
		"```sh",
		"# Create it (201).",
		"ID=$(curl -s -X POST http://127.0.0.1:8000/x/ \\",
		"     -d '{\"a\": 1,",
		"          \"b\": \"# not a comment\"}' |",
		"     sed 's/x/y/')",
		"# {\"id\":\"…\",",
		"#  \"b\":2}",
		"",
		"# Refused → 404; this one has no status.",
		"curl -s http://127.0.0.1:8000/x/$ID/",
		"curl -s http://127.0.0.1:8000/y/",
		"```",
		"",
		"<!-- example: skip (needs Docker) -->",
		"```sh",
		"docker compose up",
		"```",
	}, "\n")
	p, err := parseExamples(page)
	if err != nil {
		t.Fatal(err)
	}
	var markers []string
	for _, l := range p.script {
		if strings.HasPrefix(l, "__example") || strings.HasPrefix(l, "docker") {
			markers = append(markers, l)
		}
	}
	if got := strings.Join(markers, "|"); got != "__example 5 201|__example 13 404|__example 14 " {
		t.Errorf("markers %q", got)
	}
	if len(p.answer) != 1 || p.answer[5] != `{"id":"…","b":2}` {
		t.Errorf("answers %v", p.answer)
	}
	if len(p.calls) != 3 || !p.calls[5] || !p.calls[13] || !p.calls[14] {
		t.Errorf("calls %v", p.calls)
	}
	if _, err := parseExamples("<!-- example: skip -->\n```sh\nls\n```\n"); err == nil {
		t.Error("a skip without its reason is taken")
	}
}
