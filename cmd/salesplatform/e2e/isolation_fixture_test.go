package e2e

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"net/http"
	"testing"

	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// isoFixture is a running server with one partner's administration records
// (owner's media, voucher prototype, option category, option, voucher and
// giftcard) and the accounts that must not reach them:
//   - rival: a member of another partner holding every permission;
//   - reader: a member of a third partner without permissions;
//   - nobody: no token.
type isoFixture struct {
	*Server
	db                             *bun.DB
	ownerTok, rivalTok, readerTok  string
	ownerUUID                      string
	universe, giftcardPrototype    int64
	media, prototype, category     int64
	option, giftcard               int64
	mediaUUID, voucher, giftcardNo string
	png                            []byte
	// The owner's network voucher box, an offer in it, a voucher of it and
	// a usage at networkPartner.
	nvBox, nvOffer, nvUsage, networkPartner int64
	// The owner's network giftcard, used and held at networkPartner.
	owner, ngc, ngcUsage, ngcHold, ngcMovement int64
	ngcCode                                    string
	// The owner's multi-product cart.
	mpCart string
	// The owner's payment-hub partner (it refers it), its KYC document,
	// its wallet, with a movement, and its payment; the wallet of the
	// owner's network giftcard (the card's uuid).
	hubPartner, hubWallet, ngcUUID, payment string
	kycDocument                             int64
	// The payout request of the hub partner's payment.
	payout int64
	// A payment request of the owner's payment-hub partner.
	paymentRequest int64
	// The owner's (inactive) e-commerce product, and a paid order of it.
	shopProduct, shopOrder int64
	// The owner's webhook endpoint.
	webhookEndpoint int64
}

// isoHold is the reservation id of the owner's hold.
const isoHold = "ISO-HOLD"

// isoNetworkVoucher is the code of the owner's network voucher.
const isoNetworkVoucher = "ISO-NV-0001"

// isoSecret marks the owner's texts: no answer to another account holds it.
const isoSecret = "OWNER-ONLY"

func newIsoFixture(t *testing.T) *isoFixture {
	t.Helper()
	ctx := context.Background()
	dsn := dbtest.NewDSN(t)
	// Owner and rival are marketplaces, so that their networks can be
	// probed too.
	every := []string{"--permission", domain.PermManageMasterAdmin, "--permission", domain.PermUseVoucher,
		"--permission", domain.PermAccessConfigurationMarketplaces, "--permission", domain.PermUseNetworkGiftcardAPI,
		"--permission", domain.PermCreateNetworkGiftcardAPI, "--permission", domain.PermAccessFinancialOrderLines,
		"--marketplace"}
	f := &isoFixture{
		ownerTok: CreateUser(t, dsn, append([]string{"--username", "owner", "--password", "owner-password",
			"--partner-name", "Owner"}, every...)...),
		rivalTok: CreateUser(t, dsn, append([]string{"--username", "rival", "--password", "rival-password",
			"--partner-name", "Rival"}, every...)...),
		readerTok: CreateUser(t, dsn, "--username", "reader", "--password", "reader-password", "--partner-name", "Reader"),
	}
	staffTok := CreateUser(t, dsn, "--username", "staff", "--password", "staff-password", "--staff")
	f.Server = Serve(t, dsn, append([]string{"--data-dir", t.TempDir()}, isoAllowedNetworks...)...)
	db, err := persistence.Open(ctx, dsn)
	gcMust(t, err)
	t.Cleanup(func() { db.Close() })
	f.db = db
	gcMust(t, db.NewRaw(`SELECT id, uuid::text FROM partners WHERE name = 'Owner'`).Scan(ctx, &f.owner, &f.ownerUUID))
	ownerID := f.owner
	gcMust(t, db.NewRaw(`INSERT INTO universes (name) VALUES ('{"fr": "Séjours"}') RETURNING id`).Scan(ctx, &f.universe))
	gcMust(t, db.NewRaw(`INSERT INTO giftcard_prototypes (partner_id) VALUES (?) RETURNING id`, ownerID).Scan(ctx, &f.giftcardPrototype))

	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	var b bytes.Buffer
	gcMust(t, png.Encode(&b, img))
	f.png = b.Bytes()

	// The owner's records, written through the API as a client would,
	// area by area.
	f.seedAdmin(t, staffTok)
	f.seedNetwork(t)
	f.seedPayments(t)
	f.seedEcommerce(t)
	f.seedOrder(t)
	f.seedWebhooks(t)
	return f
}

// The owner's network partner's siret and source id.
const isoSiret, isoSourceID = "99988877700011", "4242"

// rest sends a body of contentType with token ("" for none).
func (f *isoFixture) rest(t *testing.T, method, path, token, body, contentType string) Response {
	t.Helper()
	h := []string{"Content-Type", contentType}
	if token != "" {
		h = append(h, auth(token)...)
	}
	return Do(t, method, f.URL+path, body, h...)
}

func (f *isoFixture) mustOK(t *testing.T, status int, res Response) map[string]any {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status %d, want %d: %s", res.Status, status, res.Body)
	}
	return res.JSON(t)
}

// graph sends a GraphQL operation with token ("" for none).
func (f *isoFixture) graph(t *testing.T, token, query string, vars map[string]any) Response {
	t.Helper()
	h := []string{}
	if token != "" {
		h = auth(token)
	}
	return Do(t, http.MethodPost, f.URL+"/graphql", jsonOf(t, map[string]any{"query": query, "variables": vars}), h...)
}

func (f *isoFixture) graphOK(t *testing.T, token, query string, vars map[string]any) map[string]any {
	t.Helper()
	res := f.graph(t, token, query, vars).JSON(t)
	if res["errors"] != nil {
		t.Fatalf("%s: %v", query, res["errors"])
	}
	return res["data"].(map[string]any)
}
