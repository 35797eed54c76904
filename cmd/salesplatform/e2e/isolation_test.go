package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/uptrace/bun"
)

// Every administration operation, REST and GraphQL, as the
// accounts that must not reach the owner's records, and with malformed
// bodies: each is refused (or lists nothing of the owner's) and nothing is
// written. Each area keeps its rows in isolation_<area>_test.go.
func TestAdminIsolation(t *testing.T) {
	t.Parallel()
	f := newIsoFixture(t)
	before := f.snapshot(t)
	var rest []isoREST
	var graph []isoGraph
	var uploads, malformedGraph []isoCheck
	var malformed []isoMalformed
	for _, a := range isoAreas {
		rest = append(rest, a.rest(f, t)...)
		graph = append(graph, a.graph(f)...)
		uploads = append(uploads, a.uploads...)
		malformed = append(malformed, a.malformed(f, t)...)
		malformedGraph = append(malformedGraph, a.malformedGraph...)
	}

	for _, op := range rest {
		t.Run("REST "+op.method+" "+op.path, func(t *testing.T) { f.checkREST(t, op) })
	}
	for _, op := range graph {
		t.Run("GraphQL "+op.name, func(t *testing.T) { f.checkGraph(t, op) })
	}
	for _, c := range uploads {
		t.Run(c.name, func(t *testing.T) { c.run(f, t) })
	}
	// Malformed bodies, sent by the owner itself: 400 and nothing written.
	for _, m := range malformed {
		t.Run("malformed "+m.method+" "+m.path+" "+m.body[:min(len(m.body), 24)], func(t *testing.T) {
			res := Do(t, m.method, f.URL+m.path, m.body, "Content-Type", m.contentType, "Authorization", "Token "+f.ownerTok)
			if res.Status != 400 {
				t.Errorf("status %d, want 400: %s", res.Status, res.Body)
			}
		})
	}
	for _, c := range malformedGraph {
		t.Run(c.name, func(t *testing.T) { c.run(f, t) })
	}

	after := f.snapshot(t)
	for _, table := range isoTables() {
		if before[table] != after[table] {
			t.Errorf("%s changed: %s -> %s", table, before[table], after[table])
		}
	}
}

// isoAreas are the areas whose operations TestAdminIsolation sends, in
// the order it sends them.
var isoAreas = []isoArea{adminIsolation, networkIsolation, paymentsIsolation, ecommerceIsolation, checkoutIsolation, webhooksIsolation}

// isoArea is one area's rows: the tables its operations write, its REST
// and GraphQL operations aimed at the owner's records, its GraphQL
// uploads, and its malformed requests.
type isoArea struct {
	tables         []string
	rest           func(*isoFixture, *testing.T) []isoREST
	graph          func(*isoFixture) []isoGraph
	uploads        []isoCheck
	malformed      func(*isoFixture, *testing.T) []isoMalformed
	malformedGraph []isoCheck
}

// isoREST is one administration REST operation aimed at the owner's
// records. rival is what the other partner's member gets (a list answers
// 200 without the owner's records); reader is what a member without
// permissions gets; owner is what the owner gets for reads (0: a write,
// not sent as the owner).
type isoREST struct {
	method, path, body, contentType string
	owner, rival, reader            int
}

// isoGraph is one administration GraphQL operation aimed at the owner's
// records, and what the rival gets: "" for data without the owner's
// records, "userErrors" for a refused input, else the error code.
type isoGraph struct {
	name, query string
	vars        map[string]any
	rival       string
}

// isoMalformed is a malformed request, sent by the owner: it answers 400.
type isoMalformed struct{ method, path, body, contentType string }

// isoCheck is a subtest of its own, for what a row cannot say.
type isoCheck struct {
	name string
	run  func(*isoFixture, *testing.T)
}

// isoPayload is a mutation's payload, with its typed errors.
const isoPayload = `{ __typename userErrors { field code } errors { field code } }`

// isoID is a numeric id as the graph takes it.
func isoID(n int64) string { return fmt.Sprint(n) }

