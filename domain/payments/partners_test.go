package payments_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/payments"
	"salesplatform/persistence"
	"salesplatform/persistence/blobstore"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/psp"
)

// phFixture is two marketplaces (market, rival) and a partner that is not
// one (shop), with the payment-hub partner service on the simulated
// provider and a blob store of its own.
type phFixture struct {
	db                  *bun.DB
	svc                 *payments.HubPartnerService
	sim                 *psp.Sim
	blobDir             string
	market, rival, shop *domain.Partner
	// asMarket and asRival are members of the marketplaces allowed to
	// manage the partners they refer.
	asMarket, asRival context.Context
}

const simBase = "http://api.test"

func newPHFixture(t *testing.T) *phFixture {
	t.Helper()
	db := dbtest.New(t)
	partners := persistence.NewDatabase(db).Stores().Partners
	f := &phFixture{db: db, sim: psp.NewSim(db, simBase), blobDir: t.TempDir()}
	f.svc = payments.NewHubPartnerService(persistence.NewUnitOfWork(db, persistence.PaymentPartnerStores),
		idempotency.NewGuard(persistence.NewIdempotencyStore(db)), f.sim, blobstore.NewLocal(f.blobDir))
	f.market = dbtest.MustPartner(t, partners, &domain.Partner{Name: "Market", IsMarketplace: true, Currency: "CHF", TimeZone: "Europe/Zurich"})
	f.rival = dbtest.MustPartner(t, partners, &domain.Partner{Name: "Rival", IsMarketplace: true})
	f.shop = dbtest.MustPartner(t, partners, &domain.Partner{Name: "Shop"})
	f.asMarket = asMember(f.market, 21, domain.PermAccessConfigurationMarketplaces)
	f.asRival = asMember(f.rival, 22, domain.PermAccessConfigurationMarketplaces)
	return f
}

// asMember is a context whose caller, user id, is a member of p holding
// perms.
func asMember(p *domain.Partner, id int64, perms ...string) context.Context {
	return domain.WithCaller(context.Background(), &domain.Caller{User: &domain.User{ID: id, Username: fmt.Sprintf("user%d", id)},
		Partner: p, Permissions: perms})
}

// asOwn is a member of the payment-hub partner p with manage_masteradmin.
func asOwn(p *payments.Partner) context.Context {
	return asMember(&domain.Partner{ID: p.ID, UUID: p.UUID, Status: p.Status}, 31, domain.PermManageMasterAdmin)
}

const (
	ibanFR   = "FR1420041010050500013M02606"
	ibanMask = "FR14•••••••••••••••••••2606"
)

// phBody is a creation body with every required field, changed by kv (a
// nil value removes the field).
func phBody(t *testing.T, kv ...any) payments.PartnerInput {
	t.Helper()
	m := map[string]any{"status": "a", "commercial_name": "Spa des Alpes", "short_name": "SPA",
		"legal_representative_email": "anne@spa.example.com", "agency_email": "contact@spa.example.com"}
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
	return partnerInput(t, dbtest.JSON(t, string(b)).(map[string]any))
}

