package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// Keyset connections (graph/connection.go): the administration's
// vouchers and media, paged both ways through the whole handler, with rows
// added ahead of the cursor between reads.

// keyCursor is a keyset list's cursor of the item with that id.
func keyCursor(id int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf("k:%d", id)))
}

// connPage is one page of a connection queried as c, whose nodes select
// their key as "key".
type connPage struct {
	TotalCount int
	PageInfo   struct {
		HasNextPage, HasPreviousPage bool
		StartCursor, EndCursor       *string
	}
	Edges []struct {
		Cursor string
		Node   struct{ Key string }
	}
}

// keys lists the page's keys, and checks its cursors.
func (c connPage) keys(t *testing.T) []string {
	t.Helper()
	out := []string{}
	for _, e := range c.Edges {
		out = append(out, e.Node.Key)
	}
	switch {
	case len(c.Edges) == 0 && (c.PageInfo.StartCursor != nil || c.PageInfo.EndCursor != nil):
		t.Errorf("empty page with cursors %+v", c.PageInfo)
	case len(c.Edges) > 0 && (c.PageInfo.StartCursor == nil || *c.PageInfo.StartCursor != c.Edges[0].Cursor ||
		c.PageInfo.EndCursor == nil || *c.PageInfo.EndCursor != c.Edges[len(c.Edges)-1].Cursor):
		t.Errorf("page info cursors %+v, edges %+v", c.PageInfo, c.Edges)
	}
	return out
}

// pager reads the pages of one connection: query selects it as c with the
// variables $first, $after, $last and $before, and vars gives the others.
type pager struct {
	f     *avFixture
	token string
	query string
	vars  map[string]any
}

// page reads one page; errs are the GraphQL errors, if any.
func (p pager) page(t *testing.T, args map[string]any) (connPage, []any) {
	t.Helper()
	vars := map[string]any{}
	for k, v := range p.vars {
		vars[k] = v
	}
	for k, v := range args {
		vars[k] = v
	}
	m := p.f.graph(t, p.token, p.query, vars)
	if errs, ok := m["errors"].([]any); ok {
		return connPage{}, errs
	}
	var out struct{ C connPage }
	if err := json.Unmarshal(mustJSON(t, m["data"]), &out); err != nil {
		t.Fatal(err)
	}
	return out.C, nil
}

func (p pager) mustPage(t *testing.T, args map[string]any) connPage {
	t.Helper()
	c, errs := p.page(t, args)
	if errs != nil {
		t.Fatalf("%v: %v", args, errs)
	}
	return c
}

// readAll reads the whole list by pages of size, checking each page's size
// and page info, and returns its keys in list order: from its start with
// first and after, or, backward, from its end with last and before. Both
// walks are one, with next and previous swapped.
func (p pager) readAll(t *testing.T, size int, backward bool) []string {
	t.Helper()
	count, cursor, ahead, behind := "first", "after", "hasNextPage", "hasPreviousPage"
	if backward {
		count, cursor, ahead, behind = "last", "before", "hasPreviousPage", "hasNextPage"
	}
	var all []string
	args := map[string]any{count: size}
	for i := 0; ; i++ {
		c := p.mustPage(t, args)
		keys := c.keys(t)
		more, read, next := c.PageInfo.HasNextPage, c.PageInfo.HasPreviousPage, c.PageInfo.EndCursor
		if backward {
			all = append(slices.Clone(keys), all...)
			more, read, next = read, more, c.PageInfo.StartCursor
		} else {
			all = append(all, keys...)
		}
		if read != (i > 0) {
			t.Errorf("%s: %d, page %d: %s %v", count, size, i, behind, read)
		}
		if !more {
			if len(all) != c.TotalCount {
				t.Errorf("%s: %d: %d items in all, totalCount %d", count, size, len(all), c.TotalCount)
			}
			return all
		}
		if len(keys) != size || i > 1000 {
			t.Fatalf("%s: %d, page %d: %d items, %s", count, size, i, len(keys), ahead)
		}
		args[cursor] = *next
	}
}

