package network_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/network"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// npFixture is two marketplaces (market, rival) and a partner that is not
// one (shop), with the network partner service.
type npFixture struct {
	db                  *bun.DB
	svc                 *network.PartnerService
	market, rival, shop *domain.Partner
	// asMarket is the marketplace's member allowed to change its network.
	asMarket, asRival context.Context
}

func newNPFixture(t *testing.T) *npFixture {
	t.Helper()
	db := dbtest.New(t)
	partners := persistence.NewDatabase(db).Stores().Partners
	f := &npFixture{db: db, svc: network.NewPartnerService(persistence.NewUnitOfWork(db, persistence.NetworkStores),
		idempotency.NewGuard(persistence.NewIdempotencyStore(db)))}
	f.market = dbtest.MustPartner(t, partners, &domain.Partner{Name: "Market", IsMarketplace: true, Currency: "CHF", TimeZone: "Europe/Zurich"})
	f.rival = dbtest.MustPartner(t, partners, &domain.Partner{Name: "Rival", IsMarketplace: true})
	f.shop = dbtest.MustPartner(t, partners, &domain.Partner{Name: "Shop"})
	f.asMarket = asMember(f.market, domain.PermAccessConfigurationMarketplaces)
	f.asRival = asMember(f.rival, domain.PermAccessConfigurationMarketplaces)
	return f
}

// asMember is a context whose caller is a user of p holding perms.
func asMember(p *domain.Partner, perms ...string) context.Context {
	return domain.WithCaller(context.Background(), &domain.Caller{User: &domain.User{ID: 2}, Partner: p, Permissions: perms})
}

// npBody is a creation body with every required field, changed by kv
// (a nil value removes the field).
func npBody(t *testing.T, kv ...any) map[string]any {
	t.Helper()
	m := map[string]any{"name": "Spa des Alpes", "commercial_name": "Spa des Alpes", "short_name": "SPA",
		"siret_number": "12345678900012", "legal_representative_first_name": "Anne",
		"legal_representative_last_name": "Dupont", "hq_address_line_1": "1 rue Haute", "hq_postal_code": "74000",
		"hq_city": "Annecy", "hq_country": "FR", "rcs": "RCS Annecy 123", "ape": "9604Z", "vat_id": "FR12345678901",
		"agency_email": "contact@spa.example.com", "website": "https://spa.example.com"}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(m, kv[i].(string))
		} else {
			m[kv[i].(string)] = kv[i+1]
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return dbtest.JSON(t, string(b)).(map[string]any)
}

func doc(t *testing.T, s string) map[string]any {
	t.Helper()
	return dbtest.JSON(t, s).(map[string]any)
}

