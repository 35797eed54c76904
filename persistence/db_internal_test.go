package persistence

import (
	"testing"

	"github.com/jackc/pgx/v5"
)

// A dsn that leaves them unsaid gets the simple protocol, and no TLS to a
// server on this host; a dsn that says them keeps its own.
func TestConnectionDefaults(t *testing.T) {
	for _, tc := range []struct {
		dsn      string
		mode     pgx.QueryExecMode
		withTLS  bool
		fallback bool
	}{
		{"postgres://u@127.0.0.1:5432/d", pgx.QueryExecModeSimpleProtocol, false, false},
		{"postgres://u@localhost/d", pgx.QueryExecModeSimpleProtocol, false, false},
		{"host=/var/run/postgresql user=u dbname=d", pgx.QueryExecModeSimpleProtocol, false, false},
		{"postgres://u@db.example.com/d", pgx.QueryExecModeSimpleProtocol, true, true},
		{"postgres://u@127.0.0.1/d?sslmode=require", pgx.QueryExecModeSimpleProtocol, true, false},
		{"postgres://u@127.0.0.1/d?default_query_exec_mode=cache_statement", pgx.QueryExecModeCacheStatement, false, false},
		// A password that names a parameter does not set it.
		{"postgres://u:sslmode@127.0.0.1/d", pgx.QueryExecModeSimpleProtocol, false, false},
	} {
		cfg, err := pgx.ParseConfig(tc.dsn)
		if err != nil {
			t.Fatal(err)
		}
		applyDefaults(cfg, tc.dsn)
		if cfg.DefaultQueryExecMode != tc.mode || (cfg.TLSConfig != nil) != tc.withTLS || (len(cfg.Fallbacks) > 0) != tc.fallback {
			t.Errorf("%s: mode %v, TLS %v, fallbacks %d", tc.dsn, cfg.DefaultQueryExecMode, cfg.TLSConfig != nil, len(cfg.Fallbacks))
		}
	}
}

// PGSSLMODE keeps TLS to a local server, as pgx reads it.
func TestConnectionDefaultsPGSSLMODE(t *testing.T) {
	t.Setenv("PGSSLMODE", "require")
	dsn := "postgres://u@127.0.0.1:5432/d"
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	applyDefaults(cfg, dsn)
	if cfg.TLSConfig == nil {
		t.Error("PGSSLMODE=require lost its TLS")
	}
}