// wantPages reads the list both ways at several page sizes: each reading
// must be want.
func (p pager) wantPages(t *testing.T, want []string) {
	t.Helper()
	for _, size := range []int{1, 2, 7, 100} {
		if got := p.readAll(t, size, false); !slices.Equal(got, want) {
			t.Errorf("forward by %d:\n%v\nwant\n%v", size, got, want)
		}
		if got := p.readAll(t, size, true); !slices.Equal(got, want) {
			t.Errorf("backward by %d:\n%v\nwant\n%v", size, got, want)
		}
	}
}

// wantArgError checks that errs is one BAD_USER_INPUT on arg with msg.
func wantArgError(t *testing.T, errs []any, arg, msg string) {
	t.Helper()
	if len(errs) != 1 {
		t.Fatalf("errors %v, want one on %s", errs, arg)
	}
	e, _ := errs[0].(map[string]any)
	ext, _ := e["extensions"].(map[string]any)
	if ext["code"] != "BAD_USER_INPUT" || e["message"] != arg+": "+msg {
		t.Errorf("error %v, want BAD_USER_INPUT %q on %s", e, msg, arg)
	}
}

const msgCursorGone = "This cursor's item is no longer in the list."

// keysetVoucher is a voucher as its list sorts it.
type keysetVoucher struct {
	ID         int64      `bun:"id"`
	Code       string     `bun:"code"`
	State      string     `bun:"state"`
	Creation   time.Time  `bun:"creation_date"`
	Expiration *time.Time `bun:"expiration_date"`
}

// byKeys sorts vouchers as PostgreSQL does by the keys: each compares two
// vouchers ascending (-1, 0, 1); desc flips it; the id, in the last key's
// direction, breaks ties.
func byKeys(vs []keysetVoucher, keys []func(a, b keysetVoucher) int, desc []bool) []string {
	sort.Slice(vs, func(i, j int) bool {
		for k, cmp := range keys {
			if c := cmp(vs[i], vs[j]); c != 0 {
				return (c < 0) != desc[k]
			}
		}
		return (vs[i].ID < vs[j].ID) != desc[len(desc)-1]
	})
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Code
	}
	return out
}

// Nullable dates sort as PostgreSQL sorts NULLs: last ascending, first
// descending.
func cmpExpiration(a, b keysetVoucher) int {
	switch {
	case a.Expiration == nil && b.Expiration == nil:
		return 0
	case a.Expiration == nil:
		return 1
	case b.Expiration == nil:
		return -1
	}
	return a.Expiration.Compare(*b.Expiration)
}

func cmpCreation(a, b keysetVoucher) int { return a.Creation.Compare(b.Creation) }

func cmpState(a, b keysetVoucher) int { return strings.Compare(a.State, b.State) }

