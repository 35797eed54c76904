package persistence

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
)

type universeRow struct {
	bun.BaseModel `bun:"table:universes,alias:u"`

	ID       int64            `bun:"id,pk,autoincrement"`
	ParentID *int64           `bun:"parent_id"`
	Name     domain.Localized `bun:"name,type:jsonb,notnull"`
	Order    *int             `bun:"order"`
}

func (r *universeRow) toDomain() *catalogue.Universe {
	return &catalogue.Universe{ID: r.ID, ParentID: r.ParentID, Name: r.Name, Order: r.Order}
}

type themeRow struct {
	bun.BaseModel `bun:"table:themes,alias:th"`

	ID   int64            `bun:"id,pk,autoincrement"`
	Name domain.Localized `bun:"name,type:jsonb,notnull"`
}

// findUniverseClosure returns the universes whose ids the linked subquery
// selects, with all their ancestors, each once, in one recursive query.
// UNION (not UNION ALL) stops on a cycle of parents.
func findUniverseClosure(ctx context.Context, db bun.IDB, linked string, args ...any) ([]*catalogue.Universe, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []universeRow
	err := db.NewRaw(`WITH RECURSIVE closure (id) AS (
			`+linked+`
			UNION
			SELECT u.parent_id FROM universes u JOIN closure c ON u.id = c.id WHERE u.parent_id IS NOT NULL
		)
		SELECT u.id, u.parent_id, u.name, u."order" FROM universes u WHERE u.id IN (SELECT id FROM closure)`, args...).
		Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("select universes: %w", err)
	}
	out := make([]*catalogue.Universe, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out, nil
}

// localizedNotNil stores a missing Localized as an empty object: the columns are
// NOT NULL.
func localizedNotNil(l domain.Localized) domain.Localized {
	if l == nil {
		return domain.Localized{}
	}
	return l
}

// universesByID returns the universes in ids order, nil when missing: one
// statement, shared by the prototype and box stores' batches.
func universesByID(ctx context.Context, db bun.IDB, ids []int64) ([]*catalogue.Universe, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []universeRow
	if err := db.NewSelect().Model(&rows).Where("u.id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("select universes: %w", err)
	}
	byID := make(map[int64]*catalogue.Universe, len(rows))
	for _, r := range rows {
		byID[r.ID] = &catalogue.Universe{ID: r.ID, ParentID: r.ParentID, Name: r.Name, Order: r.Order}
	}
	return inIDOrder(ids, byID), nil
}