func (f *phFixture) count(t *testing.T, q string, args ...any) int {
	t.Helper()
	var n int
	if err := f.db.NewRaw(q, args...).Scan(context.Background(), &n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// create makes a partner of market with kv, and fails the test otherwise.
func (f *phFixture) create(t *testing.T, kv ...any) *payments.Partner {
	t.Helper()
	p, err := f.svc.CreatePartner(f.asMarket, phBody(t, kv...))
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	return p
}

// auditRow is a row of the partner's audit trail.
type auditRow struct {
	ActorUserID *int64          `bun:"actor_user_id"`
	Actor       string          `bun:"actor"`
	Action      string          `bun:"action"`
	Reason      string          `bun:"reason"`
	Before      json.RawMessage `bun:"before"`
	After       json.RawMessage `bun:"after"`
}

func (f *phFixture) audit(t *testing.T, partnerID int64) []auditRow {
	t.Helper()
	var rows []auditRow
	if err := f.db.NewRaw(`SELECT actor_user_id, actor, action, reason, before, after FROM payment_partner_audit
		WHERE partner_id = ? ORDER BY id`, partnerID).Scan(context.Background(), &rows); err != nil {
		t.Fatal(err)
	}
	return rows
}

// jsonOf compares records by value, pointers followed.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// field reads one key of an audit state.
func field(t *testing.T, state json.RawMessage, key string) any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(state, &m); err != nil {
		t.Fatalf("%s: %v", state, err)
	}
	return m[key]
}

func TestCreatePartnerEveryField(t *testing.T) {
	t.Parallel()
	f := newPHFixture(t)
	p := f.create(t, "status", "t", "name", "Spa (legal)", "company_type", "sol", "siret_number", "12345678900012",
		"legal_representative_first_name", "Anne", "legal_representative_last_name", "Dupont",
		"legal_representative_birthday", "1980-05-17T23:30:00-02:00", "hq_address_line_1", "1 rue Haute",
		"hq_address_line_2", "Bât. B", "hq_postal_code", "74000", "hq_city", "Annecy", "hq_country", "FR",
		"rcs", "RCS Annecy 123", "ape", "9604Z", "vat_id", "FR12345678901", "agency_phone", "+33 4 50 00 00 00",
		"website", "https://spa.example.com", "payout_frequency", "bimth", "auto_validate_payout", true,
		"freeze_payout", "true", "block_payout_validation", 1, "hide_from_stats", true, "third_party_sales_only", true,
		"iban", "fr14 2004 1010 0505 0001 3m02 606", "bic", "bnpafrpp", "referrer", f.market.ID)
	want := payments.Partner{ID: p.ID, UUID: p.UUID, Status: "t", Name: "Spa (legal)", Currency: f.market.Currency,
		TimeZone: f.market.TimeZone, Company: domain.Company{
			CommercialName: "Spa des Alpes", ShortName: "SPA", CompanyType: "sol", SiretNumber: "12345678900012",
			LegalRepresentativeFirstName: "Anne", LegalRepresentativeLastName: "Dupont",
			LegalRepresentativeBirthday: p.LegalRepresentativeBirthday, HQAddressLine1: "1 rue Haute", HQAddressLine2: "Bât. B",
			HQPostalCode: "74000", HQCity: "Annecy", HQCountry: "FR", RCS: "RCS Annecy 123", APE: "9604Z", VATID: "FR12345678901",
			AgencyEmail: "contact@spa.example.com", AgencyPhone: "+33 4 50 00 00 00", Website: "https://spa.example.com",
			HideFromStats: true, ThirdPartySalesOnly: true, ReferrerID: &f.market.ID},
		LegalRepresentativeEmail: "anne@spa.example.com", PayoutFrequency: "bimth", AutoValidatePayout: true,
		FreezePayout: true, BlockPayoutValidation: true, IBAN: ibanMask, BIC: "BNPAFRPP"}
	if got, w := jsonOf(t, p), jsonOf(t, want); got != w {
		t.Errorf("created\n%s\nwant\n%s", got, w)
	}
	if b := p.LegalRepresentativeBirthday; b == nil || b.Format("2006-01-02") != "1980-05-17" {
		t.Errorf("birthday = %v, want the date in its own offset, 1980-05-17", b)
	}
	if p.MayTakePayments() {
		t.Error("a partner without an activation may take payments")
	}
	// The IBAN is stored whole; the partner has the marketplace's currency
	// and zone.
	if n := f.count(t, `SELECT count(*) FROM payment_partners pp JOIN partners p ON p.id = pp.partner_id
		WHERE pp.partner_id = ? AND pp.iban = ? AND p.currency = 'CHF' AND p.time_zone = 'Europe/Zurich'`, p.ID, ibanFR); n != 1 {
		t.Errorf("stored IBAN or currency wrong (%d rows)", n)
	}
	staffView, err := f.svc.GetPartner(dbtest.AsStaff(), p.UUID)
	if err != nil || staffView.IBAN != ibanFR {
		t.Errorf("staff read: %v %+v", err, staffView)
	}
	// The audit trail's first entry is the creation, by the marketplace's user.
	trail := f.audit(t, p.ID)
	if len(trail) != 1 || trail[0].Action != payments.AuditCreate || trail[0].Actor != "user21" ||
		trail[0].ActorUserID == nil || *trail[0].ActorUserID != 21 || trail[0].Before != nil ||
		field(t, trail[0].After, "status") != "t" || field(t, trail[0].After, "block_payout_validation") != true {
		t.Errorf("audit trail %+v", trail)
	}
}

func TestCreatePartnerDefaults(t *testing.T) {
	t.Parallel()
	f := newPHFixture(t)
	p := f.create(t)
	if p.Name != "Spa des Alpes" || p.PayoutFrequency != payments.DefaultPayoutFrequency || p.IBAN != "" || p.BIC != "" ||
		p.CompanyType != "" || p.LegalRepresentativeBirthday != nil || p.AutoValidatePayout || p.FreezePayout ||
		p.BlockPayoutValidation || p.HideFromStats || p.ThirdPartySalesOnly || p.ReferrerID == nil || *p.ReferrerID != f.market.ID {
		t.Errorf("defaults: %+v", p)
	}
	// Staff create without a referrer, or with any marketplace.
	p, err := f.svc.CreatePartner(dbtest.AsStaff(), phBody(t, "iban", ibanFR))
	if err != nil || p.ReferrerID != nil || p.IBAN != ibanFR {
		t.Errorf("staff create: %v %+v", err, p)
	}
	p, err = f.svc.CreatePartner(dbtest.AsStaff(), phBody(t, "referrer", f.rival.ID))
	if err != nil || p.ReferrerID == nil || *p.ReferrerID != f.rival.ID {
		t.Errorf("staff create for rival: %v %+v", err, p)
	}
}

func TestCreatePartnerRefusals(t *testing.T) {
	t.Parallel()
	f := newPHFixture(t)
	before := f.count(t, `SELECT count(*) FROM partners`)
	for _, field := range []string{"status", "commercial_name", "short_name", "legal_representative_email", "agency_email"} {
		_, err := f.svc.CreatePartner(f.asMarket, phBody(t, field, nil))
		dbtest.WantFieldErrors(t, err, map[string]string{field: domain.MsgRequired})
	}
	for _, c := range []struct {
		kv   []any
		want map[string]string
	}{
		{[]any{"status", "n"}, map[string]string{"status": `"n" is not a valid choice.`}},
		{[]any{"company_type", "sarl"}, map[string]string{"company_type": `"sarl" is not a valid choice.`}},
		{[]any{"payout_frequency", "daily"}, map[string]string{"payout_frequency": `"daily" is not a valid choice.`}},
		{[]any{"commercial_name", " "}, map[string]string{"commercial_name": domain.MsgBlank}},
		{[]any{"agency_email", "nope", "legal_representative_email", "a@b"}, map[string]string{
			"agency_email": domain.MsgEmail, "legal_representative_email": domain.MsgEmail}},
		{[]any{"website", "spa.example.com"}, map[string]string{"website": "Enter a valid URL."}},
		{[]any{"hq_postal_code", "74000-12345"}, map[string]string{"hq_postal_code": "Ensure this field has no more than 10 characters."}},
		{[]any{"iban", "FR1420041010050500013M02607"}, map[string]string{"iban": payments.MsgIBANChecksum}},
		{[]any{"iban", "FR14200410100505000130260"}, map[string]string{"iban": fmt.Sprintf(payments.MsgIBANLength, "FR", 27, 25)}},
		{[]any{"iban", "XX1420041010050500013M02606"}, map[string]string{"iban": fmt.Sprintf(payments.MsgIBANCountry, "XX")}},
		{[]any{"bic", "BNPAFRP"}, map[string]string{"bic": payments.MsgBIC}},
		{[]any{"referrer", f.rival.ID}, map[string]string{"referrer": fmt.Sprintf(domain.MsgPKMissing, f.rival.ID)}},
	} {
		_, err := f.svc.CreatePartner(f.asMarket, phBody(t, c.kv...))
		dbtest.WantFieldErrors(t, err, c.want)
	}
	// Staff name a marketplace, which exists.
	_, err := f.svc.CreatePartner(dbtest.AsStaff(), phBody(t, "referrer", f.shop.ID))
	dbtest.WantFieldErrors(t, err, map[string]string{"referrer": payments.MsgReferrerNotMarketplace})
	_, err = f.svc.CreatePartner(dbtest.AsStaff(), phBody(t, "referrer", 999999))
	dbtest.WantFieldErrors(t, err, map[string]string{"referrer": fmt.Sprintf(domain.MsgPKMissing, 999999)})
	// A partner that is not a marketplace, a member without the
	// permission, no caller.
	_, err = f.svc.CreatePartner(asMember(f.shop, 5, domain.PermAccessConfigurationMarketplaces), phBody(t))
	dbtest.WantCode(t, err, domain.CodeForbidden)
	_, err = f.svc.CreatePartner(asMember(f.market, 6), phBody(t))
	dbtest.WantCode(t, err, domain.CodeForbidden)
	_, err = f.svc.CreatePartner(context.Background(), phBody(t))
	dbtest.WantCode(t, err, domain.CodeUnauthenticated)
	if after := f.count(t, `SELECT count(*) FROM partners`); after != before ||
		f.count(t, `SELECT count(*) FROM payment_partner_audit`) != 0 {
		t.Errorf("a refused creation wrote: %d partners, want %d", after, before)
	}
}

func TestCreatePartnerIdempotencyKey(t *testing.T) {
	t.Parallel()
	f := newPHFixture(t)
	ctx, err := idempotency.WithKey(f.asMarket, "create-1")
	if err != nil {
		t.Fatal(err)
	}
	first, err := f.svc.CreatePartner(ctx, phBody(t, "iban", ibanFR))
	if err != nil {
		t.Fatal(err)
	}
	ctx, _ = idempotency.WithKey(f.asMarket, "create-1")
	again, err := f.svc.CreatePartner(ctx, phBody(t, "iban", ibanFR))
	if err != nil || again.UUID != first.UUID || again.IBAN != ibanMask || !idempotency.Replayed(ctx) {
		t.Errorf("repeat: %v %+v", err, again)
	}
	ctx, _ = idempotency.WithKey(f.asMarket, "create-1")
	_, err = f.svc.CreatePartner(ctx, phBody(t, "short_name", "OTHER"))
	dbtest.WantCode(t, err, domain.CodeUnprocessable)
	if n := f.count(t, `SELECT count(*) FROM payment_partners`); n != 1 {
		t.Errorf("%d partners, want 1", n)
	}
}

func TestGetPartnerVisibility(t *testing.T) {
	t.Parallel()
	f := newPHFixture(t)
	p := f.create(t, "iban", ibanFR)
	for name, ctx := range map[string]context.Context{
		"its referrer's member without permissions": asMember(f.market, 7),
		"its own member without permissions":        asMember(&domain.Partner{ID: p.ID}, 8),
	} {
		got, err := f.svc.GetPartner(ctx, p.UUID)
		if err != nil || got.UUID != p.UUID || got.IBAN != ibanMask {
			t.Errorf("%s: %v %+v", name, err, got)
		}
	}
	for name, ctx := range map[string]context.Context{"another marketplace": f.asRival, "another partner": asMember(f.shop, 9)} {
		if _, err := f.svc.GetPartner(ctx, p.UUID); !domain.IsCode(err, domain.CodeNotFound) {
			t.Errorf("%s: %v, want not found", name, err)
		}
	}
	// A partner outside the payment hub is not one of its partners.
	_, err := f.svc.GetPartner(dbtest.AsStaff(), f.market.UUID)
	dbtest.WantCode(t, err, domain.CodeNotFound)
}

func TestUpdatePartner(t *testing.T) {
	t.Parallel()
	f := newPHFixture(t)
	p := f.create(t, "iban", ibanFR)

	// The referrer changes the settings, with a reason kept in the trail.
	got, err := f.svc.UpdatePartner(f.asMarket, p.UUID, partnerUpdate(t, `{"status": "i", "block_payout_validation": true,
		"hide_from_stats": true, "third_party_sales_only": true, "legal_representative_birthday": "1980-05-17",
		"legal_representative_email": "new@spa.example.com", "reason": "KYC pending"}`))
	if err != nil || got.Status != "i" || !got.BlockPayoutValidation || !got.HideFromStats || !got.ThirdPartySalesOnly ||
		got.LegalRepresentativeEmail != "new@spa.example.com" || got.LegalRepresentativeBirthday == nil || got.IBAN != ibanMask {
		t.Fatalf("update: %v %+v", err, got)
	}
	read, _ := f.svc.GetPartner(f.asMarket, p.UUID)
	if jsonOf(t, read) != jsonOf(t, got) {
		t.Errorf("read back %+v\nwant %+v", read, got)
	}
	trail := f.audit(t, p.ID)
	if len(trail) != 2 || trail[1].Action != payments.AuditUpdate || trail[1].Reason != "KYC pending" ||
		field(t, trail[1].Before, "status") != "a" || field(t, trail[1].After, "status") != "i" ||
		field(t, trail[1].After, "legal_representative_birthday") != "1980-05-17" {
		t.Errorf("audit trail %+v", trail)
	}
	// The same values again change nothing and write no entry.
	if _, err := f.svc.UpdatePartner(f.asMarket, p.UUID, partnerUpdate(t, `{"status": "i"}`)); err != nil {
		t.Fatal(err)
	}
	if n := len(f.audit(t, p.ID)); n != 2 {
		t.Errorf("%d audit entries after a no-op, want 2", n)
	}

	// The partner's own administrators change their legal representative
	// only; the settings are refused field by field, nothing written.
	own := asOwn(p)
	got, err = f.svc.UpdatePartner(own, p.UUID, partnerUpdate(t, `{"legal_representative_email": "anne@spa.example.com",
		"legal_representative_birthday": null}`))
	if err != nil || got.LegalRepresentativeEmail != "anne@spa.example.com" || got.LegalRepresentativeBirthday != nil {
		t.Errorf("own update: %v %+v", err, got)
	}
	_, err = f.svc.UpdatePartner(own, p.UUID, partnerUpdate(t, `{"status": "a", "block_payout_validation": false,
		"hide_from_stats": false, "third_party_sales_only": false, "referrer": null, "legal_representative_email": "x@example.com"}`))
	dbtest.WantFieldErrors(t, err, map[string]string{"status": payments.MsgSettingsNotOwn,
		"block_payout_validation": payments.MsgSettingsNotOwn, "hide_from_stats": payments.MsgSettingsNotOwn,
		"third_party_sales_only": payments.MsgSettingsNotOwn, "referrer": payments.MsgSettingsNotOwn})
	_, err = f.svc.UpdatePartner(asMember(&domain.Partner{ID: p.ID}, 8), p.UUID, partnerUpdate(t, `{"legal_representative_email": "x@example.com"}`))
	dbtest.WantCode(t, err, domain.CodeForbidden)

	// The referrer may not hand the partner over; staff may, to a
	// marketplace; the former referrer then no longer sees it.
	_, err = f.svc.UpdatePartner(f.asMarket, p.UUID, partnerUpdate(t, fmt.Sprintf(`{"referrer": %d}`, f.rival.ID)))
	dbtest.WantFieldErrors(t, err, map[string]string{"referrer": payments.MsgReferrerStaffOnly})
	if _, err := f.svc.UpdatePartner(f.asMarket, p.UUID, partnerUpdate(t, fmt.Sprintf(`{"referrer": %d}`, f.market.ID))); err != nil {
		t.Errorf("referrer unchanged: %v", err)
	}
	for body, want := range map[string]map[string]string{
		fmt.Sprintf(`{"referrer": %d}`, f.shop.ID):        {"referrer": payments.MsgReferrerNotMarketplace},
		fmt.Sprintf(`{"referrer": %d}`, p.ID):             {"referrer": payments.MsgOwnReferrer},
		`{"referrer": 999999}`:                            {"referrer": fmt.Sprintf(domain.MsgPKMissing, 999999)},
		`{"status": "n", "hide_from_stats": true}`:        {"status": `"n" is not a valid choice.`},
		`{"reason": "` + strings.Repeat("x", 1001) + `"}`: {"reason": "Ensure this field has no more than 1000 characters."},
	} {
		_, err = f.svc.UpdatePartner(dbtest.AsStaff(), p.UUID, partnerUpdate(t, body))
		dbtest.WantFieldErrors(t, err, want)
	}
	got, err = f.svc.UpdatePartner(dbtest.AsStaff(), p.UUID, partnerUpdate(t, fmt.Sprintf(`{"referrer": %d}`, f.rival.ID)))
	if err != nil || got.IBAN != ibanFR || *got.ReferrerID != f.rival.ID {
		t.Errorf("staff hand-over: %v %+v", err, got)
	}
	_, err = f.svc.UpdatePartner(f.asMarket, p.UUID, partnerUpdate(t, `{"hide_from_stats": false}`))
	dbtest.WantCode(t, err, domain.CodeNotFound)
	if _, err := f.svc.GetPartner(f.asRival, p.UUID); err != nil {
		t.Errorf("new referrer: %v", err)
	}
	if n := len(f.audit(t, p.ID)); n != 4 {
		t.Errorf("%d audit entries, want 4 (create, two updates, hand-over)", n)
	}
}
