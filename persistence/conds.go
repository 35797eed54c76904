package persistence

import (
	"context"
	"fmt"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// conds is the WHERE of a list's statements, built condition by
// condition with their arguments.
type conds struct {
	where []string
	args  []any
}

func (c *conds) add(cond string, args ...any) {
	c.where = append(c.where, cond)
	c.args = append(c.args, args...)
}

// sql is " WHERE a AND b …", or "" without conditions.
func (c *conds) sql() string {
	if len(c.where) == 0 {
		return ""
	}
	return ` WHERE ` + strings.Join(c.where, ` AND `)
}

// addTenant narrows col, a partner id column, to the partners tenant
// sees: itself and the partners it refers. They are read first, so that
// the list is read off col's index: a condition on the referrer's column
// of a joined company record would read every row to count a page.
func (c *conds) addTenant(ctx context.Context, db bun.IDB, col string, tenant int64) error {
	var referred []int64
	if err := db.NewRaw(`SELECT partner_id FROM partner_legal_information WHERE referrer_id = ? ORDER BY partner_id`,
		tenant).Scan(ctx, &referred); err != nil {
		return fmt.Errorf("select partners referred by %d: %w", tenant, err)
	}
	if len(referred) == 0 {
		c.add(col+` = ?`, tenant)
		return nil
	}
	c.add(col+` = ANY(?::bigint[])`, pgdialect.Array(append([]int64{tenant}, referred...)))
	return nil
}
