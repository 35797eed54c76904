package persistence_test

import (
	"context"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// The pages of the boxes list run one prepared statement text, whatever
// their number and size (a keyset page after an anchor, another): its
// values, LIMIT and OFFSET included, are parameters, so each connection
// prepares it once.
func TestBoxPagesShareOneStatementText(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, stmts := dbtest.NewCounted(t)
	var market int64
	if err := db.NewRaw(`INSERT INTO partners (name, is_marketplace) VALUES ('Market', true) RETURNING id`).Scan(ctx, &market); err != nil {
		t.Fatal(err)
	}
	store := persistence.BoxStores(db).Boxes
	var ids []int64
	for i := range 5 {
		b := &catalogue.Box{MarketplaceID: market, IsActive: true, Ranking: i, Price: decimal.NewFromInt(10)}
		if err := store.CreateBox(ctx, b); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, b.ID)
	}
	order, err := catalogue.ParseBoxOrdering(nil)
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]bool{}
	for _, tc := range []struct {
		page  domain.PageRequest
		first int64 // the id of the page's first box
	}{
		{domain.PageRequest{Number: 1, Size: 2}, ids[0]},
		{domain.PageRequest{Number: 2, Size: 2}, ids[2]},
		{domain.PageRequest{Number: 2, Size: 3}, ids[3]},
		{domain.PageRequest{Size: 2, Keyset: &domain.Keyset{After: ids[1], Uncounted: true}}, ids[2]},
	} {
		stmts.Reset()
		boxes, _, err := store.FindBoxes(ctx, catalogue.BoxFilter{MarketplaceID: market, ActiveOnly: true, Order: order, Page: tc.page})
		if err != nil || len(boxes) == 0 || boxes[0].ID != tc.first {
			t.Fatalf("page %+v: %v, %v", tc.page, boxes, err)
		}
		for _, q := range stmts.Queries() {
			if strings.Contains(q, " LIMIT $") {
				texts[q] = true
			}
		}
	}
	// The keyset page names an anchor (a CTE): a text of its own.
	if len(texts) != 2 {
		t.Errorf("%d texts for the pages, want 2 (numbered, after an anchor):\n%s", len(texts), strings.Join(keys(texts), "\n"))
	}
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
