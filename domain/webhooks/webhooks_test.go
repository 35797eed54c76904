package webhooks_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/webhooks"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

type fixture struct {
	db                 *bun.DB
	svc                *webhooks.Service
	shop, rival        *domain.Partner
	asShop, asRival    context.Context // members who manage their partner
	asShopClerk        context.Context // a member without the permission
	asStaff, anonymous context.Context
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	db := dbtest.New(t)
	partners := persistence.NewDatabase(db).Stores().Partners
	f := &fixture{db: db, svc: webhooks.NewService(persistence.NewUnitOfWork(db, persistence.WebhookStores), webhooks.URLRule{Resolver: names})}
	f.shop = dbtest.MustPartner(t, partners, &domain.Partner{Name: "Shop"})
	f.rival = dbtest.MustPartner(t, partners, &domain.Partner{Name: "Rival"})
	f.asShop = asMember(f.shop, domain.PermManageMasterAdmin)
	f.asRival = asMember(f.rival, domain.PermManageMasterAdmin)
	f.asShopClerk = asMember(f.shop)
	f.asStaff = dbtest.AsStaff()
	f.anonymous = context.Background()
	return f
}

func asMember(p *domain.Partner, perms ...string) context.Context {
	return domain.WithCaller(context.Background(), &domain.Caller{User: &domain.User{ID: 2}, Partner: p, Permissions: perms})
}

func endpoint(url string, events ...string) webhooks.EndpointInput {
	in := webhooks.EndpointInput{URL: domain.Some(url), Description: domain.Some("orders")}
	if events != nil {
		in.Events = domain.Some(events)
	}
	return in
}

func TestCreateAndRead(t *testing.T) {
	f := newFixture(t)
	e, err := f.svc.CreateEndpoint(f.asShop, endpoint("https://hooks.example.com/in", "order.paid", "order.created"))
	if err != nil {
		t.Fatal(err)
	}
	if e.ID == 0 || e.PartnerID == nil || *e.PartnerID != f.shop.ID || !e.IsActive || e.Description != "orders" ||
		strings.Join(e.Events, ",") != "order.paid,order.created" || e.CreatedOn.IsZero() {
		t.Errorf("created %+v", e)
	}
	if !strings.HasPrefix(e.Secret, "whsec_") || len(e.Secret) != len("whsec_")+44 {
		t.Errorf("secret %q: want whsec_ and the base64 of 32 bytes", e.Secret)
	}
	got, err := f.svc.Endpoint(f.asShop, e.ID)
	if err != nil || got.URL != e.URL || got.Secret != e.Secret {
		t.Errorf("Endpoint = %+v, %v", got, err)
	}
	all, err := f.svc.CreateEndpoint(f.asShop, endpoint("https://hooks.example.com/all"))
	if err != nil || len(all.Events) != 0 {
		t.Fatalf("an endpoint without events (all of them): %+v, %v", all, err)
	}
	page, err := f.svc.Endpoints(f.asShop, domain.PageRequest{Number: 1, Size: 10})
	if err != nil || page.Count != 2 || page.Items[0].ID != all.ID {
		t.Errorf("Endpoints = %+v, %v", page, err)
	}
}

