package catalogue_test

import (
	"context"
	"fmt"
	"testing"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

func TestUniverseDepth(t *testing.T) {
	t.Parallel()
	_, raw := dbtest.NewDatabase(t)
	svc := catalogue.NewPrototypeService(persistence.NewUnitOfWork(raw, persistence.PrototypeStores))
	ctx := dbtest.AsStaff()
	name := func(s string) []domain.TextInput { return []domain.TextInput{{Lang: "fr", Text: s}} }
	create := func(t *testing.T, n string, parent *catalogue.Universe) *catalogue.Universe {
		t.Helper()
		in := catalogue.UniverseInput{Name: name(n)}
		if parent != nil {
			in.ParentID = &parent.ID
		}
		u, err := svc.CreateUniverse(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	wantParentError := func(t *testing.T, err error, code string) {
		t.Helper()
		e := dbtest.WantCode(t, err, domain.CodeInvalid)
		if len(e.Fields) != 1 || domain.PathKey(e.Fields[0].Path) != "parentId" || e.Fields[0].Code != code {
			t.Fatalf("fields = %+v, want one %s on parentId", e.Fields, code)
		}
	}
	a := create(t, "A", nil)
	b := create(t, "B", a)
	c := create(t, "C", b)
	x := create(t, "X", nil)
	create(t, "Y", x)

	t.Run("ErrFourthLevel", func(t *testing.T) {
		_, err := svc.CreateUniverse(ctx, catalogue.UniverseInput{Name: name("D"), ParentID: &c.ID})
		wantParentError(t, err, domain.VMaxDepth)
	})
	t.Run("ErrMoveTooDeep", func(t *testing.T) {
		// X has a child: under B (level 2) X would be on level 3 and Y on 4.
		_, err := svc.UpdateUniverse(ctx, x.ID, catalogue.UniverseInput{ParentID: &b.ID})
		wantParentError(t, err, domain.VMaxDepth)
	})
	t.Run("ErrCycle", func(t *testing.T) {
		_, err := svc.UpdateUniverse(ctx, a.ID, catalogue.UniverseInput{ParentID: &c.ID})
		wantParentError(t, err, domain.VInvalid)
		_, err = svc.UpdateUniverse(ctx, a.ID, catalogue.UniverseInput{ParentID: &a.ID})
		wantParentError(t, err, domain.VInvalid)
	})
	t.Run("ErrUnknownParent", func(t *testing.T) {
		unknown := int64(999999)
		_, err := svc.CreateUniverse(ctx, catalogue.UniverseInput{Name: name("Z"), ParentID: &unknown})
		wantParentError(t, err, domain.VNotFound)
	})
	t.Run("OK", func(t *testing.T) {
		// Under A (level 1), X is on level 2 and Y on 3.
		u, err := svc.UpdateUniverse(ctx, x.ID, catalogue.UniverseInput{ParentID: &a.ID})
		if err != nil {
			t.Fatal(err)
		}
		if u.ParentID == nil || *u.ParentID != a.ID {
			t.Fatalf("parent = %v", u.ParentID)
		}
		// Back to the root, then a third level under Y is fine.
		if _, err := svc.UpdateUniverse(ctx, x.ID, catalogue.UniverseInput{ClearParent: true}); err != nil {
			t.Fatal(err)
		}
		create(t, "C2", b)
	})
	t.Run("ErrNotStaff", func(t *testing.T) {
		shop := &domain.Partner{ID: 1, Name: "Shop"}
		asShop := domain.WithCaller(context.Background(), &domain.Caller{User: &domain.User{Username: "shop"}, Partner: shop})
		_, err := svc.CreateUniverse(asShop, catalogue.UniverseInput{Name: name("A")})
		dbtest.WantCode(t, err, domain.CodeForbidden)
		_, err = svc.CreateUniverse(context.Background(), catalogue.UniverseInput{Name: name("A")})
		dbtest.WantCode(t, err, domain.CodeUnauthenticated)
	})
}

func TestUniversePlacement(t *testing.T) {
	t.Parallel()
	p := func(id int64) *int64 { return &id }
	root := &catalogue.Universe{ID: 1}
	mid := &catalogue.Universe{ID: 2, ParentID: p(1)}
	for name, c := range map[string]struct {
		id      int64
		lineage []*catalogue.Universe
		below   []*catalogue.Universe
		ok      bool
	}{
		"new under root":         {0, []*catalogue.Universe{root}, nil, true},
		"new under level 2":      {0, []*catalogue.Universe{mid, root}, nil, true},
		"new under level 3":      {0, []*catalogue.Universe{{ID: 3, ParentID: p(2)}, mid, root}, nil, false},
		"subtree of 2 under 1":   {9, []*catalogue.Universe{root}, []*catalogue.Universe{{ID: 10, ParentID: p(9)}}, true},
		"subtree of 2 under 2":   {9, []*catalogue.Universe{mid, root}, []*catalogue.Universe{{ID: 10, ParentID: p(9)}}, false},
		"under its own ancestor": {2, []*catalogue.Universe{root}, nil, true},
		"under itself":           {1, []*catalogue.Universe{root}, nil, false},
	} {
		t.Run(name, func(t *testing.T) {
			if err := catalogue.UniversePlacement(c.id, c.lineage, c.below); (err == nil) != c.ok {
				t.Errorf("err = %v, want ok %v", err, c.ok)
			}
		})
	}
}

// Two roots moved under each other at the same time: the tree lock lets
// one move see the other's, so exactly one wins and no cycle is stored.
func TestUniverseConcurrentMoves(t *testing.T) {
	t.Parallel()
	_, raw := dbtest.NewDatabase(t)
	svc := catalogue.NewPrototypeService(persistence.NewUnitOfWork(raw, persistence.PrototypeStores))
	ctx := dbtest.AsStaff()
	for round := range 10 {
		var roots [2]*catalogue.Universe
		for i := range roots {
			u, err := svc.CreateUniverse(ctx, catalogue.UniverseInput{Name: []domain.TextInput{{Lang: "fr", Text: fmt.Sprintf("R%d-%d", round, i)}}})
			if err != nil {
				t.Fatal(err)
			}
			roots[i] = u
		}
		errs := make(chan error, 2)
		for i := range roots {
			go func() {
				_, err := svc.UpdateUniverse(ctx, roots[i].ID, catalogue.UniverseInput{ParentID: &roots[1-i].ID})
				errs <- err
			}()
		}
		var failed int
		for range roots {
			if err := <-errs; err != nil {
				dbtest.WantCode(t, err, domain.CodeInvalid)
				failed++
			}
		}
		if failed != 1 {
			t.Fatalf("round %d: %d moves failed, want exactly 1", round, failed)
		}
		var nRoots int
		if err := raw.NewRaw("SELECT count(*) FROM universes WHERE id IN (?, ?) AND parent_id IS NULL",
			roots[0].ID, roots[1].ID).Scan(context.Background(), &nRoots); err != nil {
			t.Fatal(err)
		}
		if nRoots != 1 {
			t.Fatalf("round %d: %d of the two are roots, want 1", round, nRoots)
		}
	}
}