func (f *npFixture) count(t *testing.T, q string, args ...any) int {
	t.Helper()
	var n int
	if err := f.db.NewRaw(q, args...).Scan(context.Background(), &n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// rows is a digest of every table a creation or an update writes.
func (f *npFixture) rows(t *testing.T) string {
	t.Helper()
	var out []string
	for _, table := range []string{"partners", "partner_legal_information", "partner_tags", "network_partners",
		"network_giftcard_allowed_partners", "network_voucher_allowed_partners"} {
		var digest string
		err := f.db.NewRaw(`SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '') FROM ? t`,
			bun.Ident(table)).Scan(context.Background(), &digest)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, table+"="+digest)
	}
	return strings.Join(out, " ")
}

// A creation with every field gives a partner of status n in the
// marketplace's network, with its company record, tags and settings
// links, in the marketplace's currency and zone.
func TestCreateNetworkPartner(t *testing.T) {
	t.Parallel()
	f := newNPFixture(t)
	p, err := f.svc.CreateNetworkPartner(f.asMarket, npInput(t, npBody(t, "company_type", "sol", "legal_representative_birthday", "1980-05-17",
		"hq_address_line_2", "Bâtiment B", "agency_phone", "+33 4 50 00 00 00", "link_to_nv_settings", true,
		"link_to_ngc_settings", "true", "partner_tags", []any{map[string]any{"tag": "spa"}, map[string]any{"tag": "montagne"},
			map[string]any{"tag": "spa"}}, "unknown", "ignored")))
	if err != nil {
		t.Fatal(err)
	}
	want := network.Company{CommercialName: "Spa des Alpes", ShortName: "SPA", CompanyType: "sol", SiretNumber: "12345678900012",
		LegalRepresentativeFirstName: "Anne", LegalRepresentativeLastName: "Dupont", HQAddressLine1: "1 rue Haute",
		HQAddressLine2: "Bâtiment B", HQPostalCode: "74000", HQCity: "Annecy", HQCountry: "FR", RCS: "RCS Annecy 123",
		APE: "9604Z", VATID: "FR12345678901", AgencyEmail: "contact@spa.example.com", AgencyPhone: "+33 4 50 00 00 00",
		Website: "https://spa.example.com"}
	birthday := p.LegalRepresentativeBirthday
	p.LegalRepresentativeBirthday = nil
	if p.Company != want {
		t.Errorf("company = %+v\nwant      %+v", p.Company, want)
	}
	if birthday == nil || birthday.Format("2006-01-02T15:04:05Z07:00") != "1980-05-17T00:00:00Z" {
		t.Errorf("birthday = %v", birthday)
	}
	if p.Status != "n" || p.Name != "Spa des Alpes" || p.MarketplaceID != f.market.ID || p.SourceID == nil ||
		*p.SourceID != strconv.FormatInt(p.ID, 10) || !p.LinkedToNVSettings || !p.LinkedToNGCSettings ||
		strings.Join(p.Tags, ",") != "spa,montagne" || p.HideFromStats || p.ThirdPartySalesOnly || p.ReferrerID != nil {
		t.Errorf("network partner = %+v", p)
	}
	var currency, zone string
	var marketplace bool
	if err := f.db.NewRaw("SELECT currency, time_zone, is_marketplace FROM partners WHERE id = ?", p.ID).
		Scan(context.Background(), &currency, &zone, &marketplace); err != nil || currency != "CHF" || zone != "Europe/Zurich" || marketplace {
		t.Errorf("partner row: %s %s %v, %v", currency, zone, marketplace, err)
	}
	if n := f.count(t, `SELECT count(*) FROM network_giftcard_allowed_partners WHERE marketplace_id = ? AND partner_id = ?`,
		f.market.ID, p.ID); n != 1 {
		t.Errorf("%d network giftcard settings links", n)
	}

	// Without links or tags, with a source id of its own, written
	// without its leading zeros.
	q, err := f.svc.CreateNetworkPartner(f.asMarket, npInput(t, npBody(t, "siret_number", "98765432100010", "source_id", "0042")))
	if err != nil {
		t.Fatal(err)
	}
	if *q.SourceID != "42" || q.LinkedToNVSettings || q.LinkedToNGCSettings || len(q.Tags) != 0 || q.CompanyType != "" ||
		q.LegalRepresentativeBirthday != nil {
		t.Errorf("second partner = %+v", q)
	}
	// The same siret in another marketplace's network is another partner.
	if _, err := f.svc.CreateNetworkPartner(f.asRival, npInput(t, npBody(t, "source_id", "42"))); err != nil {
		t.Errorf("rival's partner with the same siret and source id: %v", err)
	}
	// Staff name the marketplace.
	if s, err := f.svc.CreateNetworkPartner(dbtest.AsStaff(), npInput(t, npBody(t, "siret_number", "1", "marketplace_uuid", f.market.UUID.String()))); err != nil || s.MarketplaceID != f.market.ID {
		t.Errorf("staff create = %+v, %v", s, err)
	}
}

// Every rule of the creation's body, each a field error with DRF's
// message, and nothing written.
func TestCreateNetworkPartnerRules(t *testing.T) {
	t.Parallel()
	f := newNPFixture(t)
	if _, err := f.svc.CreateNetworkPartner(f.asMarket, npInput(t, npBody(t, "source_id", "7"))); err != nil {
		t.Fatal(err)
	}
	before := f.rows(t)

	required := map[string]string{}
	for _, field := range []string{"name", "commercial_name", "short_name", "siret_number", "legal_representative_first_name",
		"legal_representative_last_name", "hq_address_line_1", "hq_postal_code", "hq_city", "hq_country", "rcs", "ape",
		"vat_id", "agency_email", "website"} {
		required[field] = domain.MsgRequired
	}
	_, err := f.svc.CreateNetworkPartner(f.asMarket, npInput(t, doc(t, `{}`)))
	dbtest.WantFieldErrors(t, err, required)
	blank := map[string]string{}
	for field := range required {
		blank[field] = domain.MsgBlank
	}
	kv := []any{}
	for field := range blank {
		kv = append(kv, field, "  ")
	}
	_, err = f.svc.CreateNetworkPartner(f.asMarket, npInput(t, npBody(t, kv...)))
	dbtest.WantFieldErrors(t, err, blank)

	for _, c := range []struct {
		kv   []any
		want map[string]string
	}{
		{[]any{"hq_postal_code", "74000-1234X"}, map[string]string{"hq_postal_code": "Ensure this field has no more than 10 characters."}},
		{[]any{"company_type", "sarl"}, map[string]string{"company_type": `"sarl" is not a valid choice.`}},
		{[]any{"agency_email", "contact@spa"}, map[string]string{"agency_email": domain.MsgEmail}},
		{[]any{"website", "spa.example.com"}, map[string]string{"website": "Enter a valid URL."}},
		{[]any{"website", "ftp://spa.example.com"}, map[string]string{"website": "Enter a valid URL."}},
		{[]any{"name", strings.Repeat("n", 256)}, map[string]string{"name": "Ensure this field has no more than 255 characters."}},
		{[]any{"source_id", "7", "siret_number", "3"}, map[string]string{"source_id": network.MsgSourceIDTaken}},
		{[]any{"source_id", "0"}, map[string]string{"source_id": network.MsgSourceID}},
		{[]any{"source_id", "+8"}, map[string]string{"source_id": network.MsgSourceID}},
		{[]any{"source_id", "A-12"}, map[string]string{"source_id": network.MsgSourceID}},
		{[]any{"source_id", "9223372036854775808"}, map[string]string{"source_id": network.MsgSourceID}},
		{[]any{"source_id", true}, map[string]string{"source_id": network.MsgSourceID}},
		{[]any{"siret_number", "12345678900012", "source_id", "8"}, map[string]string{"siret_number": network.MsgSiretTaken}},
		{[]any{"partner_tags", []any{map[string]any{"tag": "ok"}, map[string]any{"tag": ""}, map[string]any{},
			map[string]any{"tag": strings.Repeat("t", 65)}}},
			map[string]string{"partner_tags.1.tag": domain.MsgBlank, "partner_tags.2.tag": domain.MsgRequired,
				"partner_tags.3.tag": "Ensure this field has no more than 64 characters."}},
		{[]any{"partner_tags", make([]any, 21)}, map[string]string{"partner_tags": "Ensure this field has no more than 20 elements."}},
		{[]any{"marketplace_uuid", f.rival.UUID.String()}, map[string]string{"marketplace_uuid": fmt.Sprintf("Object with uuid=%s does not exist.", f.rival.UUID)}},
	} {
		_, err := f.svc.CreateNetworkPartner(f.asMarket, npInput(t, npBody(t, c.kv...)))
		dbtest.WantFieldErrors(t, err, c.want)
	}
	// Staff must name a marketplace.
	_, err = f.svc.CreateNetworkPartner(dbtest.AsStaff(), npInput(t, npBody(t, "siret_number", "1")))
	dbtest.WantFieldErrors(t, err, map[string]string{"marketplace_uuid": "This field is required: staff name the partner the record belongs to."})
	_, err = f.svc.CreateNetworkPartner(dbtest.AsStaff(), npInput(t, npBody(t, "siret_number", "1", "marketplace_uuid", f.shop.UUID.String())))
	dbtest.WantFieldErrors(t, err, map[string]string{"marketplace_uuid": network.MsgNotMarketplace})

	if after := f.rows(t); after != before {
		t.Errorf("refused creations wrote:\n%s\n%s", before, after)
	}
}

// failingLinks fails LinkSettings, the last write of a creation.
type failingLinks struct{ network.PartnerStore }

var errLinks = errors.New("settings link refused")

func (failingLinks) LinkSettings(context.Context, int64, int64, network.SettingsLinks) error {
	return errLinks
}

// A creation that fails after its first writes leaves nothing: the
// partner, its company record, tags and network link go with it.
func TestCreateNetworkPartnerIsOneTransaction(t *testing.T) {
	t.Parallel()
	f := newNPFixture(t)
	before := f.rows(t)
	failing := network.NewPartnerService(persistence.NewUnitOfWork(f.db, func(db bun.IDB) network.Stores {
		s := persistence.NetworkStores(db)
		s.Partners = failingLinks{s.Partners}
		return s
	}), nil)
	_, err := failing.CreateNetworkPartner(f.asMarket, npInput(t, npBody(t, "partner_tags", []any{map[string]any{"tag": "spa"}})))
	if !errors.Is(err, errLinks) {
		t.Fatalf("error = %v, want the failing link", err)
	}
	if after := f.rows(t); after != before {
		t.Errorf("a failed creation wrote:\n%s\n%s", before, after)
	}

	// The default source id, the new partner's id, taken by another
	// partner: refused once the partner row is written, which goes too.
	var next int64
	if err := f.db.NewRaw("SELECT nextval(pg_get_serial_sequence('partners', 'id')) + 1").Scan(context.Background(), &next); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.CreateNetworkPartner(f.asMarket, npInput(t, npBody(t, "siret_number", "1", "source_id", strconv.FormatInt(next+1, 10)))); err != nil {
		t.Fatal(err)
	}
	before = f.rows(t)
	_, err = f.svc.CreateNetworkPartner(f.asMarket, npInput(t, npBody(t, "siret_number", "2")))
	dbtest.WantFieldErrors(t, err, map[string]string{"source_id": fmt.Sprintf(network.MsgDefaultSourceTaken, next+1)})
	if after := f.rows(t); after != before {
		t.Errorf("a refused default source id wrote:\n%s\n%s", before, after)
	}
}

// Updates find the partner by source_id or siret_number in the caller's
// network only, change what the body gives, and refuse the rest.
func TestUpdateNetworkPartner(t *testing.T) {
	t.Parallel()
	f := newNPFixture(t)
	p, err := f.svc.CreateNetworkPartner(f.asMarket, npInput(t, npBody(t, "source_id", "100", "link_to_ngc_settings", true)))
	if err != nil {
		t.Fatal(err)
	}
	other, err := f.svc.CreateNetworkPartner(f.asMarket, npInput(t, npBody(t, "source_id", "101", "siret_number", "55500000000001")))
	if err != nil {
		t.Fatal(err)
	}
	rivals, err := f.svc.CreateNetworkPartner(f.asRival, npInput(t, npBody(t, "source_id", "102", "siret_number", "55500000000002")))
	if err != nil {
		t.Fatal(err)
	}

	u, err := f.svc.UpdateNetworkPartner(f.asMarket, npUpdate(t, doc(t, `{"source_id": "100", "status": "i", "hide_from_stats": true,
		"referrer": `+strconv.FormatInt(other.ID, 10)+`, "link_to_nv_settings": true, "link_to_ngc_settings": false}`)))
	if err != nil {
		t.Fatal(err)
	}
	if u.ID != p.ID || u.Status != "i" || !u.HideFromStats || u.ThirdPartySalesOnly || u.ReferrerID == nil ||
		*u.ReferrerID != other.ID || !u.LinkedToNVSettings || u.LinkedToNGCSettings || u.Name != p.Name {
		t.Errorf("updated = %+v", u)
	}
	// By siret, by both, source id as a JSON integer; only what is given changes.
	u, err = f.svc.UpdateNetworkPartner(f.asMarket, npUpdate(t, doc(t, `{"siret_number": "12345678900012", "status": "n", "third_party_sales_only": true,
		"referrer": null}`)))
	if err != nil || u.ID != p.ID || u.Status != "n" || !u.HideFromStats || !u.ThirdPartySalesOnly || u.ReferrerID != nil || !u.LinkedToNVSettings {
		t.Errorf("by siret = %+v, %v", u, err)
	}
	u, err = f.svc.UpdateNetworkPartner(f.asMarket, npUpdate(t, doc(t, `{"source_id": 100, "siret_number": "12345678900012",
		"referrer": `+strconv.FormatInt(f.market.ID, 10)+`}`)))
	if err != nil || u.ReferrerID == nil || *u.ReferrerID != f.market.ID {
		t.Errorf("by both = %+v, %v", u, err)
	}
	// Beside siret_number, source_id is the partner's new source id: the id
	// the marketplace's own system knows it by (another network's source
	// id is no obstacle), which then names it.
	u, err = f.svc.UpdateNetworkPartner(f.asMarket, npUpdate(t, doc(t, `{"siret_number": "12345678900012", "source_id": "102"}`)))
	if err != nil || u.ID != p.ID || u.SourceID == nil || *u.SourceID != "102" {
		t.Errorf("new source id = %+v, %v", u, err)
	}
	var holder int64
	if err := f.db.NewRaw(`SELECT partner_id FROM network_partners WHERE marketplace_id = ? AND source_id = '102'`, f.market.ID).
		Scan(context.Background(), &holder); err != nil || holder != p.ID {
		t.Errorf("stored source id 102: partner %d, %v", holder, err)
	}
	_, err = f.svc.UpdateNetworkPartner(f.asMarket, npUpdate(t, doc(t, `{"source_id": "100"}`)))
	dbtest.WantCode(t, err, domain.CodeNotFound)
	u, err = f.svc.UpdateNetworkPartner(f.asMarket, npUpdate(t, doc(t, `{"source_id": "102", "siret_number": "12345678900012"}`)))
	if err != nil || u.ID != p.ID || *u.SourceID != "102" {
		t.Errorf("the same source id again = %+v, %v", u, err)
	}
	if u, err = f.svc.UpdateNetworkPartner(f.asMarket, npUpdate(t, doc(t, `{"siret_number": "12345678900012", "source_id": "0100"}`))); err != nil || *u.SourceID != "100" {
		t.Errorf("source id back = %+v, %v", u, err)
	}
	var status string
	var hidden bool
	if err := f.db.NewRaw(`SELECT p.status, li.hide_from_stats FROM partners p JOIN partner_legal_information li ON li.partner_id = p.id
		WHERE p.id = ?`, p.ID).Scan(context.Background(), &status, &hidden); err != nil || status != "n" || !hidden {
		t.Errorf("stored: %s %v, %v", status, hidden, err)
	}

	before := f.rows(t)
	for _, c := range []struct {
		body string
		want map[string]string
	}{
		{`{"status": "i"}`, map[string]string{"": network.MsgSourceOrSiret}},
		{`{"source_id": "100", "siret_number": "55500000000001"}`, map[string]string{"source_id": network.MsgSourceIDTaken}},
		{`{"siret_number": "12345678900012", "source_id": "x"}`, map[string]string{"source_id": network.MsgSourceID}},
		{`{"source_id": "100", "status": "a"}`, map[string]string{"status": `"a" is not a valid choice.`}},
		{`{"source_id": "100", "status": "t"}`, map[string]string{"status": `"t" is not a valid choice.`}},
		{`{"source_id": "x100"}`, map[string]string{"source_id": network.MsgSourceID}},
		{`{"source_id": "100", "referrer": ` + strconv.FormatInt(rivals.ID, 10) + `}`,
			map[string]string{"referrer": fmt.Sprintf(domain.MsgPKMissing, rivals.ID)}},
		{`{"source_id": "100", "referrer": ` + strconv.FormatInt(f.shop.ID, 10) + `}`,
			map[string]string{"referrer": fmt.Sprintf(domain.MsgPKMissing, f.shop.ID)}},
		{`{"source_id": "100", "referrer": ` + strconv.FormatInt(p.ID, 10) + `}`, map[string]string{"referrer": network.MsgOwnReferrer}},
	} {
		_, err := f.svc.UpdateNetworkPartner(f.asMarket, npUpdate(t, doc(t, c.body)))
		dbtest.WantFieldErrors(t, err, c.want)
	}
	if after := f.rows(t); after != before {
		t.Errorf("refused updates wrote:\n%s\n%s", before, after)
	}
	// Another marketplace's partner, by source id or siret, and unknown
	// ones: not found.
	for _, body := range []string{`{"source_id": "102"}`, `{"siret_number": "55500000000002"}`, `{"source_id": "999"}`,
		`{"siret_number": "0"}`} {
		_, err := f.svc.UpdateNetworkPartner(f.asMarket, npUpdate(t, doc(t, body)))
		dbtest.WantCode(t, err, domain.CodeNotFound)
	}
	// A siret two partners of the network have (their legal information
	// changed in the catalogue) cannot name one.
	if _, err := f.db.NewRaw("UPDATE partner_legal_information SET siret_number = '12345678900012' WHERE partner_id = ?", other.ID).
		Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	before = f.rows(t)
	_, err = f.svc.UpdateNetworkPartner(f.asMarket, npUpdate(t, doc(t, `{"siret_number": "12345678900012", "status": "i"}`)))
	dbtest.WantFieldErrors(t, err, map[string]string{"": network.MsgSiretAmbiguous})
	if after := f.rows(t); after != before {
		t.Errorf("refused updates wrote:\n%s\n%s", before, after)
	}
	// Staff name the marketplace.
	_, err = f.svc.UpdateNetworkPartner(dbtest.AsStaff(), npUpdate(t, doc(t, `{"source_id": "102"}`)))
	dbtest.WantFieldErrors(t, err, map[string]string{"marketplace_uuid": "This field is required: staff name the partner the record belongs to."})
	if u, err := f.svc.UpdateNetworkPartner(dbtest.AsStaff(), npUpdate(t, doc(t, `{"source_id": "102", "status": "i", "marketplace_uuid": "`+f.rival.UUID.String()+`"}`))); err != nil || u.ID != rivals.ID || u.Status != "i" {
		t.Errorf("staff update = %+v, %v", u, err)
	}
}

// Who may: a marketplace's member with access_configuration_marketplaces
// writes, any member of a marketplace checks; a partner that is not a
// marketplace is refused both, and so is an anonymous caller.
func TestNetworkPartnerPermissions(t *testing.T) {
	t.Parallel()
	f := newNPFixture(t)
	if _, err := f.svc.CreateNetworkPartner(f.asMarket, npInput(t, npBody(t))); err != nil {
		t.Fatal(err)
	}
	before := f.rows(t)
	for name, c := range map[string]struct {
		ctx         context.Context
		write, read domain.Code
	}{
		"anonymous":                           {context.Background(), domain.CodeUnauthenticated, domain.CodeUnauthenticated},
		"marketplace without the permission":  {asMember(f.market), domain.CodeForbidden, ""},
		"not a marketplace, with permissions": {asMember(f.shop, domain.PermAccessConfigurationMarketplaces), domain.CodeForbidden, domain.CodeForbidden},
		"user without a partner":              {domain.WithCaller(context.Background(), &domain.Caller{User: &domain.User{ID: 3}, Permissions: []string{domain.PermAccessConfigurationMarketplaces}}), domain.CodeForbidden, domain.CodeForbidden},
	} {
		_, err := f.svc.CreateNetworkPartner(c.ctx, npInput(t, npBody(t, "siret_number", "2")))
		if domain.ErrorCode(err) != c.write {
			t.Errorf("%s: create: %v, want %s", name, err, c.write)
		}
		_, err = f.svc.UpdateNetworkPartner(c.ctx, npUpdate(t, doc(t, `{"siret_number": "12345678900012", "status": "i"}`)))
		if domain.ErrorCode(err) != c.write {
			t.Errorf("%s: update: %v, want %s", name, err, c.write)
		}
		_, err = f.svc.CheckPartner(c.ctx, "12345678900012", "Spa des Alpes")
		if c.read != "" && domain.ErrorCode(err) != c.read || c.read == "" && err != nil {
			t.Errorf("%s: check: %v, want %q", name, err, c.read)
		}
	}
	if after := f.rows(t); after != before {
		t.Errorf("refused callers wrote:\n%s\n%s", before, after)
	}
}

// A check finds a partner of the caller's network by siret and
// commercial name, the name in any case; another network's partner is
// not found; staff find any partner.
func TestCheckPartner(t *testing.T) {
	t.Parallel()
	f := newNPFixture(t)
	p, err := f.svc.CreateNetworkPartner(f.asMarket, npInput(t, npBody(t, "commercial_name", "École du Lac")))
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.svc.CreateNetworkPartner(f.asRival, npInput(t, npBody(t, "siret_number", "777", "commercial_name", "Rival Spa")))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"École du Lac", "ÉCOLE DU LAC", " école du lac "} {
		if id, err := f.svc.CheckPartner(f.asMarket, "12345678900012", name); err != nil || id != p.ID {
			t.Errorf("check %q = %d, %v; want %d", name, id, err, p.ID)
		}
	}
	for _, c := range [][2]string{{"12345678900012", "Ecole du Lac"}, {"12345678900013", "École du Lac"}, {"777", "Rival Spa"}} {
		_, err := f.svc.CheckPartner(f.asMarket, c[0], c[1])
		dbtest.WantCode(t, err, domain.CodeNotFound)
	}
	if id, err := f.svc.CheckPartner(dbtest.AsStaff(), "777", "rival spa"); err != nil || id != r.ID {
		t.Errorf("staff check = %d, %v; want %d", id, err, r.ID)
	}
	_, err = f.svc.CheckPartner(f.asMarket, "", " ")
	dbtest.WantFieldErrors(t, err, map[string]string{"siret_number": domain.MsgRequired, "commercial_name": domain.MsgRequired})
	_, err = f.svc.CheckPartner(f.asMarket, strings.Repeat("1", 256), "x")
	dbtest.WantFieldErrors(t, err, map[string]string{"siret_number": "Ensure this field has no more than 255 characters."})
}