func TestTenancy(t *testing.T) {
	f := newFixture(t)
	shops, err := f.svc.CreateEndpoint(f.asShop, endpoint("https://hooks.example.com/shop"))
	if err != nil {
		t.Fatal(err)
	}
	platform, err := f.svc.CreateEndpoint(f.asStaff, endpoint("https://hooks.example.com/platform"))
	if err != nil {
		t.Fatal(err)
	}
	if platform.PartnerID != nil {
		t.Errorf("staff's endpoint belongs to partner %d, want the platform", *platform.PartnerID)
	}
	for _, id := range []int64{shops.ID, platform.ID} {
		_, err := f.svc.Endpoint(f.asRival, id)
		dbtest.WantCode(t, err, domain.CodeNotFound)
		_, err = f.svc.UpdateEndpoint(f.asRival, id, webhooks.EndpointInput{IsActive: domain.Some(false)})
		dbtest.WantCode(t, err, domain.CodeNotFound)
		_, err = f.svc.RotateSecret(f.asRival, id)
		dbtest.WantCode(t, err, domain.CodeNotFound)
		dbtest.WantCode(t, f.svc.DeleteEndpoint(f.asRival, id), domain.CodeNotFound)
	}
	if page, err := f.svc.Endpoints(f.asRival, domain.PageRequest{Number: 1, Size: 10}); err != nil || page.Count != 0 {
		t.Errorf("the rival lists %+v, %v", page, err)
	}
	if page, err := f.svc.Endpoints(f.asShop, domain.PageRequest{Number: 1, Size: 10}); err != nil || page.Count != 1 {
		t.Errorf("the shop lists %+v, %v", page, err)
	}
	if page, err := f.svc.Endpoints(f.asStaff, domain.PageRequest{Number: 1, Size: 10}); err != nil || page.Count != 2 {
		t.Errorf("staff lists %+v, %v", page, err)
	}
	if _, err := f.svc.Endpoint(f.asShop, platform.ID); !domain.IsCode(err, domain.CodeNotFound) {
		t.Errorf("a partner reads the platform's endpoint: %v", err)
	}
}

