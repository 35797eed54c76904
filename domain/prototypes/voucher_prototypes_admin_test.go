package prototypes_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/domain/prototypes"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// protoDoc is a 4.6 body with the required fields; kv overrides.
func protoDoc(universe int64, kv ...any) domain.Doc {
	d := domain.Doc{"type": "standard", "stay_price": json.Number("50"), "universe": json.Number(jsonInt(universe))}
	for _, l := range domain.Languages {
		d["name_"+l], d["description_"+l], d["long_description_"+l] = "", "", ""
	}
	d["name_fr"] = "Séjour"
	for i := 0; i+1 < len(kv); i += 2 {
		d[kv[i].(string)] = kv[i+1]
	}
	return d
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestAdminPrototypeService(t *testing.T) {
	t.Parallel()
	database, raw := dbtest.NewDatabase(t)
	accounts := account.NewAccountService(database, nil, nil)
	s := prototypes.NewAdminPrototypeService(persistence.NewUnitOfWork(raw, persistence.PrototypeAdminStores))
	perm := []string{domain.PermManageMasterAdmin}
	editor := dbtest.AsCaller(t, accounts, dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "ed", PartnerName: "Inn", Permissions: perm}))
	other := dbtest.AsCaller(t, accounts, dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "ot", PartnerName: "Far", Permissions: perm}))
	reader := dbtest.AsCaller(t, accounts, dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "re", PartnerName: "Ro"}))
	var universe int64
	if err := raw.NewRaw(`INSERT INTO universes (name) VALUES ('{}') RETURNING id`).Scan(context.Background(), &universe); err != nil {
		t.Fatal(err)
	}

	// Defaults of 4.6; decimals kept exact.
	p, err := s.CreateVoucherPrototype(editor, protoDoc(universe, "stay_price", "19.99"))
	if err != nil {
		t.Fatal(err)
	}
	if p.PriceScope != 1 || p.MinCapacity != 1 || p.MaxCapacity != 0 || p.Ranking != 1 || p.IsActive || p.Type != "standard" ||
		p.StayPrice.String() != "19.99" || p.CoverImageID != nil || len(p.ImageIDs) != 0 {
		t.Errorf("defaults: %+v", p)
	}

	// PATCH leaves absent fields; PUT requires the required ones.
	p, err = s.UpdateVoucherPrototype(editor, p.ID, domain.Doc{"is_active": "true", "min_capacity": json.Number("2")}, true)
	if err != nil || !p.IsActive || p.MinCapacity != 2 || p.Name["fr"] != "Séjour" {
		t.Fatalf("patch: %+v %v", p, err)
	}
	e := dbtest.WantCode(t, func() error { _, err := s.UpdateVoucherPrototype(editor, p.ID, domain.Doc{}, false); return err }(), domain.CodeInvalid)
	if len(e.Fields) != 27 { // 8 names, 8 descriptions, 8 long descriptions, type, stay_price, universe
		t.Errorf("PUT {} errors: %d %+v", len(e.Fields), e.Fields)
	}
	// A PATCH with min above max is refused, and nothing changes.
	dbtest.WantCode(t, func() error {
		_, err := s.UpdateVoucherPrototype(editor, p.ID, domain.Doc{"max_capacity": json.Number("1"), "ranking": json.Number("5")}, true)
		return err
	}(), domain.CodeInvalid)
	if got, _ := s.VoucherPrototype(editor, p.ID); got.Ranking != 1 || got.MaxCapacity != 0 {
		t.Errorf("refused patch wrote: %+v", got)
	}

	// Concurrent PATCHes of different fields both apply.
	var wg sync.WaitGroup
	for i, doc := range []domain.Doc{{"ranking": json.Number("5")}, {"price_scope": json.Number("3")}, {"is_highlight": true}, {"max_capacity": json.Number("9")}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.UpdateVoucherPrototype(editor, p.ID, doc, true); err != nil {
				t.Errorf("patch %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if got, _ := s.VoucherPrototype(editor, p.ID); got.Ranking != 5 || got.PriceScope != 3 || !got.IsHighlight || got.MaxCapacity != 9 {
		t.Errorf("concurrent patches lost a field: %+v", got)
	}

	// Tenancy and permissions.
	dbtest.WantCode(t, func() error { _, err := s.VoucherPrototype(other, p.ID); return err }(), domain.CodeNotFound)
	dbtest.WantCode(t, func() error { _, err := s.UpdateVoucherPrototype(other, p.ID, domain.Doc{}, true); return err }(), domain.CodeNotFound)
	dbtest.WantCode(t, func() error { _, err := s.CreateVoucherPrototype(reader, protoDoc(universe)); return err }(), domain.CodeForbidden)
	dbtest.WantCode(t, func() error { _, err := s.CreateOption(reader, domain.Doc{}); return err }(), domain.CodeForbidden)
	dbtest.WantCode(t, func() error { _, err := s.VoucherPrototype(context.Background(), p.ID); return err }(), domain.CodeUnauthenticated)
	if page, err := s.VoucherPrototypes(reader, prototypes.AdminPrototypeFilter{}, domain.PageRequest{Number: 1, Size: 20}); err != nil || page.Count != 0 {
		t.Errorf("reader sees %v %v", page, err)
	}
	dbtest.WantCode(t, func() error {
		_, err := s.VoucherPrototypes(editor, prototypes.AdminPrototypeFilter{Ordering: "name; DROP"}, domain.PageRequest{Number: 1, Size: 20})
		return err
	}(), domain.CodeInvalid)

	// A global option reaches prototypes created before and after it; a
	// link's count and included flag can be set.
	texts := domain.Doc{}
	for _, l := range domain.Languages {
		texts["name_"+l], texts["description_"+l] = "", ""
	}
	texts["name_en"], texts["is_global"] = "Late checkout", true
	o, err := s.CreateOption(editor, texts)
	if err != nil || len(o.VoucherPrototypeIDs) != 1 || o.VoucherPrototypeIDs[0] != p.ID {
		t.Fatalf("global option: %+v %v", o, err)
	}
	later, err := s.CreateVoucherPrototype(editor, protoDoc(universe))
	if err != nil {
		t.Fatal(err)
	}
	links, err := s.PrototypeOptions(editor, later.ID, domain.PageRequest{Number: 1, Size: 100})
	if err != nil || links.Count != 1 || links.Items[0].Option.ID != o.ID {
		t.Fatalf("later prototype links: %+v %v", links, err)
	}
	l, err := s.SetPrototypeOption(editor, later.ID, o.ID, 3, true)
	if err != nil || l.Count != 3 || !l.Included {
		t.Fatalf("set link: %+v %v", l, err)
	}
	dbtest.WantCode(t, func() error { _, err := s.SetPrototypeOption(other, later.ID, o.ID, 1, false); return err }(), domain.CodeNotFound)
	dbtest.WantCode(t, func() error { _, err := s.SetPrototypeOption(editor, later.ID, o.ID, -1, false); return err }(), domain.CodeInvalid)
}

// More concurrent updates of one prototype than the pool has connections:
// each holds the row lock in its transaction while it checks the universe
// and the environment, and those checks must read inside that transaction.
// Were they to ask the pool for another connection, the writers would hold
// every connection and wait on each other until the statement timeout.
func TestPrototypeUpdatesNeedOneConnection(t *testing.T) {
	t.Parallel()
	database, raw := dbtest.NewDatabase(t)
	raw.SetMaxOpenConns(2)
	accounts := account.NewAccountService(database, nil, nil)
	s := prototypes.NewAdminPrototypeService(persistence.NewUnitOfWork(raw, persistence.PrototypeAdminStores))
	editor := dbtest.AsCaller(t, accounts, dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "ed", PartnerName: "Inn",
		Permissions: []string{domain.PermManageMasterAdmin}}))
	var universe, environment int64
	if err := raw.NewRaw(`INSERT INTO universes (name) VALUES ('{}') RETURNING id`).Scan(context.Background(), &universe); err != nil {
		t.Fatal(err)
	}
	if err := raw.NewRaw(`INSERT INTO environments (name) VALUES ('{}') RETURNING id`).Scan(context.Background(), &environment); err != nil {
		t.Fatal(err)
	}
	p, err := s.CreateVoucherPrototype(editor, protoDoc(universe))
	if err != nil {
		t.Fatal(err)
	}
	const writers = 8
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			doc := domain.Doc{"universe": json.Number(jsonInt(universe)), "environment": json.Number(jsonInt(environment)),
				"ranking": json.Number(jsonInt(int64(i + 1)))}
			if _, err := s.UpdateVoucherPrototype(editor, p.ID, doc, true); err != nil {
				t.Errorf("writer %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if got, err := s.VoucherPrototype(editor, p.ID); err != nil || got.EnvironmentID == nil || *got.EnvironmentID != environment {
		t.Errorf("after the updates: %+v %v", got, err)
	}
}