// checkREST sends op as each account.
func (f *isoFixture) checkREST(t *testing.T, op isoREST) {
	notProvided := `{"detail": "Authentication credentials were not provided."}`
	WantResponse(t, f.rest(t, op.method, op.path, "", op.body, op.contentType), 401, notProvided)
	if op.owner != 0 {
		WantResponse(t, f.rest(t, op.method, op.path, f.ownerTok, op.body, op.contentType), op.owner, "")
	}
	res := f.rest(t, op.method, op.path, f.rivalTok, op.body, op.contentType)
	WantResponse(t, res, op.rival, "")
	f.wantNoSecret(t, res.Body)
	res = f.rest(t, op.method, op.path, f.readerTok, op.body, op.contentType)
	WantResponse(t, res, op.reader, "")
	f.wantNoSecret(t, res.Body)
	if op.reader == 403 {
		WantResponse(t, res, 403, `{"detail": "You do not have permission to perform this action."}`)
	}
}

// checkGraph sends op as each account but the owner.
func (f *isoFixture) checkGraph(t *testing.T, op isoGraph) {
	_, errs := decodeGraph(t, f.graph(t, "", op.query, op.vars))
	if op.name != "viewer" {
		wantGraphCode(t, errs, "UNAUTHENTICATED")
	}
	res := f.graph(t, f.rivalTok, op.query, op.vars)
	f.wantNoSecret(t, res.Body)
	data, errs := decodeGraph(t, res)
	switch op.rival {
	case "":
		if len(errs) > 0 {
			t.Errorf("errors %+v", errs)
		}
	case "userErrors", "errors": // the payload's typed errors
		if len(errs) > 0 || !strings.Contains(string(data), `"`+op.rival+`":[{`) {
			t.Errorf("want %s, got %s %+v", op.rival, data, errs)
		}
	default:
		wantGraphCode(t, errs, op.rival)
	}
	// A member of a third partner without permissions: the network
	// area's writes are refused whole.
	res = f.graph(t, f.readerTok, op.query, op.vars)
	f.wantNoSecret(t, res.Body)
	if strings.HasPrefix(strings.TrimSpace(op.query), "mutation") && strings.Contains(op.name, "Network") {
		_, errs := decodeGraph(t, res)
		wantGraphCode(t, errs, "FORBIDDEN")
	}
}

// isoTables are the tables the administration operations write, area by
// area.
func isoTables() []string {
	var tables []string
	for _, a := range isoAreas {
		tables = append(tables, a.tables...)
	}
	return tables
}

// snapshot is a digest of every row of isoTables: equal snapshots mean
// nothing was written.
func (f *isoFixture) snapshot(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, table := range isoTables() {
		var digest string
		gcMust(t, f.db.NewRaw(`SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '') FROM ? t`,
			bun.Ident(table)).Scan(context.Background(), &digest))
		out[table] = digest
	}
	return out
}

// isoNode reads a record by its global id, with every field that could
// show a secret.
const isoNode = `query($id: ID!) { node(id: $id) { id ... on Partner { uuid name } ... on Media { uuid name }
	... on AdminVoucher { code summary } ... on AdminGiftcard { code } ... on AdminVoucherPrototype { label: name { fr } }
	... on VoucherOption { label: name { fr } } ... on OptionCategory { label: name { fr } }
	... on NetworkGiftcard { code fromGifter } ... on NetworkGiftcardUsage { comment } ... on NetworkGiftcardHold { reservationId }
	... on NetworkGiftcardMovement { reservationId } ... on NetworkPartner { name } ... on NetworkVoucherBox { label: name { fr } }
	... on NetworkVoucherBoxOffer { partnerId } ... on NetworkVoucher { code } ... on NetworkVoucherUsage { comment }
	... on PaymentPartner { name iban } ... on KycDocument { comment } ... on Wallet { balance partner { name } }
	... on MultiProductCart { partnerUuid } ... on Payment { customer { firstName } } ... on EcommerceOrder { buyer { firstName } }
	... on PayoutRequest { uuid amount partner { name iban } } ... on WebhookEndpoint { url description } } }`

// wantNoSecret fails when an answer to another account shows the owner's
// records.
func (f *isoFixture) wantNoSecret(t *testing.T, body string) {
	t.Helper()
	for _, s := range []string{isoSecret, f.voucher, f.giftcardNo, f.mediaUUID, isoNetworkVoucher, f.ngcCode, f.mpCart,
		"FR1420041010050500013M02606"} {
		if strings.Contains(body, s) {
			t.Errorf("the answer shows the owner's %q: %s", s, body)
		}
	}
}
