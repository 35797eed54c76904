package media_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/domain/media"
	"salesplatform/persistence"
	"salesplatform/persistence/blobstore"
	"salesplatform/persistence/dbtest"
)

type mediaEnv struct {
	svc                 *media.MediaService
	dir                 string
	shopCtx, rivalCtx   context.Context
	readerCtx, staffCtx context.Context
	shop, rival, reader *account.NewAccount
	png                 []byte
}

func newMediaEnv(t *testing.T) *mediaEnv {
	t.Helper()
	database, raw := dbtest.NewDatabase(t)
	accounts := account.NewAccountService(database, nil, dbtest.CheapHashing)
	e := &mediaEnv{dir: t.TempDir()}
	e.shop = dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "shop", PartnerName: "Shop",
		Permissions: []string{domain.PermManageMasterAdmin}})
	e.rival = dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "rival", PartnerName: "Rival",
		Permissions: []string{domain.PermManageMasterAdmin}})
	e.reader = dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "reader", PartnerName: "Reader"})
	staff := dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "staff", Staff: true})
	e.shopCtx, e.rivalCtx = dbtest.AsCaller(t, accounts, e.shop), dbtest.AsCaller(t, accounts, e.rival)
	e.readerCtx, e.staffCtx = dbtest.AsCaller(t, accounts, e.reader), dbtest.AsCaller(t, accounts, staff)
	e.svc = media.NewMediaService(persistence.NewUnitOfWork(raw, persistence.MediaStores), blobstore.NewLocal(e.dir),
		"https://media.example.com/")
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 7, 5))); err != nil {
		t.Fatal(err)
	}
	e.png = b.Bytes()
	return e
}

func ptr[T any](v T) *T { return &v }

func (e *mediaEnv) upload(ctx context.Context, name string, data []byte) (*media.Media, error) {
	return e.svc.Upload(ctx, media.MediaUpload{Name: ptr(name), File: bytes.NewReader(data), Files: 1})
}

func TestMediaUploadAndRead(t *testing.T) {
	t.Parallel()
	e := newMediaEnv(t)
	m, err := e.upload(e.shopCtx, " Logo ", e.png)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "Logo" || m.PartnerID != e.shop.Partner.ID || m.ContentType != "image/png" || m.Width != 7 || m.Height != 5 ||
		m.Size != int64(len(e.png)) || m.ID == 0 || m.CreatedOn.IsZero() || m.ArchivedOn != nil {
		t.Errorf("media = %+v", m)
	}
	if m.BlobKey == "" || strings.Contains(m.BlobKey, "Logo") {
		t.Errorf("blob key %q", m.BlobKey)
	}
	if got := e.svc.URL(m); got != "https://media.example.com/media/"+m.UUID.String() {
		t.Errorf("URL = %q", got)
	}
	got, body, err := e.svc.Content(context.Background(), m.UUID)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(body)
	_ = body.Close()
	if got.ID != m.ID || !bytes.Equal(data, e.png) {
		t.Errorf("Content: %d, %d bytes", got.ID, len(data))
	}

	// Get and List keep tenancy; staff see everything.
	if _, err := e.svc.Get(e.shopCtx, m.ID); err != nil {
		t.Error(err)
	}
	if _, err := e.svc.Get(e.staffCtx, m.ID); err != nil {
		t.Error(err)
	}
	dbtest.WantCode(t, func() error { _, err := e.svc.Get(e.rivalCtx, m.ID); return err }(), domain.CodeNotFound)
	dbtest.WantCode(t, func() error { _, err := e.svc.Get(context.Background(), m.ID); return err }(), domain.CodeUnauthenticated)
	if _, err := e.upload(e.rivalCtx, "Rival's", e.png); err != nil {
		t.Fatal(err)
	}
	for ctx, want := range map[context.Context]int{e.shopCtx: 1, e.rivalCtx: 1, e.readerCtx: 0, e.staffCtx: 2} {
		p, err := e.svc.List(ctx, media.MediaFilter{}, domain.PageRequest{Number: 1, Size: 100})
		if err != nil || p.Count != want || len(p.Items) != want {
			t.Errorf("List: %v, %v; want %d", p, err, want)
		}
	}
	p, err := e.svc.List(e.staffCtx, media.MediaFilter{}, domain.PageRequest{Number: 1, Size: 100})
	if err != nil || p.Items[0].Name != "Rival's" {
		t.Errorf("List is not newest first: %+v", p.Items)
	}
}

