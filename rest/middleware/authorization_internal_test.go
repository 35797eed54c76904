package middleware

import (
	"strings"
	"testing"
	"unicode"
)

// authorization reads a header as strings.Fields would split it: the
// same scheme, no key for one word, the key for two, a key holding a
// space for more.
func TestAuthorizationSplitsAsFields(t *testing.T) {
	for _, h := range []string{"", " ", "Token", "Token ", "Token abc", "token  abc ", "Token\tabc", " Token abc",
		"Token a b", "Token\ta b", "Token a\u00a0b", "Token\u00a0abc", "Bearer abc", "Token\tabc def", "\tToken\t\tabc\t"} {
		parts := strings.Fields(h)
		scheme, key := authorization(h)
		var want bool
		switch len(parts) {
		case 0:
			want = scheme == "" && key == ""
		case 1:
			want = scheme == parts[0] && key == ""
		case 2:
			want = scheme == parts[0] && key == parts[1]
		default:
			want = scheme == parts[0] && strings.ContainsFunc(key, unicode.IsSpace)
		}
		if !want {
			t.Errorf("authorization(%q) = %q, %q; strings.Fields: %q", h, scheme, key, parts)
		}
	}
}