func TestGraphKeysetVouchers(t *testing.T) {
	t.Parallel()
	f := newAVFixture(t)
	// 25 vouchers of shop: many share a creation date, an expiration date
	// (or have none) and a state.
	states := []string{"paid", "draft", "used"}
	for i := range 23 {
		exp := any(nil)
		if i%4 != 0 {
			exp = fmt.Sprintf("2031-0%d-01T00:00:00Z", 1+i%5)
		}
		f.voucher(t, fmt.Sprintf("K-%02d", i), f.shopVP, "state, creation_date, expiration_date",
			states[i%3], fmt.Sprintf("2026-04-%02dT10:00:00Z", 1+i/3), exp)
	}
	vouchers := func(t *testing.T) []keysetVoucher {
		var vs []keysetVoucher
		gcMust(t, f.db.NewRaw(`SELECT v.id, v.code, v.state, v.creation_date, v.expiration_date FROM vouchers v
			JOIN voucher_prototypes vp ON vp.id = v.voucher_prototype_id WHERE vp.partner_id = ?`, f.shopID).Scan(context.Background(), &vs))
		return vs
	}
	const query = `query($first: Int, $after: String, $last: Int, $before: String, $o: [AdminVoucherOrder!], $f: AdminVoucherFilter) {
		c: adminVouchers(orderBy: $o, filter: $f, first: $first, after: $after, last: $last, before: $before) {
			totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { key: code } } } }`
	order := func(fields ...string) []any {
		var o []any
		for _, f := range fields {
			field, desc := strings.CutPrefix(f, "-")
			dir := "ASC"
			if desc {
				dir = "DESC"
			}
			o = append(o, map[string]any{"field": field, "direction": dir})
		}
		return o
	}

	for _, c := range []struct {
		name     string
		orderBy  []any
		ordering string // the REST twin
		keys     []func(a, b keysetVoucher) int
		desc     []bool
	}{
		{"Default", nil, "", []func(a, b keysetVoucher) int{cmpCreation}, []bool{true}},
		{"ExpirationAsc", order("EXPIRATION_DATE"), "expiration_date", []func(a, b keysetVoucher) int{cmpExpiration}, []bool{false}},
		{"ExpirationDesc", order("-EXPIRATION_DATE"), "-expiration_date", []func(a, b keysetVoucher) int{cmpExpiration}, []bool{true}},
		{"StateThenExpirationDesc", order("STATE", "-EXPIRATION_DATE"), "state,-expiration_date",
			[]func(a, b keysetVoucher) int{cmpState, cmpExpiration}, []bool{false, true}},
	} {
		t.Run("OKBothWays"+c.name, func(t *testing.T) {
			want := byKeys(vouchers(t), c.keys, c.desc)
			pager{f: f, token: f.shopTok, query: query, vars: map[string]any{"o": c.orderBy}}.wantPages(t, want)
			// REST reads the same order, in numbered pages.
			if got := avCodes(t, f.get(t, "/api/vouchers/?page_size=100&ordering="+c.ordering, f.shopTok)); !slices.Equal(got, want) {
				t.Errorf("REST: %v, want %v", got, want)
			}
		})
	}

	t.Run("OKSurvivesInserts", func(t *testing.T) {
		p := pager{f: f, token: f.shopTok, query: query}
		before := byKeys(vouchers(t), []func(a, b keysetVoucher) int{cmpCreation}, []bool{true}) // newest first
		first := p.mustPage(t, map[string]any{"first": 4})
		if got := first.keys(t); !slices.Equal(got, before[:4]) {
			t.Fatalf("first page %v, want %v", got, before[:4])
		}
		// Three newer vouchers: ahead of the page read. An offset cursor
		// would now read three items of the first page again.
		for i := range 3 {
			f.voucher(t, fmt.Sprintf("NEW-%d", i), f.shopVP, "creation_date", "2027-01-01T00:00:00Z")
		}
		next := p.mustPage(t, map[string]any{"first": 4, "after": *first.PageInfo.EndCursor})
		if got := next.keys(t); !slices.Equal(got, before[4:8]) || next.TotalCount != len(before)+3 ||
			!next.PageInfo.HasPreviousPage || !next.PageInfo.HasNextPage {
			t.Errorf("after the inserts: %v %+v (total %d), want %v", got, next.PageInfo, next.TotalCount, before[4:8])
		}

		// Backward from the end: older vouchers are added after the page
		// read (ahead of it in its reading direction), newer ones before.
		now := byKeys(vouchers(t), []func(a, b keysetVoucher) int{cmpCreation}, []bool{true})
		last := p.mustPage(t, map[string]any{"last": 3})
		if got := last.keys(t); !slices.Equal(got, now[len(now)-3:]) || last.PageInfo.HasNextPage || !last.PageInfo.HasPreviousPage {
			t.Fatalf("last page %v %+v, want %v", got, last.PageInfo, now[len(now)-3:])
		}
		f.voucher(t, "OLD-0", f.shopVP, "creation_date", "2020-01-01T00:00:00Z")
		f.voucher(t, "NEW-3", f.shopVP, "creation_date", "2027-02-01T00:00:00Z")
		prev := p.mustPage(t, map[string]any{"last": 3, "before": *last.PageInfo.StartCursor})
		if got := prev.keys(t); !slices.Equal(got, now[len(now)-6:len(now)-3]) || !prev.PageInfo.HasNextPage || !prev.PageInfo.HasPreviousPage {
			t.Errorf("before the last page: %v %+v, want %v", got, prev.PageInfo, now[len(now)-6:len(now)-3])
		}
		// The whole list still reads the same both ways.
		p.wantPages(t, byKeys(vouchers(t), []func(a, b keysetVoucher) int{cmpCreation}, []bool{true}))
	})

	t.Run("OKBothCursors", func(t *testing.T) {
		p := pager{f: f, token: f.shopTok, query: query, vars: map[string]any{"o": order("EXPIRATION_DATE")}}
		all := p.mustPage(t, map[string]any{"first": 100})
		from, to := all.Edges[2].Cursor, all.Edges[9].Cursor
		want := all.keys(t)[3:9]
		c := p.mustPage(t, map[string]any{"first": 4, "after": from, "before": to})
		if got := c.keys(t); !slices.Equal(got, want[:4]) || !c.PageInfo.HasPreviousPage || !c.PageInfo.HasNextPage {
			t.Errorf("first 4 between: %v %+v, want %v", got, c.PageInfo, want[:4])
		}
		c = p.mustPage(t, map[string]any{"last": 4, "after": from, "before": to})
		if got := c.keys(t); !slices.Equal(got, want[2:]) || !c.PageInfo.HasPreviousPage || !c.PageInfo.HasNextPage {
			t.Errorf("last 4 between: %v %+v, want %v", got, c.PageInfo, want[2:])
		}
		c = p.mustPage(t, map[string]any{"first": 0})
		if len(c.Edges) != 0 || !c.PageInfo.HasNextPage || c.PageInfo.HasPreviousPage || c.TotalCount != all.TotalCount {
			t.Errorf("first: 0: %+v", c)
		}
	})

	t.Run("OKGiftcardsByExpiry", func(t *testing.T) {
		for i := range 7 {
			exp := any(nil)
			if i%3 != 0 {
				exp = fmt.Sprintf("2027-06-%02dT00:00:00Z", 1+i%2) // shared by several
			}
			code := fmt.Sprintf("GC-K-%d", i)
			f.exec(t, "INSERT INTO gift_codes (code, kind) VALUES (?, 'giftcard')", code)
			f.exec(t, `INSERT INTO giftcards (code, giftcard_prototype_id, status, value, remaining_value, expires_on)
				VALUES (?, ?, 'paid', 10, 10, ?)`, code, f.shopGP, exp)
		}
		var gs []keysetVoucher // expiry in Expiration
		gcMust(t, f.db.NewRaw(`SELECT g.id, g.code, g.expires_on AS expiration_date FROM giftcards g
			JOIN giftcard_prototypes gp ON gp.id = g.giftcard_prototype_id WHERE gp.partner_id = ?`, f.shopID).Scan(context.Background(), &gs))
		for _, desc := range []bool{false, true} {
			dir := map[bool]string{false: "ASC", true: "DESC"}[desc]
			want := byKeys(slices.Clone(gs), []func(a, b keysetVoucher) int{cmpExpiration}, []bool{desc})
			pager{f: f, token: f.shopTok, vars: map[string]any{"o": []any{map[string]any{"field": "EXPIRES_ON", "direction": dir}}},
				query: `query($first: Int, $after: String, $last: Int, $before: String, $o: [AdminGiftcardOrder!]) {
					c: adminGiftcards(orderBy: $o, first: $first, after: $after, last: $last, before: $before) {
						totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { key: code } } } }`,
			}.wantPages(t, want)
		}
	})

	t.Run("ErrCursorGone", func(t *testing.T) {
		p := pager{f: f, token: f.shopTok, query: query}
		other := f.id(t, "SELECT id FROM vouchers WHERE code = 'OTHER-001'")
		// Another partner's voucher: not in the shop's list.
		_, errs := p.page(t, map[string]any{"first": 2, "after": keyCursor(other)})
		wantArgError(t, errs, "after", msgCursorGone)
		_, errs = p.page(t, map[string]any{"last": 2, "before": keyCursor(other)})
		wantArgError(t, errs, "before", msgCursorGone)
		// Staff see it in the whole list, not in the shop's Partner.vouchers.
		staff := pager{f: f, token: f.staffTok, query: query}
		staff.mustPage(t, map[string]any{"first": 1, "after": keyCursor(other)})
		var shopUUID string
		gcMust(t, f.db.NewRaw("SELECT uuid::text FROM partners WHERE id = ?", f.shopID).Scan(context.Background(), &shopUUID))
		staff.query = `query($first: Int, $after: String, $last: Int, $before: String, $u: UUID) { adminPartner(uuid: $u) {
			vouchers(first: $first, after: $after, last: $last, before: $before) { totalCount } } }`
		m := f.graph(t, f.staffTok, staff.query, map[string]any{"u": shopUUID, "first": 1, "after": keyCursor(other)})
		errs, _ = m["errors"].([]any)
		wantArgError(t, errs, "after", msgCursorGone)
		// A voucher the filter leaves out.
		_, errs = pager{f: f, token: f.shopTok, query: query, vars: map[string]any{"f": map[string]any{"code": "K-"}}}.
			page(t, map[string]any{"first": 2, "after": keyCursor(f.v1)})
		wantArgError(t, errs, "after", msgCursorGone)
		// A deleted voucher.
		gone := f.voucher(t, "GONE-1", f.shopVP, "")
		f.exec(t, "DELETE FROM vouchers WHERE id = ?", gone)
		_, errs = p.page(t, map[string]any{"first": 2, "after": keyCursor(gone)})
		wantArgError(t, errs, "after", msgCursorGone)
		// A partner without vouchers: an empty list holds no cursor.
		_, errs = pager{f: f, token: f.otherTok, query: query, vars: map[string]any{"f": map[string]any{"code": "nothing"}}}.
			page(t, map[string]any{"last": 1, "before": keyCursor(other)})
		wantArgError(t, errs, "before", msgCursorGone)
	})

	t.Run("ErrArguments", func(t *testing.T) {
		p := pager{f: f, token: f.shopTok, query: query}
		_, errs := p.page(t, map[string]any{"first": 1, "last": 1})
		wantArgError(t, errs, "last", "Give first or last, not both.")
		_, errs = p.page(t, map[string]any{"last": -1})
		wantArgError(t, errs, "last", "Ensure this value is greater than or equal to 0.")
		_, errs = p.page(t, map[string]any{"after": base64.StdEncoding.EncodeToString([]byte("offset:1"))})
		wantArgError(t, errs, "after", "Invalid cursor.")
		_, errs = p.page(t, map[string]any{"before": "azow"}) // k:0
		wantArgError(t, errs, "before", "Invalid cursor.")
	})
}