func TestMediaUploadRefusals(t *testing.T) {
	t.Parallel()
	e := newMediaEnv(t)
	_, err := e.upload(e.readerCtx, "x", e.png)
	dbtest.WantCode(t, err, domain.CodeForbidden)
	_, err = e.upload(context.Background(), "x", e.png)
	dbtest.WantCode(t, err, domain.CodeUnauthenticated)
	_, err = e.upload(e.shopCtx, "x", bytes.Repeat([]byte{1}, media.MaxMediaBytes+1))
	dbtest.WantCode(t, err, domain.CodeTooLarge)
	_, err = e.upload(e.shopCtx, "x", []byte("%PDF-1.4 not an image"))
	de := dbtest.WantCode(t, err, domain.CodeInvalid)
	if len(de.Fields) != 1 || de.Fields[0].Path[0] != "file" {
		t.Errorf("fields = %+v", de.Fields)
	}
	// A PNG signature over a JPEG body: the sniffed type and the decoder disagree.
	_, err = e.upload(e.shopCtx, "x", append(slices.Clone(e.png[:8]), []byte("\xff\xd8\xff\xe0 rest")...))
	dbtest.WantCode(t, err, domain.CodeInvalid)
	_, err = e.svc.Upload(e.staffCtx, media.MediaUpload{Name: ptr("x"), File: bytes.NewReader(e.png), Files: 1})
	de = dbtest.WantCode(t, err, domain.CodeInvalid)
	if de.Fields[0].Path[0] != "partner_uuid" {
		t.Errorf("fields = %+v", de.Fields)
	}
	entries, _ := os.ReadDir(e.dir)
	if len(entries) != 0 {
		t.Errorf("%d blobs written by refused uploads", len(entries))
	}
	// Staff naming a partner upload for it.
	m, err := e.svc.Upload(e.staffCtx, media.MediaUpload{Name: ptr("x"), File: bytes.NewReader(e.png), Files: 1,
		PartnerUUID: ptr(e.rival.Partner.UUID.String())})
	if err != nil || m.PartnerID != e.rival.Partner.ID {
		t.Fatalf("staff upload: %+v %v", m, err)
	}
	if _, err := os.Stat(filepath.Join(e.dir, m.BlobKey)); err != nil {
		t.Error(err)
	}
}

func TestMediaRename(t *testing.T) {
	t.Parallel()
	e := newMediaEnv(t)
	m, err := e.upload(e.shopCtx, "Logo", e.png)
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.svc.Rename(e.shopCtx, m.ID, media.RenameInput{Name: domain.Some("New")})
	if err != nil || r.Name != "New" {
		t.Fatalf("Rename: %+v %v", r, err)
	}
	_, err = e.svc.Rename(e.rivalCtx, m.ID, media.RenameInput{Name: domain.Some("x")})
	dbtest.WantCode(t, err, domain.CodeNotFound)
	_, err = e.svc.Rename(e.readerCtx, m.ID, media.RenameInput{Name: domain.Some("x")})
	dbtest.WantCode(t, err, domain.CodeForbidden)
	_, err = e.svc.Rename(e.shopCtx, m.ID+1000, media.RenameInput{Name: domain.Some("x")})
	dbtest.WantCode(t, err, domain.CodeNotFound)
	_, err = e.svc.Rename(e.shopCtx, m.ID, media.RenameInput{Name: domain.Some(strings.Repeat("x", 256))})
	dbtest.WantCode(t, err, domain.CodeInvalid)
	_, err = e.svc.Rename(e.shopCtx, m.ID, media.RenameInput{Name: domain.Null[string]()})
	dbtest.WantCode(t, err, domain.CodeInvalid)
	got, _ := e.svc.Get(e.shopCtx, m.ID)
	if got.Name != "New" {
		t.Errorf("name after refused renames = %q", got.Name)
	}
}

