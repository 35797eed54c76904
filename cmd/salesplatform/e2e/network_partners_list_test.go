package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// GET /api/network_partners/ lists the partners of the caller's network,
// by id, as a plain array paged by page and page_size (X-Total-Count,
// Link); another marketplace sees none of them; staff name the
// marketplace.
func TestNetworkPartnersList(t *testing.T) {
	t.Parallel()
	f := newNPFixture(t)
	const base = "/api/network_partners/"
	var ids []float64
	for _, siret := range []string{"30000000000001", "30000000000002", "30000000000003"} {
		res := f.call(t, http.MethodPost, base, f.marketTok, body(t, npRequired(), "siret_number", siret))
		if res.Status != http.StatusCreated {
			t.Fatalf("create: %d %s", res.Status, res.Body)
		}
		ids = append(ids, res.JSON(t)["id"].(float64))
	}
	rival := f.call(t, http.MethodPost, base, f.rivalTok, body(t, npRequired(), "siret_number", "30000000000009"))
	if rival.Status != http.StatusCreated {
		t.Fatalf("rival's create: %d %s", rival.Status, rival.Body)
	}

	listed := func(res Response) []float64 {
		t.Helper()
		var out []float64
		for _, p := range res.JSONArray(t) {
			out = append(out, p["id"].(float64))
		}
		return out
	}
	res := f.call(t, http.MethodGet, base, f.marketTok, "")
	if res.Status != 200 || res.Header.Get("X-Total-Count") != "3" || fmt.Sprint(listed(res)) != fmt.Sprint(ids) {
		t.Fatalf("list: %d %v %s", res.Status, res.Header, res.Body)
	}
	if p := res.JSONArray(t)[0]; p["siret_number"] != "30000000000001" || p["status"] != "n" || p["source_id"] != fmt.Sprint(ids[0]) {
		t.Errorf("record: %v", p)
	}

	// Pages of two: the second has the third partner, the links between.
	res = f.call(t, http.MethodGet, base+"?page_size=2", f.marketTok, "")
	if fmt.Sprint(listed(res)) != fmt.Sprint(ids[:2]) || res.Header.Get("X-Total-Count") != "3" ||
		!strings.Contains(res.Header.Get("Link"), `page=2&page_size=2>; rel="next"`) {
		t.Errorf("page 1: %v %s", res.Header, res.Body)
	}
	res = f.call(t, http.MethodGet, base+"?page_size=2&page=2", f.marketTok, "")
	if fmt.Sprint(listed(res)) != fmt.Sprint(ids[2:]) || !strings.Contains(res.Header.Get("Link"), `rel="prev"`) {
		t.Errorf("page 2: %v %s", res.Header, res.Body)
	}
	WantResponse(t, f.call(t, http.MethodGet, base+"?page_size=2&page=3", f.marketTok, ""), 404, `{"detail": "Invalid page."}`)
	WantResponse(t, f.call(t, http.MethodGet, base+"?page=x", f.marketTok, ""), 404, `{"detail": "Invalid page."}`)

	// Another marketplace sees its own partner only, and cannot name the
	// market's network.
	res = f.call(t, http.MethodGet, base, f.rivalTok, "")
	if got := listed(res); res.Header.Get("X-Total-Count") != "1" || len(got) != 1 || got[0] != rival.JSON(t)["id"] {
		t.Errorf("rival's list: %v %s", res.Header, res.Body)
	}
	WantResponse(t, f.call(t, http.MethodGet, base+"?marketplace_uuid="+f.market.UUID.String(), f.rivalTok, ""), 400,
		fmt.Sprintf(`{"marketplace_uuid": ["Object with uuid=%s does not exist."]}`, f.market.UUID))

	// Staff name the marketplace; without one, or with one that is no
	// uuid, the answer is a 400.
	res = f.call(t, http.MethodGet, base+"?marketplace_uuid="+f.market.UUID.String(), f.staffTok, "")
	if fmt.Sprint(listed(res)) != fmt.Sprint(ids) {
		t.Errorf("staff's list: %d %s", res.Status, res.Body)
	}
	WantResponse(t, f.call(t, http.MethodGet, base, f.staffTok, ""), 400,
		`{"marketplace_uuid": ["This field is required: staff name the partner the record belongs to."]}`)
	WantResponse(t, f.call(t, http.MethodGet, base+"?marketplace_uuid=market", f.staffTok, ""), 400,
		`{"marketplace_uuid": ["Must be a valid UUID."]}`)

	// A marketplace's member reads its own network, empty here; a partner
	// that is not a marketplace has none (403); no token: 401.
	WantResponse(t, f.call(t, http.MethodGet, base, f.viewerTok, ""), 200, `[]`)
	WantResponse(t, f.call(t, http.MethodGet, base, f.shopTok, ""), 403, `{"detail": "You do not have permission to perform this action."}`)
	if res := f.call(t, http.MethodGet, base, "", ""); res.Status != 401 {
		t.Errorf("no token: %d %s", res.Status, res.Body)
	}
}
