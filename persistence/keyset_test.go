package persistence_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"salesplatform/domain"
	"salesplatform/domain/vouchers"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// keysetVoucher is what TestKeysetPages' orders sort vouchers by.
type keysetVoucher struct {
	id         int64
	state      string
	price      int
	expiration *time.Time
}

// TestKeysetPages reads every keyset page of a voucher list whose orders
// have repeated, nullable and mixed-direction keys, from every anchor and
// many pairs of anchors, both ways, and checks each against the list sorted in
// Go. An anchor outside the list (another tenant's voucher, none) is
// ErrCursorGone.
func TestKeysetPages(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	ctx := context.Background()
	store := persistence.VoucherStores(db).Vouchers
	id := func(query string, args ...any) int64 {
		var id int64
		if err := db.NewRaw(query, args...).Scan(ctx, &id); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		return id
	}
	shop, other := id(`INSERT INTO partners (name) VALUES ('Shop') RETURNING id`), id(`INSERT INTO partners (name) VALUES ('Other') RETURNING id`)
	protos := map[int64]int64{}
	for _, p := range []int64{shop, other} {
		protos[p] = id(`INSERT INTO voucher_prototypes (partner_id) VALUES (?) RETURNING id`, p)
	}
	base := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	var list []keysetVoucher // the shop's
	var others []int64
	for i := range 22 {
		v := keysetVoucher{state: []string{"draft", "paid", "used"}[i%3], price: i % 4}
		if i%4 != 1 {
			e := base.Add(time.Duration(i%3) * time.Hour)
			v.expiration = &e
		}
		partner := shop
		if i%6 == 5 {
			partner = other
		}
		code := fmt.Sprintf("KS-%d", i)
		id(`INSERT INTO gift_codes (code, kind) VALUES (?, 'voucher') RETURNING 1`, code)
		v.id = id(`INSERT INTO vouchers (code, voucher_prototype_id, state, total_price, expiration_date) VALUES (?, ?, ?, ?, ?) RETURNING id`,
			code, protos[partner], v.state, v.price, v.expiration)
		if partner == shop {
			list = append(list, v)
		} else {
			others = append(others, v.id)
		}
	}
	nullsLast := func(a, b *time.Time) int { // PostgreSQL's ascending order
		switch {
		case a == nil && b == nil:
			return 0
		case a == nil:
			return 1
		case b == nil:
			return -1
		}
		return a.Compare(*b)
	}
	for _, o := range []struct {
		order []vouchers.AdminOrder
		cmp   func(a, b keysetVoucher) int
	}{
		{[]vouchers.AdminOrder{{Field: "state"}, {Field: "id"}},
			func(a, b keysetVoucher) int { return cmp.Or(cmp.Compare(a.state, b.state), cmp.Compare(a.id, b.id)) }},
		{[]vouchers.AdminOrder{{Field: "state", Desc: true}, {Field: "expiration_date"}, {Field: "id", Desc: true}},
			func(a, b keysetVoucher) int {
				return cmp.Or(-cmp.Compare(a.state, b.state), nullsLast(a.expiration, b.expiration), -cmp.Compare(a.id, b.id))
			}},
		{[]vouchers.AdminOrder{{Field: "expiration_date", Desc: true}, {Field: "total_price"}, {Field: "id"}},
			func(a, b keysetVoucher) int {
				return cmp.Or(-nullsLast(a.expiration, b.expiration), cmp.Compare(a.price, b.price), cmp.Compare(a.id, b.id))
			}},
	} {
		sorted := slices.Clone(list)
		slices.SortFunc(sorted, o.cmp)
		f := vouchers.VoucherFilter{Tenant: &shop, Order: o.order}
		read := func(k domain.Keyset, size int) (*domain.Page[*vouchers.AdminVoucher], error) {
			req := domain.PageRequest{Size: size, Keyset: &k}
			items, count, err := store.ListVouchers(ctx, f, req)
			if err != nil {
				return nil, err
			}
			return domain.NewPage(items, count, req)
		}
		// Numbered pages read the same order.
		items, _, err := store.ListVouchers(ctx, f, domain.PageRequest{Number: 1, Size: 100})
		if err != nil || len(items) != len(sorted) {
			t.Fatalf("numbered: %d items, %v", len(items), err)
		}
		for i, v := range items {
			if v.ID != sorted[i].id {
				t.Fatalf("order %v: numbered page has %d at %d, want %d", o.order, v.ID, i, sorted[i].id)
			}
		}
		anchors := []int{-1} // -1: none
		for i := range sorted {
			anchors = append(anchors, i)
		}
		for _, after := range anchors {
			for _, before := range anchors {
				sizes := []int{0, 3, 100}
				if after >= 0 && before >= 0 { // both anchors: a third of the pairs, one size
					if (after+before)%3 != 0 {
						continue
					}
					sizes = []int{3}
				}
				for _, backward := range []bool{false, true} {
					for _, size := range sizes {
						k := domain.Keyset{Backward: backward}
						lo, hi := 0, len(sorted)
						if after >= 0 {
							k.After, lo = sorted[after].id, after+1
						}
						if before >= 0 {
							k.Before, hi = sorted[before].id, before
						}
						want := []int64{}
						for i := lo; i < hi; i++ {
							want = append(want, sorted[i].id)
						}
						more := len(want) > size
						if backward {
							want = want[max(0, len(want)-size):]
						} else {
							want = want[:min(len(want), size)]
						}
						page, err := read(k, size)
						if err != nil {
							t.Fatalf("order %v, %+v, size %d: %v", o.order, k, size, err)
						}
						got := []int64{}
						for _, v := range page.Items {
							got = append(got, v.ID)
						}
						if !slices.Equal(got, want) || page.More != more || page.Count != len(sorted) {
							t.Errorf("order %v, %+v, size %d: %v (more %v, count %d); want %v (more %v)",
								o.order, k, size, got, page.More, page.Count, want, more)
						}
					}
				}
			}
		}
		for _, id := range []int64{others[0], others[0] + 1000} {
			_, err := read(domain.Keyset{After: id}, 2)
			dbtest.WantFieldErrors(t, err, map[string]string{"after": domain.MsgCursorGone})
			_, err = read(domain.Keyset{After: sorted[0].id, Before: id, Backward: true}, 2)
			dbtest.WantFieldErrors(t, err, map[string]string{"before": domain.MsgCursorGone})
		}
	}
}