func TestGraphKeysetMedia(t *testing.T) {
	t.Parallel()
	f := newAVFixture(t)
	type row struct {
		ID      int64     `bun:"id"`
		Name    string    `bun:"name"`
		Created time.Time `bun:"created_on"`
	}
	media := func(t *testing.T, partner int64, name, created string) int64 {
		return f.id(t, `INSERT INTO media (partner_id, name, blob_key, content_type, size, width, height, created_on)
			VALUES (?, ?, gen_random_uuid()::text, 'image/png', 1, 1, 1, ?) RETURNING id`, partner, name, created)
	}
	names := []string{"beach", "alps", "city", "alps", "beach"}
	for i := range 17 {
		media(t, f.shopID, names[i%5], fmt.Sprintf("2026-05-%02dT08:00:00Z", 1+i/4))
	}
	rival := media(t, f.otherID, "rival", "2026-05-01T08:00:00Z")
	list := func(t *testing.T, less func(a, b row) int, desc bool) []string {
		var rs []row
		gcMust(t, f.db.NewRaw(`SELECT id, name, created_on FROM media WHERE partner_id = ?`, f.shopID).Scan(context.Background(), &rs))
		sort.Slice(rs, func(i, j int) bool {
			c := less(rs[i], rs[j])
			if c == 0 {
				c = int(rs[i].ID - rs[j].ID)
			}
			return (c < 0) != desc
		})
		out := make([]string, len(rs))
		for i, r := range rs {
			out[i] = fmt.Sprint(r.ID)
		}
		return out
	}
	byName := func(a, b row) int { return strings.Compare(a.Name, b.Name) }
	byCreated := func(a, b row) int { return a.Created.Compare(b.Created) }
	const query = `query($first: Int, $after: String, $last: Int, $before: String, $o: MediaOrder) {
		c: media(orderBy: $o, first: $first, after: $after, last: $last, before: $before) {
			totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { key: legacyId } } } }`

	for _, c := range []struct {
		name    string
		orderBy any
		less    func(a, b row) int
		desc    bool
	}{
		{"Default", nil, byCreated, true},
		{"NameAsc", map[string]any{"field": "NAME"}, byName, false},
		{"NameDesc", map[string]any{"field": "NAME", "direction": "DESC"}, byName, true},
		{"CreatedAsc", map[string]any{"field": "CREATED_ON"}, byCreated, false},
	} {
		t.Run("OKBothWays"+c.name, func(t *testing.T) {
			pager{f: f, token: f.shopTok, query: query, vars: map[string]any{"o": c.orderBy}}.wantPages(t, list(t, c.less, c.desc))
		})
	}

	t.Run("OKSurvivesInserts", func(t *testing.T) {
		p := pager{f: f, token: f.shopTok, query: query, vars: map[string]any{"o": map[string]any{"field": "NAME"}}}
		before := list(t, byName, false)
		first := p.mustPage(t, map[string]any{"first": 5})
		media(t, f.shopID, "aaa", "2026-05-02T08:00:00Z") // ahead of the page, by name
		media(t, f.shopID, "alp", "2026-05-02T08:00:00Z")
		next := p.mustPage(t, map[string]any{"first": 5, "after": *first.PageInfo.EndCursor})
		if got := next.keys(t); !slices.Equal(got, before[5:10]) {
			t.Errorf("after the inserts: %v, want %v", got, before[5:10])
		}
		last := p.mustPage(t, map[string]any{"last": 4})
		media(t, f.shopID, "zzz", "2026-05-02T08:00:00Z") // after the page: ahead of it backward
		now := list(t, byName, false)
		prev := p.mustPage(t, map[string]any{"last": 4, "before": *last.PageInfo.StartCursor})
		if got := prev.keys(t); !slices.Equal(got, now[len(now)-9:len(now)-5]) {
			t.Errorf("before the last page: %v, want %v", got, now[len(now)-9:len(now)-5])
		}
	})

	t.Run("ErrCursorGone", func(t *testing.T) {
		p := pager{f: f, token: f.shopTok, query: query}
		_, errs := p.page(t, map[string]any{"first": 2, "after": keyCursor(rival)})
		wantArgError(t, errs, "after", msgCursorGone)
		gone := media(t, f.shopID, "gone", "2026-06-01T08:00:00Z") // the newest
		c := p.mustPage(t, map[string]any{"first": 1})
		if c.Edges[0].Cursor != keyCursor(gone) {
			t.Fatalf("newest media %v, want %d", c.Edges, gone)
		}
		f.exec(t, "DELETE FROM media WHERE id = ?", gone)
		_, errs = p.page(t, map[string]any{"last": 2, "before": c.Edges[0].Cursor})
		wantArgError(t, errs, "before", msgCursorGone)
	})
}