func TestPermission(t *testing.T) {
	f := newFixture(t)
	e, err := f.svc.CreateEndpoint(f.asShop, endpoint("https://hooks.example.com/in"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.CreateEndpoint(f.asShopClerk, endpoint("https://hooks.example.com/in"))
	dbtest.WantCode(t, err, domain.CodeForbidden)
	_, err = f.svc.Endpoint(f.asShopClerk, e.ID)
	dbtest.WantCode(t, err, domain.CodeForbidden)
	_, err = f.svc.Endpoints(f.anonymous, domain.PageRequest{Number: 1, Size: 10})
	dbtest.WantCode(t, err, domain.CodeUnauthenticated)
	dbtest.WantCode(t, f.svc.DeleteEndpoint(f.asShopClerk, e.ID), domain.CodeForbidden)
}

func TestValidation(t *testing.T) {
	f := newFixture(t)
	_, err := f.svc.CreateEndpoint(f.asShop, webhooks.EndpointInput{})
	dbtest.WantFieldErrors(t, err, map[string]string{"url": domain.MsgRequired})

	in := endpoint("https://internal.example.com/in", "order.paid", "order.shipped")
	in.Description = domain.Some(strings.Repeat("d", webhooks.MaxDescriptionLength+1))
	in.IsActive = domain.Null[bool]()
	_, err = f.svc.CreateEndpoint(f.asShop, in)
	dbtest.WantFieldErrors(t, err, map[string]string{
		"url":         "This URL points to a loopback, private, link-local or otherwise reserved address.",
		"events":      `"order.shipped" is not a valid event type.`,
		"description": fmt.Sprintf(domain.MsgMaxLength, webhooks.MaxDescriptionLength),
		"is_active":   domain.MsgNull,
	})

	_, err = f.svc.CreateEndpoint(f.asShop, endpoint("https://hooks.example.com/"+strings.Repeat("a", domain.MaxURLLength)))
	dbtest.WantCode(t, err, domain.CodeInvalid)
	_, err = f.svc.CreateEndpoint(f.asShop, endpoint("https://hooks.example.com/in", "order.paid", "order.paid"))
	dbtest.WantFieldErrors(t, err, map[string]string{"events": `"order.paid" is given more than once.`})
	_, err = f.svc.CreateEndpoint(f.asShop, endpoint("https://hooks.example.com/in", append(webhooks.EventTypes, "order.paid")...))
	dbtest.WantFieldErrors(t, err, map[string]string{"events": fmt.Sprintf(domain.MsgTooManyElements, len(webhooks.EventTypes))})
	if _, err := f.svc.CreateEndpoint(f.asShop, endpoint("https://hooks.example.com/in", webhooks.EventTypes...)); err != nil {
		t.Errorf("every event type: %v", err)
	}

	// A refusal of the surface comes back with the rules' errors.
	in = endpoint("https://hooks.example.com/in")
	in.Refuse(domain.VInvalid, "Must be a valid boolean.", "is_active")
	in.IsActive = domain.Optional[bool]{}
	_, err = f.svc.CreateEndpoint(f.asShop, in)
	dbtest.WantFieldErrors(t, err, map[string]string{"is_active": "Must be a valid boolean."})
}

func TestUpdate(t *testing.T) {
	f := newFixture(t)
	e, err := f.svc.CreateEndpoint(f.asShop, endpoint("https://hooks.example.com/in", "order.paid"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.svc.UpdateEndpoint(f.asShop, e.ID, webhooks.EndpointInput{IsActive: domain.Some(false), Events: domain.Some([]string{})})
	if err != nil {
		t.Fatal(err)
	}
	if got.IsActive || len(got.Events) != 0 || got.URL != e.URL || got.Description != "orders" || got.Secret != e.Secret {
		t.Errorf("updated %+v", got)
	}
	_, err = f.svc.UpdateEndpoint(f.asShop, e.ID, webhooks.EndpointInput{URL: domain.Some("https://metadata.example.com/")})
	dbtest.WantFieldErrors(t, err, map[string]string{"url": "This URL points to a loopback, private, link-local or otherwise reserved address."})
	if got, _ := f.svc.Endpoint(f.asShop, e.ID); got.URL != e.URL || got.IsActive {
		t.Errorf("read back %+v", got)
	}
	if err := f.svc.DeleteEndpoint(f.asShop, e.ID); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.Endpoint(f.asShop, e.ID)
	dbtest.WantCode(t, err, domain.CodeNotFound)
}

func TestRotateSecret(t *testing.T) {
	f := newFixture(t)
	e, err := f.svc.CreateEndpoint(f.asShop, endpoint("https://hooks.example.com/in"))
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	r, err := f.svc.RotateSecret(f.asShop, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r.Secret == e.Secret || !strings.HasPrefix(r.Secret, "whsec_") || r.PreviousSecret != e.Secret {
		t.Errorf("rotated secrets %q, previous %q; was %q", r.Secret, r.PreviousSecret, e.Secret)
	}
	got, err := f.svc.Endpoint(f.asShop, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Secret != r.Secret || got.PreviousSecret != e.Secret || got.PreviousExpiresAt == nil ||
		got.PreviousExpiresAt.Before(before.Add(webhooks.SecretOverlap)) ||
		got.PreviousExpiresAt.After(time.Now().Add(webhooks.SecretOverlap)) {
		t.Errorf("stored %+v: want the old secret kept 24 hours", got)
	}
}

func TestLimitPerPartner(t *testing.T) {
	f := newFixture(t)
	for i := range webhooks.MaxEndpoints {
		if _, err := f.svc.CreateEndpoint(f.asShop, endpoint(fmt.Sprintf("https://hooks.example.com/%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	_, err := f.svc.CreateEndpoint(f.asShop, endpoint("https://hooks.example.com/one-more"))
	dbtest.WantFieldErrors(t, err, map[string]string{"non_field_errors": fmt.Sprintf("Ensure there are no more than %d webhook endpoints.", webhooks.MaxEndpoints)})
	if _, err := f.svc.CreateEndpoint(f.asRival, endpoint("https://hooks.example.com/rival")); err != nil {
		t.Errorf("another partner's limit is its own: %v", err)
	}
}

func TestLimitUnderConcurrency(t *testing.T) {
	f := newFixture(t)
	for i := range webhooks.MaxEndpoints - 1 {
		if _, err := f.svc.CreateEndpoint(f.asShop, endpoint(fmt.Sprintf("https://hooks.example.com/%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	// Open the pool's connections first, so that the creates overlap.
	dbtest.Concurrently(20, func(int) error {
		_, err := f.db.ExecContext(context.Background(), "SELECT pg_sleep(1.0 / 20)")
		return err
	})
	got := dbtest.Concurrently(20, func(i int) error {
		_, err := f.svc.CreateEndpoint(f.asShop, endpoint(fmt.Sprintf("https://hooks.example.com/race%d", i)))
		return err
	})
	if got[""] != 1 || got[domain.CodeInvalid] != 19 {
		t.Errorf("outcomes %v: want one create and 19 refusals", got)
	}
}
