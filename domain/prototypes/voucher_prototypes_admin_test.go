package prototypes_test

import (
	"context"
	"sync"
	"testing"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/domain/prototypes"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// protoInput is a prototype write with the required fields.
func protoInput(universe int64) prototypes.PrototypeInput {
	blank := func() map[string]domain.Optional[string] {
		t := map[string]domain.Optional[string]{}
		for _, l := range domain.Languages {
			t[l] = domain.Some("")
		}
		return t
	}
	in := prototypes.PrototypeInput{Type: domain.Some("standard"), StayPrice: domain.Some(decimal.NewFromInt(50)),
		Universe: domain.Some(universe), Name: blank(), Description: blank(), LongDescription: blank()}
	in.Name["fr"] = domain.Some("Séjour")
	return in
}

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
	in := protoInput(universe)
	in.StayPrice = domain.Some(decimal.RequireFromString("19.99"))
	p, err := s.CreateVoucherPrototype(editor, in)
	if err != nil {
		t.Fatal(err)
	}
	if p.PriceScope != 1 || p.MinCapacity != 1 || p.MaxCapacity != 0 || p.Ranking != 1 || p.IsActive || p.Type != "standard" ||
		p.StayPrice.String() != "19.99" || p.CoverImageID != nil || len(p.ImageIDs) != 0 {
		t.Errorf("defaults: %+v", p)
	}

	// PATCH leaves absent fields; PUT requires the required ones.
	p, err = s.UpdateVoucherPrototype(editor, p.ID, prototypes.PrototypeInput{IsActive: domain.Some(true), MinCapacity: domain.Some[int64](2)}, true)
	if err != nil || !p.IsActive || p.MinCapacity != 2 || p.Name["fr"] != "Séjour" {
		t.Fatalf("patch: %+v %v", p, err)
	}
	e := dbtest.WantCode(t, func() error {
		_, err := s.UpdateVoucherPrototype(editor, p.ID, prototypes.PrototypeInput{}, false)
		return err
	}(), domain.CodeInvalid)
	if len(e.Fields) != 27 { // 8 names, 8 descriptions, 8 long descriptions, type, stay_price, universe
		t.Errorf("PUT {} errors: %d %+v", len(e.Fields), e.Fields)
	}
	// A PATCH with min above max is refused, and nothing changes.
	dbtest.WantCode(t, func() error {
		_, err := s.UpdateVoucherPrototype(editor, p.ID, prototypes.PrototypeInput{MaxCapacity: domain.Some[int64](1), Ranking: domain.Some[int64](5)}, true)
		return err
	}(), domain.CodeInvalid)
	if got, _ := s.VoucherPrototype(editor, p.ID); got.Ranking != 1 || got.MaxCapacity != 0 {
		t.Errorf("refused patch wrote: %+v", got)
	}

	// Concurrent PATCHes of different fields both apply.
	var wg sync.WaitGroup
	for i, doc := range []prototypes.PrototypeInput{{Ranking: domain.Some[int64](5)}, {PriceScope: domain.Some[int64](3)}, {IsHighlight: domain.Some(true)}, {MaxCapacity: domain.Some[int64](9)}} {
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
	dbtest.WantCode(t, func() error {
		_, err := s.UpdateVoucherPrototype(other, p.ID, prototypes.PrototypeInput{}, true)
		return err
	}(), domain.CodeNotFound)
	dbtest.WantCode(t, func() error { _, err := s.CreateVoucherPrototype(reader, protoInput(universe)); return err }(), domain.CodeForbidden)
	dbtest.WantCode(t, func() error { _, err := s.CreateOption(reader, prototypes.OptionInput{}); return err }(), domain.CodeForbidden)
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
	option := prototypes.OptionInput{Name: map[string]domain.Optional[string]{}, Description: map[string]domain.Optional[string]{},
		IsGlobal: domain.Some(true)}
	for _, l := range domain.Languages {
		option.Name[l], option.Description[l] = domain.Some(""), domain.Some("")
	}
	option.Name["en"] = domain.Some("Late checkout")
	o, err := s.CreateOption(editor, option)
	if err != nil || len(o.VoucherPrototypeIDs) != 1 || o.VoucherPrototypeIDs[0] != p.ID {
		t.Fatalf("global option: %+v %v", o, err)
	}
	later, err := s.CreateVoucherPrototype(editor, protoInput(universe))
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
	p, err := s.CreateVoucherPrototype(editor, protoInput(universe))
	if err != nil {
		t.Fatal(err)
	}
	const writers = 8
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := prototypes.PrototypeInput{Universe: domain.Some(universe), Environment: domain.Some(environment),
				Ranking: domain.Some(int64(i + 1))}
			if _, err := s.UpdateVoucherPrototype(editor, p.ID, in, true); err != nil {
				t.Errorf("writer %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if got, err := s.VoucherPrototype(editor, p.ID); err != nil || got.EnvironmentID == nil || *got.EnvironmentID != environment {
		t.Errorf("after the updates: %+v %v", got, err)
	}
}
