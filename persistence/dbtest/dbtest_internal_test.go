package dbtest

import "testing"

func TestWithDatabase(t *testing.T) {
	for _, tc := range []struct{ dsn, want string }{
		{"postgres://u:p@h:5433/postgres?sslmode=disable", "postgres://u:p@h:5433/other?sslmode=disable"},
		{"postgresql://u@h", "postgresql://u@h/other"},
		{"postgres://postgres@/postgres?host=/tmp/x&port=5432", "postgres://postgres@/other?host=/tmp/x&port=5432"},
		{"host=h user=u dbname=postgres", "host=h user=u dbname=postgres dbname=other"},
	} {
		if got := withDatabase(tc.dsn, "other"); got != tc.want {
			t.Errorf("withDatabase(%q) = %q, want %q", tc.dsn, got, tc.want)
		}
	}
}
