// Package migrations holds the database schema as SQL files embedded in the
// binary, applied in name order by bun/migrate.
package migrations

import (
	"embed"

	"github.com/uptrace/bun/migrate"
)

//go:embed *.sql
var sqlFiles embed.FS

// Migrations is the ordered set of schema migrations.
var Migrations = migrate.NewMigrations()

func init() {
	if err := Migrations.Discover(sqlFiles); err != nil {
		panic(err)
	}
}