func TestPermissions(t *testing.T) {
	t.Parallel()
	database, _ := dbtest.NewDatabase(t)
	accounts := account.NewAccountService(database, nil, dbtest.CheapHashing)
	granted := dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "granted", PartnerName: "P",
		Permissions: []string{domain.PermUseVoucher, domain.PermAccessWorkshopBookings}})
	staff := dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "staff", Staff: true})
	got, err := accounts.Permissions(dbtest.AsCaller(t, accounts, granted))
	if err != nil || !slices.Equal(got, []string{domain.PermAccessWorkshopBookings, domain.PermUseVoucher}) {
		t.Errorf("granted: %v %v", got, err)
	}
	got, err = accounts.Permissions(dbtest.AsCaller(t, accounts, staff))
	if err != nil || !slices.Equal(got, domain.PermissionVocabulary) {
		t.Errorf("staff: %v %v", got, err)
	}
	_, err = accounts.Permissions(context.Background())
	dbtest.WantCode(t, err, domain.CodeUnauthenticated)
}

// TestMediaRelations: the partner filter of List narrows the caller's
// tenancy (a member asking for another partner's media gets none), and the
// MediaByID batch answers in key order with nil for what the caller does
// not see.
func TestMediaRelations(t *testing.T) {
	t.Parallel()
	e := newMediaEnv(t)
	mine, err := e.upload(e.shopCtx, "Mine", e.png)
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := e.upload(e.rivalCtx, "Theirs", e.png)
	if err != nil {
		t.Fatal(err)
	}
	page := domain.PageRequest{Number: 1, Size: 100}
	names := func(ctx context.Context, partner int64) []string {
		t.Helper()
		p, err := e.svc.List(ctx, media.MediaFilter{PartnerID: &partner}, page)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, m := range p.Items {
			out = append(out, m.Name)
		}
		if p.Count != len(out) {
			t.Errorf("count %d for %v", p.Count, out)
		}
		return out
	}
	shop, rival := e.shop.Partner.ID, e.rival.Partner.ID
	for _, c := range []struct {
		ctx     context.Context
		partner int64
		want    string
	}{{e.shopCtx, shop, "[Mine]"}, {e.shopCtx, rival, "[]"}, {e.staffCtx, rival, "[Theirs]"}, {e.staffCtx, shop, "[Mine]"}} {
		if got := fmt.Sprint(names(c.ctx, c.partner)); got != c.want {
			t.Errorf("List(partner %d) = %s, want %s", c.partner, got, c.want)
		}
	}

	ids := []int64{theirs.ID, 999999, mine.ID}
	for ctx, want := range map[context.Context][]int64{
		e.shopCtx: {0, 0, mine.ID}, e.rivalCtx: {theirs.ID, 0, 0}, e.staffCtx: {theirs.ID, 0, mine.ID}, e.readerCtx: {0, 0, 0}} {
		ms, err := e.svc.MediaByID(ctx, ids)
		if err != nil || len(ms) != len(ids) {
			t.Fatalf("MediaByID: %v, %v", ms, err)
		}
		for i, m := range ms {
			got := int64(0) // nil
			if m != nil {
				got = m.ID
			}
			if got != want[i] {
				t.Errorf("MediaByID[%d] = %d, want %d", i, got, want[i])
			}
		}
	}
	dbtest.WantCode(t, func() error { _, err := e.svc.MediaByID(context.Background(), ids); return err }(), domain.CodeUnauthenticated)
}