// The acceptor reads of the uses of network gifts: by source id or
// partner id, in the marketplace's network only, with its settings links.
// A link made without a source id (the catalogue's management) gets the
// partner's id, unless the network already has it.
func TestAcceptor(t *testing.T) {
	t.Parallel()
	f := newNPFixture(t)
	p, err := f.svc.CreateNetworkPartner(f.asMarket, npInput(t, npBody(t, "source_id", "555", "link_to_nv_settings", true)))
	if err != nil {
		t.Fatal(err)
	}
	store := persistence.NetworkStores(f.db).Partners
	ctx := context.Background()
	a, err := store.Acceptor(ctx, f.market.ID, "555")
	if err != nil || *a != (network.Acceptor{PartnerID: p.ID, MarketplaceID: f.market.ID, SourceID: "555", Status: "n", LinkedToNVSettings: true}) {
		t.Errorf("acceptor = %+v, %v", a, err)
	}
	if b, err := store.AcceptorByPartnerID(ctx, f.market.ID, p.ID); err != nil || *b != *a {
		t.Errorf("by partner id = %+v, %v", b, err)
	}
	for _, err := range []error{
		func() error { _, err := store.Acceptor(ctx, f.rival.ID, "555"); return err }(),
		func() error { _, err := store.Acceptor(ctx, f.market.ID, "556"); return err }(),
		func() error { _, err := store.AcceptorByPartnerID(ctx, f.rival.ID, p.ID); return err }(),
	} {
		dbtest.WantCode(t, err, domain.CodeNotFound)
	}

	// Links made without a source id.
	if _, err := f.db.NewRaw("INSERT INTO network_partners (marketplace_id, partner_id) VALUES (?, ?)", f.market.ID, f.shop.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if a, err := store.Acceptor(ctx, f.market.ID, strconv.FormatInt(f.shop.ID, 10)); err != nil || a.PartnerID != f.shop.ID {
		t.Errorf("default source id: %+v, %v", a, err)
	}
	if _, err := f.db.NewRaw("INSERT INTO network_partners (marketplace_id, partner_id, source_id) VALUES (?, ?, ?)",
		f.rival.ID, p.ID, strconv.FormatInt(f.shop.ID, 10)).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.NewRaw("INSERT INTO network_partners (marketplace_id, partner_id) VALUES (?, ?)", f.rival.ID, f.shop.ID).Exec(ctx); err != nil {
		t.Fatalf("a link whose default source id is taken: %v", err)
	}
	if n := f.count(t, "SELECT count(*) FROM network_partners WHERE marketplace_id = ? AND partner_id = ? AND source_id IS NULL",
		f.rival.ID, f.shop.ID); n != 1 {
		t.Errorf("the link whose default is taken has a source id")
	}
}

// A partner of two networks, put in them otherwise than by their
// creation: neither marketplace may change its own settings (the other's
// partner, or a shop with status a, would change under it); both may
// change their links.
func TestUpdateNetworkPartnerOfAnotherNetwork(t *testing.T) {
	t.Parallel()
	f := newNPFixture(t)
	for _, m := range []*domain.Partner{f.market, f.rival} {
		if _, err := f.db.ExecContext(context.Background(), `INSERT INTO network_partners (marketplace_id, partner_id, source_id)
			VALUES (?, ?, '777')`, m.ID, f.shop.ID); err != nil {
			t.Fatal(err)
		}
	}
	for _, body := range []string{`{"source_id": "777", "status": "i"}`, `{"source_id": "777", "hide_from_stats": true}`,
		`{"source_id": "777", "referrer": null}`} {
		_, err := f.svc.UpdateNetworkPartner(f.asMarket, npUpdate(t, doc(t, body)))
		if e := dbtest.WantCode(t, err, domain.CodeInvalid); len(e.Fields) != 1 || e.Fields[0].Message != network.MsgNotCreatedHere {
			t.Errorf("%s: %+v", body, e.Fields)
		}
	}
	p, err := f.svc.UpdateNetworkPartner(f.asMarket, npUpdate(t, doc(t, `{"source_id": "777", "link_to_ngc_settings": true}`)))
	if err != nil || !p.LinkedToNGCSettings {
		t.Fatalf("link = %+v, %v", p, err)
	}
	if n := f.count(t, "SELECT count(*) FROM partners WHERE id = ? AND status = 'a'", f.shop.ID); n != 1 {
		t.Errorf("the shop's status changed")
	}
}
