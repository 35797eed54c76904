package graph

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A NUL, bytes that are not UTF-8 or an escaped surrogate in a variable
// (at any depth) or a string literal is BAD_USER_INPUT before anything
// runs: the test graph has no services, so an operation that ran would
// panic (INTERNAL_SERVER_ERROR), as it did when PostgreSQL refused the
// NUL of recordNetworkVoucherUsage's code.
func TestTextInputs(t *testing.T) {
	g := newTestGraph()
	const use = `mutation%s { recordNetworkVoucherUsage(input: %s) { usage { id } } }`
	input := func(code string) string {
		return `{code: ` + code + `, partnerSourceId: "1", creationDate: "2024-01-01"}`
	}
	for _, c := range []struct {
		name, query, variables string
		status                 int
		message                string
		path                   string
	}{
		{"literal NUL", sprintf(use, "", input(`"DEMO-NV-PAID\u0000"`)), "", 200, "Null characters are not allowed.", ""},
		{"literal lone surrogate", sprintf(use, "", input(`"\ud800"`)), "", 200, msgSurrogateEscape, ""},
		{"literal surrogate pair", sprintf(use, "", input(`"\uD83D\uDE00"`)), "", 200, msgSurrogateEscape, ""},
		{"literal in a fragment's list", `mutation { ...f } fragment f on Mutation { createEvent(input: {name: [{language: EN, text: "a"}], images: ["a", "\u0000"]}) { event { id } } }`, "", 200, "Null characters are not allowed.", ""},
		{"literal in a list's object", `mutation { createEvent(input: {name: [{language: EN, text: "a\u0000"}]}) { event { id } } }`, "", 200, "Null characters are not allowed.", ""},
		{"variable NUL", sprintf(use, "($c: String!)", input(`$c`)), `{"c": "\u0000"}`, 200, "Null characters are not allowed.", "variable.c"},
		{"variable input NUL", sprintf(use, "($in: RecordNetworkVoucherUsageInput!)", "$in"),
			`{"in": {"code": "DEMO-NV-PAID\u0000", "partnerSourceId": "1", "creationDate": "2024-01-01"}}`, 200, "Null characters are not allowed.", "variable.in.code"},
		{"variable lone surrogate", sprintf(use, "($c: String!)", input(`$c`)), `{"c": "\ud800"}`, 400, "the request is not text: Enter text in valid UTF-8.", ""},
		{"variable low surrogate", sprintf(use, "($c: String!)", input(`$c`)), `{"c": "a\udfff"}`, 400, "the request is not text: Enter text in valid UTF-8.", ""},
		{"variable 0xFF", sprintf(use, "($c: String!)", input(`$c`)), "{\"c\": \"\xff\"}", 400, "the request is not text: Enter text in valid UTF-8.", ""},
		{"variable overlong NUL", sprintf(use, "($c: String!)", input(`$c`)), "{\"c\": \"\xc0\x80\"}", 400, "the request is not text: Enter text in valid UTF-8.", ""},
		{"variable UTF-8 surrogate", sprintf(use, "($c: String!)", input(`$c`)), "{\"c\": \"\xed\xa0\x80\"}", 400, "the request is not text: Enter text in valid UTF-8.", ""},
	} {
		a := g.ask(t, c.query, c.variables)
		path := []string{}
		for _, e := range a.Errors {
			for _, p := range e.Path {
				path = append(path, fmt.Sprint(p))
			}
		}
		if a.status != c.status || a.Data != nil || len(a.Errors) != 1 || a.Errors[0].Extensions["code"] != "BAD_USER_INPUT" ||
			a.Errors[0].Message != c.message || strings.Join(path, ".") != c.path {
			t.Errorf("%s: want %d BAD_USER_INPUT %q at %q, got %d %.500s", c.name, c.status, c.message, c.path, a.status, a.raw)
		}
	}

	// Text, escaped or not, passes.
	for _, c := range [][2]string{
		{`query($v: String!) { __type(name: $v) { name } }`, `{"v": "été \ud83d\ude00 \\u0000"}`},
		{`query { __type(name: "\u00e9t\u00E9 😀 \\u0000 \"") { name } }`, ""},
		{`query { __type(name: """a \u0000""") { name } }`, ""},
	} {
		if a := g.ask(t, c[0], c[1]); a.status != http.StatusOK || len(a.Errors) != 0 {
			t.Errorf("%s %s: %d %.500s", c[0], c[1], a.status, a.raw)
		}
	}

	// GET: the query parameter's bytes are checked before it becomes JSON.
	for _, q := range []string{"query=%7B__type(name:%22%FF%22)%7Bname%7D%7D", "query=%7B__typename%7D&operationName=%C0%80"} {
		req := httptest.NewRequest(http.MethodGet, "/graphql?"+q, nil)
		w := httptest.NewRecorder()
		g.h.ServeHTTP(w, req)
		if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), `"BAD_USER_INPUT"`) {
			t.Errorf("GET %s: %d %.300s", q, w.Code, w.Body)
		}
	}
}
