package e2e

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/media"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// mediaFixture is a server keeping media under a temporary DATA_DIR, with:
//   - shop and rival: partners whose users may write media
//     (permissions.manage_masteradmin);
//   - reader: a partner's user without permissions (reads only);
//   - staff: a staff user without a partner.
type mediaFixture struct {
	*Server
	db                  *bun.DB
	dataDir             string
	shopTok, rivalTok   string
	readerTok, staffTok string
	shopUUID, rivalUUID string
	shopID, rivalID     int64
	pngData, jpegData   []byte
	gifData, webpData   []byte
}

func newMediaFixture(t *testing.T, flags ...string) *mediaFixture {
	t.Helper()
	dsn := dbtest.NewDSN(t)
	f := &mediaFixture{
		dataDir: t.TempDir(),
		shopTok: CreateUser(t, dsn, "--username", "shop", "--password", "shop-password", "--partner-name", "Shop",
			"--permission", domain.PermManageMasterAdmin, "--permission", domain.PermUseVoucher),
		rivalTok: CreateUser(t, dsn, "--username", "rival", "--password", "rival-password", "--partner-name", "Rival",
			"--permission", domain.PermManageMasterAdmin),
		readerTok: CreateUser(t, dsn, "--username", "reader", "--password", "reader-password", "--partner-name", "Reader"),
		staffTok:  CreateUser(t, dsn, "--username", "staff", "--password", "staff-password", "--staff"),
	}
	f.Server = Serve(t, dsn, append([]string{"--data-dir", f.dataDir}, flags...)...)
	db, err := persistence.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f.db = db
	mustScan := func(q string, dest ...any) {
		t.Helper()
		if err := db.NewRaw(q).Scan(context.Background(), dest...); err != nil {
			t.Fatal(err)
		}
	}
	mustScan(`SELECT id, uuid::text FROM partners WHERE name = 'Shop'`, &f.shopID, &f.shopUUID)
	mustScan(`SELECT id, uuid::text FROM partners WHERE name = 'Rival'`, &f.rivalID, &f.rivalUUID)

	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var b bytes.Buffer
	gcMust(t, png.Encode(&b, img))
	f.pngData = slices.Clone(b.Bytes())
	b.Reset()
	gcMust(t, jpeg.Encode(&b, img, nil))
	f.jpegData = slices.Clone(b.Bytes())
	b.Reset()
	gcMust(t, gif.Encode(&b, img, nil))
	f.gifData = slices.Clone(b.Bytes())
	// A 1x1 lossless WebP.
	f.webpData = []byte("RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00")
	return f
}

// formPart is a multipart field: a value, or a file when filename is set.
type formPart struct {
	name, filename string
	data           []byte
}

func field(name, value string) formPart { return formPart{name: name, data: []byte(value)} }

func file(name string, data []byte) formPart {
	return formPart{name: name, filename: "upload.bin", data: data}
}

// multipartBody encodes parts; it returns the body and its content type.
func multipartBody(t *testing.T, parts ...formPart) (string, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, p := range parts {
		var w io.Writer
		var err error
		if p.filename != "" {
			w, err = mw.CreateFormFile(p.name, p.filename)
		} else {
			w, err = mw.CreateFormField(p.name)
		}
		gcMust(t, err)
		_, err = w.Write(p.data)
		gcMust(t, err)
	}
	gcMust(t, mw.Close())
	return body.String(), mw.FormDataContentType()
}

// upload posts parts to /api/media/ with token ("" for none).
func (f *mediaFixture) upload(t *testing.T, token string, parts ...formPart) Response {
	t.Helper()
	body, ct := multipartBody(t, parts...)
	headers := []string{"Content-Type", ct}
	if token != "" {
		headers = append(headers, "Authorization", "Token "+token)
	}
	return Do(t, http.MethodPost, f.URL+"/api/media/", body, headers...)
}

// mustUpload uploads a PNG and returns the created media.
func (f *mediaFixture) mustUpload(t *testing.T, token, name string, extra ...formPart) map[string]any {
	t.Helper()
	res := f.upload(t, token, append([]formPart{field("name", name), file("file", f.pngData)}, extra...)...)
	if res.Status != http.StatusCreated {
		t.Fatalf("upload %q: %d %s", name, res.Status, res.Body)
	}
	return res.JSON(t)
}

// stored counts the media rows and the files of the blob store.
func (f *mediaFixture) stored(t *testing.T) (rows, blobs int) {
	t.Helper()
	gcMust(t, f.db.NewRaw(`SELECT count(*) FROM media`).Scan(context.Background(), &rows))
	entries, err := os.ReadDir(filepath.Join(f.dataDir, "media"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return rows, len(entries)
}

func TestAdminPermissions(t *testing.T) {
	t.Parallel()
	f := newMediaFixture(t)
	WantResponse(t, Do(t, http.MethodGet, f.URL+"/api/permissions/", ""), http.StatusUnauthorized,
		`{"detail": "Authentication credentials were not provided."}`)
	WantResponse(t, Do(t, http.MethodGet, f.URL+"/api/permissions/", "", "Authorization", "Token nope"), http.StatusUnauthorized,
		`{"detail": "Invalid token."}`)
	WantResponse(t, Do(t, http.MethodGet, f.URL+"/api/permissions", "", auth(f.shopTok)...), http.StatusOK,
		`{"permissions": ["permissions.manage_masteradmin", "permissions.use_voucher"]}`)
	WantResponse(t, Do(t, http.MethodGet, f.URL+"/api/permissions/", "", auth(f.readerTok)...), http.StatusOK,
		`{"permissions": []}`)
	all, _ := json.Marshal(map[string][]string{"permissions": domain.PermissionVocabulary})
	WantResponse(t, Do(t, http.MethodGet, f.URL+"/api/permissions/", "", auth(f.staffTok)...), http.StatusOK, string(all))
	WantResponse(t, Do(t, http.MethodPost, f.URL+"/api/permissions/", "{}", auth(f.shopTok)...), http.StatusMethodNotAllowed,
		`{"detail": "Method \"POST\" not allowed."}`)

	// The graph's viewer.permissions is the same list.
	for tok, want := range map[string]string{
		f.shopTok:  `["permissions.manage_masteradmin","permissions.use_voucher"]`,
		f.staffTok: jsonText(t, domain.PermissionVocabulary),
	} {
		data, errs := f.graph(t, tok, `{ viewer { permissions } }`, nil)
		if errs != nil {
			t.Fatal(errs)
		}
		WantJSON(t, data, `{"viewer": {"permissions": `+want+`}}`)
	}
}

// jsonText is v as JSON text.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	gcMust(t, err)
	return string(b)
}

func TestAdminMediaUpload(t *testing.T) {
	t.Parallel()
	f := newMediaFixture(t)
	before := time.Now().Add(-time.Minute)

	// Each accepted format, by content: the file name says nothing.
	for name, data := range map[string][]byte{"png": f.pngData, "jpeg": f.jpegData, "gif": f.gifData, "webp": f.webpData} {
		res := f.upload(t, f.shopTok, field("name", "  Logo "+name+"  "), file("file", data))
		if res.Status != http.StatusCreated {
			t.Fatalf("%s: %d %s", name, res.Status, res.Body)
		}
		m := res.JSON(t)
		if len(m) != 5 || m["name"] != "Logo "+name || m["archived_on"] != nil || m["id"].(float64) <= 0 {
			t.Errorf("%s: media = %v", name, m)
		}
		created, err := time.Parse(time.RFC3339Nano, m["created_on"].(string))
		if err != nil || created.Before(before) || created.After(time.Now().Add(time.Minute)) {
			t.Errorf("%s: created_on = %v (%v)", name, m["created_on"], err)
		}
		// The bytes are served as stored, with the sniffed type.
		got := Do(t, http.MethodGet, f.URL+"/media/"+m["uuid"].(string), "")
		wantType := "image/" + name
		if got.Status != http.StatusOK || got.Body != string(data) || got.Header.Get("Content-Type") != wantType {
			t.Errorf("%s: GET /media/: %d %q, %d bytes, want %s", name, got.Status, got.Header.Get("Content-Type"), len(got.Body), wantType)
		}
		var width, height int
		var size int64
		var partnerID int64
		var ct string
		gcMust(t, f.db.NewRaw(`SELECT width, height, size, partner_id, content_type FROM media WHERE uuid = ?`, m["uuid"]).
			Scan(context.Background(), &width, &height, &size, &partnerID, &ct))
		wantW, wantH := 4, 3
		if name == "webp" {
			wantW, wantH = 1, 1
		}
		if width != wantW || height != wantH || size != int64(len(data)) || partnerID != f.shopID || ct != wantType {
			t.Errorf("%s: row %dx%d %d bytes partner %d %s", name, width, height, size, partnerID, ct)
		}
	}
	rows, blobs := f.stored(t)
	if rows != 4 || blobs != 4 {
		t.Fatalf("stored %d rows, %d blobs; want 4, 4", rows, blobs)
	}

	// Staff name the partner; a partner's member may name its own.
	m := f.mustUpload(t, f.staffTok, "By staff", field("partner_uuid", f.rivalUUID))
	var owner int64
	gcMust(t, f.db.NewRaw(`SELECT partner_id FROM media WHERE id = ?`, int64(m["id"].(float64))).Scan(context.Background(), &owner))
	if owner != f.rivalID {
		t.Errorf("staff upload owned by %d, want %d", owner, f.rivalID)
	}
	f.mustUpload(t, f.shopTok, "Own partner", field("partner_uuid", f.shopUUID))
	rows, blobs = f.stored(t)

	// Refusals write nothing.
	tooBig := bytes.Repeat([]byte{0}, media.MaxMediaBytes+100<<10)
	var bomb bytes.Buffer
	gcMust(t, png.Encode(&bomb, image.NewGray(image.Rect(0, 0, 1, 1))))
	bombData := slices.Clone(bomb.Bytes())
	// IHDR width and height (bytes 16..23) say 100000 x 100000.
	copy(bombData[16:24], []byte{0, 1, 0x86, 0xa0, 0, 1, 0x86, 0xa0})
	binary.BigEndian.PutUint32(bombData[29:33], crc32.ChecksumIEEE(bombData[12:29]))
	for _, tt := range []struct {
		name   string
		token  string
		parts  []formPart
		status int
		body   string
	}{
		{"no token", "", []formPart{field("name", "x"), file("file", f.pngData)}, 401,
			`{"detail": "Authentication credentials were not provided."}`},
		{"no permission", f.readerTok, []formPart{field("name", "x"), file("file", f.pngData)}, 403,
			`{"detail": "You do not have permission to perform this action."}`},
		{"nothing", f.shopTok, nil, 400,
			`{"name": ["This field is required."], "file": ["No file was submitted."]}`},
		{"blank name", f.shopTok, []formPart{field("name", "   "), file("file", f.pngData)}, 400,
			`{"name": ["This field may not be blank."]}`},
		{"long name", f.shopTok, []formPart{field("name", strings.Repeat("é", 256)), file("file", f.pngData)}, 400,
			`{"name": ["Ensure this field has no more than 255 characters."]}`},
		{"file as a field", f.shopTok, []formPart{field("name", "x"), field("file", string(f.pngData))}, 400,
			`{"file": ["No file was submitted."]}`},
		{"not an image", f.shopTok, []formPart{field("name", "x"), {name: "file", filename: "evil.png", data: []byte("<svg xmlns='http://www.w3.org/2000/svg'/>")}}, 400,
			`{"file": ["Upload a valid image. The file you uploaded was either not an image or a corrupted image."]}`},
		{"truncated png", f.shopTok, []formPart{field("name", "x"), file("file", f.pngData[:20])}, 400,
			`{"file": ["Upload a valid image. The file you uploaded was either not an image or a corrupted image."]}`},
		{"empty file", f.shopTok, []formPart{field("name", "x"), file("file", nil)}, 400,
			`{"file": ["The submitted file is empty."]}`},
		{"decompression bomb", f.shopTok, []formPart{field("name", "x"), file("file", bombData)}, 400,
			`{"file": ["The image is too large: at most 50000000 pixels (width times height)."]}`},
		{"two files", f.shopTok, []formPart{field("name", "x"), file("file", f.pngData), file("file", f.pngData)}, 400,
			`{"file": ["Send exactly one file per request."]}`},
		{"staff without partner", f.staffTok, []formPart{field("name", "x"), file("file", f.pngData)}, 400,
			`{"partner_uuid": ["This field is required: staff name the partner the record belongs to."]}`},
		{"bad partner uuid", f.staffTok, []formPart{field("name", "x"), file("file", f.pngData), field("partner_uuid", "12")}, 400,
			`{"partner_uuid": ["Must be a valid UUID."]}`},
		{"another partner", f.shopTok, []formPart{field("name", "x"), file("file", f.pngData), field("partner_uuid", f.rivalUUID)}, 400,
			`{"partner_uuid": ["Object with uuid=` + f.rivalUUID + ` does not exist."]}`},
		{"too big", f.shopTok, []formPart{field("name", "x"), file("file", tooBig)}, 413,
			fmt.Sprintf(`{"detail": "Request body too large: the limit is %d bytes."}`, media.MaxMediaBytes+64<<10)},
	} {
		res := f.upload(t, tt.token, tt.parts...)
		if res.Status != tt.status {
			t.Errorf("%s: status %d, want %d (%s)", tt.name, res.Status, tt.status, res.Body)
			continue
		}
		WantResponse(t, res, tt.status, tt.body)
		if r, b := f.stored(t); r != rows || b != blobs {
			t.Errorf("%s: stored %d rows, %d blobs; want %d, %d", tt.name, r, b, rows, blobs)
		}
	}
	// A file just past the limit, in a body within the transport's limit.
	res := f.upload(t, f.shopTok, field("name", "x"), file("file", bytes.Repeat([]byte{0}, media.MaxMediaBytes+1)))
	WantResponse(t, res, http.StatusRequestEntityTooLarge, fmt.Sprintf(`{"detail": "The file is too large: the limit is %d bytes."}`, media.MaxMediaBytes))

	WantResponse(t, Do(t, http.MethodPost, f.URL+"/api/media/", `{"name": "x"}`, auth(f.shopTok)...),
		http.StatusUnsupportedMediaType, `{"detail": "Unsupported media type \"application/json\" in request."}`)

	// The row insert fails (a trigger refuses it): the blob is deleted.
	_, err := f.db.ExecContext(context.Background(), `CREATE FUNCTION refuse_media() RETURNS trigger LANGUAGE plpgsql AS
		$$ BEGIN RAISE EXCEPTION 'refused'; END $$;
		CREATE TRIGGER refuse_media BEFORE INSERT ON media FOR EACH ROW EXECUTE FUNCTION refuse_media()`)
	gcMust(t, err)
	WantResponse(t, f.upload(t, f.shopTok, field("name", "x"), file("file", f.pngData)), http.StatusInternalServerError,
		`{"detail": "A server error occurred."}`)
	if r, b := f.stored(t); r != rows || b != blobs {
		t.Errorf("failed insert: stored %d rows, %d blobs; want %d, %d", r, b, rows, blobs)
	}
}

func TestAdminMediaReadAndRename(t *testing.T) {
	t.Parallel()
	f := newMediaFixture(t)
	a := f.mustUpload(t, f.shopTok, "A")
	b := f.mustUpload(t, f.shopTok, "B")
	c := f.mustUpload(t, f.shopTok, "C")
	r := f.mustUpload(t, f.rivalTok, "Rival's")
	id := func(m map[string]any) string { return fmt.Sprint(int64(m["id"].(float64))) }

	// List: a plain array, newest first, the caller's partner's only.
	list := func(token, query string) Response {
		t.Helper()
		return Do(t, http.MethodGet, f.URL+"/api/media/"+query, "", auth(token)...)
	}
	res := list(f.shopTok, "")
	WantResponse(t, res, 200, jsonText(t, []map[string]any{c, b, a}))
	if res.Header.Get("X-Total-Count") != "3" || res.Header.Get("Link") != "" {
		t.Errorf("headers: X-Total-Count %q, Link %q", res.Header.Get("X-Total-Count"), res.Header.Get("Link"))
	}
	res = list(f.shopTok, "?page_size=1&page=2")
	WantResponse(t, res, 200, jsonText(t, []map[string]any{b}))
	base := f.URL + "/api/media/"
	if want := `<` + base + `?page=3&page_size=1>; rel="next", <` + base + `?page_size=1>; rel="prev"`; res.Header.Get("Link") != want {
		t.Errorf("Link = %q, want %q", res.Header.Get("Link"), want)
	}
	WantResponse(t, list(f.shopTok, "?page=4&page_size=1"), 404, `{"detail": "Invalid page."}`)
	WantResponse(t, list(f.rivalTok, ""), 200, jsonText(t, []map[string]any{r}))
	WantResponse(t, list(f.readerTok, ""), 200, `[]`)
	WantResponse(t, list(f.staffTok, "?page_size=500"), 200, jsonText(t, []map[string]any{r, c, b, a}))
	WantResponse(t, Do(t, http.MethodGet, f.URL+"/api/media/", ""), 401, `{"detail": "Authentication credentials were not provided."}`)

	// Get.
	WantResponse(t, Do(t, http.MethodGet, f.URL+"/api/media/"+id(a)+"/", "", auth(f.shopTok)...), 200, jsonText(t, a))
	WantResponse(t, Do(t, http.MethodGet, f.URL+"/api/media/"+id(a), "", auth(f.readerTok)...), 404, `{"detail": "Not found."}`)
	WantResponse(t, Do(t, http.MethodGet, f.URL+"/api/media/"+id(a)+"/", "", auth(f.rivalTok)...), 404, `{"detail": "Not found."}`)
	WantResponse(t, Do(t, http.MethodGet, f.URL+"/api/media/"+id(a)+"/", "", auth(f.staffTok)...), 200, jsonText(t, a))
	for _, bad := range []string{"abc", "99999999999999999999", "0", "-1"} {
		WantResponse(t, Do(t, http.MethodGet, f.URL+"/api/media/"+bad+"/", "", auth(f.shopTok)...), 404, `{"detail": "Not found."}`)
	}
	WantResponse(t, Do(t, http.MethodGet, f.URL+"/api/media/"+id(a)+"/", ""), 401, `{"detail": "Authentication credentials were not provided."}`)

	// Rename.
	patch := func(token, mediaID, body string) Response {
		t.Helper()
		h := []string{}
		if token != "" {
			h = auth(token)
		}
		return Do(t, http.MethodPatch, f.URL+"/api/media/"+mediaID+"/", body, h...)
	}
	renamed := maps(a, "name", "A renamed")
	WantResponse(t, patch(f.shopTok, id(a), `{"name": " A renamed "}`), 200, jsonText(t, renamed))
	WantResponse(t, Do(t, http.MethodGet, f.URL+"/api/media/"+id(a)+"/", "", auth(f.shopTok)...), 200, jsonText(t, renamed))
	WantResponse(t, patch(f.staffTok, id(a), `{"name": "By staff"}`), 200, jsonText(t, maps(a, "name", "By staff")))
	WantResponse(t, patch("", id(a), `{"name": "x"}`), 401, `{"detail": "Authentication credentials were not provided."}`)
	WantResponse(t, patch(f.readerTok, id(a), `{"name": "x"}`), 403, `{"detail": "You do not have permission to perform this action."}`)
	WantResponse(t, patch(f.rivalTok, id(a), `{"name": "x"}`), 404, `{"detail": "Not found."}`)
	WantResponse(t, patch(f.shopTok, "abc", `{"name": "x"}`), 404, `{"detail": "Not found."}`)
	WantResponse(t, patch(f.shopTok, "424242", `{"name": "x"}`), 404, `{"detail": "Not found."}`)
	WantResponse(t, patch(f.shopTok, id(a), `{}`), 400, `{"name": ["This field is required."]}`)
	WantResponse(t, patch(f.shopTok, id(a), `{"name": null}`), 400, `{"name": ["This field is required."]}`)
	WantResponse(t, patch(f.shopTok, id(a), `{"name": ["x"]}`), 400, `{"name": ["Not a valid string."]}`)
	WantResponse(t, patch(f.shopTok, id(a), `{"name": "`+strings.Repeat("n", 256)+`"}`), 400,
		`{"name": ["Ensure this field has no more than 255 characters."]}`)
	WantResponse(t, patch(f.shopTok, id(a), `[1]`), 400, `{"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]}`)
	WantResponse(t, patch(f.shopTok, id(a), `{"name": `), 400, "")
	res = Do(t, http.MethodPatch, f.URL+"/api/media/"+id(a)+"/", "name=x", append(auth(f.shopTok), "Content-Type", "application/x-www-form-urlencoded")...)
	WantResponse(t, res, 415, `{"detail": "Unsupported media type \"application/x-www-form-urlencoded\" in request."}`)

	// Once a product uses a media, it keeps its name.
	ctx := context.Background()
	var protoID int64
	gcMust(t, f.db.NewRaw(`INSERT INTO voucher_prototypes (partner_id) VALUES (?) RETURNING id`, f.shopID).Scan(ctx, &protoID))
	_, err := f.db.ExecContext(ctx, `INSERT INTO voucher_prototype_images (voucher_prototype_id, media_id, position) VALUES (?, ?, 0)`, protoID, int64(b["id"].(float64)))
	gcMust(t, err)
	_, err = f.db.ExecContext(ctx, `UPDATE voucher_prototypes SET cover_image_id = ? WHERE id = ?`, int64(c["id"].(float64)), protoID)
	gcMust(t, err)
	for _, used := range []string{id(b), id(c)} {
		WantResponse(t, patch(f.shopTok, used, `{"name": "x"}`), 409,
			`{"detail": "This media is used by a product and can no longer be renamed."}`)
	}
	WantResponse(t, patch(f.rivalTok, id(b), `{"name": "x"}`), 404, `{"detail": "Not found."}`)

	// Media bytes: public, cacheable, 304 on a matching ETag, 404 unknown or archived.
	res = Do(t, http.MethodGet, f.URL+"/media/"+a["uuid"].(string), "")
	if res.Status != 200 || res.Body != string(f.pngData) || res.Header.Get("Content-Type") != "image/png" ||
		res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || res.Header.Get("ETag") != `"`+a["uuid"].(string)+`"` ||
		res.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("GET /media/: %d %v", res.Status, res.Header)
	}
	res = Do(t, http.MethodGet, f.URL+"/media/"+a["uuid"].(string), "", "If-None-Match", `"`+a["uuid"].(string)+`"`)
	if res.Status != http.StatusNotModified || res.Body != "" {
		t.Errorf("conditional GET: %d %q", res.Status, res.Body)
	}
	WantResponse(t, Do(t, http.MethodGet, f.URL+"/media/0b8e5f5e-3c1a-4f0e-9d7e-2f6a1c9b8d00", ""), 404, `{"detail": "Not found."}`)
	WantResponse(t, Do(t, http.MethodGet, f.URL+"/media/not-a-uuid", ""), 404, `{"detail": "Not found."}`)
	_, err = f.db.ExecContext(ctx, `UPDATE media SET archived_on = now() WHERE id = ?`, int64(a["id"].(float64)))
	gcMust(t, err)
	WantResponse(t, Do(t, http.MethodGet, f.URL+"/media/"+a["uuid"].(string), ""), 404, `{"detail": "Not found."}`)
	res = Do(t, http.MethodGet, f.URL+"/api/media/"+id(a)+"/", "", auth(f.shopTok)...)
	if res.Status != 200 || res.JSON(t)["archived_on"] == nil {
		t.Errorf("archived media: %d %s", res.Status, res.Body)
	}
}

// maps returns a copy of m with key set to value.
func maps(m map[string]any, key string, value any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	out[key] = value
	return out
}

// A rename waits for a transaction that is linking the media to a product,
// then refuses: the check and the update cannot interleave with the link.
func TestAdminMediaRenameRace(t *testing.T) {
	t.Parallel()
	f := newMediaFixture(t)
	m := f.mustUpload(t, f.shopTok, "Racy")
	ctx := context.Background()
	var protoID int64
	gcMust(t, f.db.NewRaw(`INSERT INTO voucher_prototypes (partner_id) VALUES (?) RETURNING id`, f.shopID).Scan(ctx, &protoID))
	tx, err := f.db.BeginTx(ctx, nil)
	gcMust(t, err)
	_, err = tx.ExecContext(ctx, `INSERT INTO voucher_prototype_images (voucher_prototype_id, media_id, position) VALUES (?, ?, 0)`, protoID, int64(m["id"].(float64)))
	gcMust(t, err)
	done := make(chan Response, 1)
	go func() {
		done <- Do(t, http.MethodPatch, f.URL+"/api/media/"+fmt.Sprint(int64(m["id"].(float64)))+"/", `{"name": "x"}`, auth(f.shopTok)...)
	}()
	select {
	case res := <-done:
		t.Fatalf("the rename did not wait for the linking transaction: %d %s", res.Status, res.Body)
	case <-time.After(300 * time.Millisecond):
	}
	gcMust(t, tx.Commit())
	WantResponse(t, <-done, 409, `{"detail": "This media is used by a product and can no longer be renamed."}`)
}

// graph runs a GraphQL operation over HTTP and returns data and errors.
func (f *mediaFixture) graph(t *testing.T, token, query string, vars map[string]any) (json.RawMessage, []gqlError) {
	t.Helper()
	body := jsonText(t, map[string]any{"query": query, "variables": vars})
	h := []string{}
	if token != "" {
		h = auth(token)
	}
	return decodeGraph(t, Do(t, http.MethodPost, f.URL+"/graphql", body, h...))
}

func decodeGraph(t *testing.T, res Response) (json.RawMessage, []gqlError) {
	t.Helper()
	var out struct {
		Data   json.RawMessage
		Errors []gqlError
	}
	if err := json.Unmarshal([]byte(res.Body), &out); err != nil {
		t.Fatalf("graph answer %d %q: %v", res.Status, res.Body, err)
	}
	return out.Data, out.Errors
}

const mediaFields = `id uuid name createdOn archivedOn url contentType size width height`

// graphUpload sends uploadMedia as a GraphQL multipart request.
func (f *mediaFixture) graphUpload(t *testing.T, token string, input map[string]any, data []byte, headers ...string) Response {
	t.Helper()
	input["file"] = nil
	ops := jsonText(t, map[string]any{
		"query":     `mutation($input: UploadMediaInput!) { uploadMedia(input: $input) { media { ` + mediaFields + ` } userErrors { field code message } errors { field code message } } }`,
		"variables": map[string]any{"input": input},
	})
	body, ct := multipartBody(t, field("operations", ops), field("map", `{"f": ["variables.input.file"]}`), file("f", data))
	h := append([]string{"Content-Type", ct}, headers...)
	if token != "" {
		h = append(h, auth(token)...)
	}
	return Do(t, http.MethodPost, f.URL+"/graphql", body, h...)
}

func TestGraphMedia(t *testing.T) {
	t.Parallel()
	f := newMediaFixture(t)
	preflight := []string{"GraphQL-Require-Preflight", "1"}

	res := f.graphUpload(t, f.shopTok, map[string]any{"name": "Graph logo"}, f.pngData, preflight...)
	data, errs := decodeGraph(t, res)
	if errs != nil || res.Status != 200 {
		t.Fatalf("%d %v", res.Status, errs)
	}
	var up struct {
		UploadMedia struct{ Media map[string]any }
	}
	gcMust(t, json.Unmarshal(data, &up))
	m := up.UploadMedia.Media
	uuid := m["uuid"].(string)
	var rowID int64
	var created time.Time
	gcMust(t, f.db.NewRaw(`SELECT id, created_on FROM media WHERE uuid = ?`, uuid).Scan(context.Background(), &rowID, &created))
	want := map[string]any{"id": globalID("Media", rowID), "uuid": uuid, "name": "Graph logo",
		"createdOn": created.UTC().Format(time.RFC3339Nano), "archivedOn": nil, "url": f.URL + "/media/" + uuid,
		"contentType": "image/png", "size": len(f.pngData), "width": 4, "height": 3}
	gotCreated, _ := time.Parse(time.RFC3339Nano, m["createdOn"].(string))
	m["createdOn"], want["createdOn"] = gotCreated.Equal(created), true
	WantJSON(t, []byte(jsonText(t, m)), jsonText(t, want))
	if got := Do(t, http.MethodGet, m["url"].(string), ""); got.Status != 200 || got.Body != string(f.pngData) {
		t.Errorf("GET url: %d", got.Status)
	}

	// Upload refusals: CSRF, input errors, permissions.
	res = f.graphUpload(t, f.shopTok, map[string]any{"name": "x"}, f.pngData)
	if res.Status != 400 || !strings.Contains(res.Body, "PREFLIGHT_REQUIRED") {
		t.Errorf("without preflight header: %d %s", res.Status, res.Body)
	}
	data, _ = decodeGraph(t, f.graphUpload(t, f.shopTok, map[string]any{"name": "", "partnerUuid": f.rivalUUID}, []byte("GIF89a nope"), preflight...))
	WantJSON(t, data, `{"uploadMedia": {"media": null, "userErrors": [
		{"field": ["name"], "code": "required", "message": "This field may not be blank."},
		{"field": ["file"], "code": "invalid", "message": "Upload a valid image. The file you uploaded was either not an image or a corrupted image."}], "errors": [
		{"field": ["input", "name"], "code": "REQUIRED", "message": "This field may not be blank."},
		{"field": ["input", "file"], "code": "INVALID", "message": "Upload a valid image. The file you uploaded was either not an image or a corrupted image."}]}}`)
	data, _ = decodeGraph(t, f.graphUpload(t, f.shopTok, map[string]any{"name": "x", "partnerUuid": f.rivalUUID}, f.pngData, preflight...))
	WantJSON(t, data, `{"uploadMedia": {"media": null, "userErrors": [
		{"field": ["partnerUuid"], "code": "does_not_exist", "message": "Object with uuid=`+f.rivalUUID+` does not exist."}], "errors": [
		{"field": ["input", "partnerUuid"], "code": "DOES_NOT_EXIST", "message": "Object with uuid=`+f.rivalUUID+` does not exist."}]}}`)
	// partnerId, the Partner's global id, replaces partnerUuid; the errors name it.
	data, _ = decodeGraph(t, f.graphUpload(t, f.shopTok, map[string]any{"name": "x", "partnerId": globalID("Partner", f.rivalUUID)}, f.pngData, preflight...))
	WantJSON(t, data, `{"uploadMedia": {"media": null, "userErrors": [
		{"field": ["partnerId"], "code": "does_not_exist", "message": "Object with uuid=`+f.rivalUUID+` does not exist."}], "errors": [
		{"field": ["input", "partnerId"], "code": "DOES_NOT_EXIST", "message": "Object with uuid=`+f.rivalUUID+` does not exist."}]}}`)
	// A record id or a CataloguePartner's global id is looked up as
	// adminPartner reads it: another tenant's is NOT_FOUND, as is a string
	// that is none of these.
	for _, ref := range []string{f.rivalUUID, fmt.Sprint(f.rivalID), globalID("CataloguePartner", f.rivalID)} {
		_, errs = decodeGraph(t, f.graphUpload(t, f.shopTok, map[string]any{"name": "x", "partnerId": ref}, f.pngData, preflight...))
		if len(errs) != 1 || errs[0].Extensions["code"] != "NOT_FOUND" {
			t.Errorf("partnerId %q: %+v", ref, errs)
		}
	}
	_, errs = decodeGraph(t, f.graphUpload(t, f.readerTok, map[string]any{"name": "x"}, f.pngData, preflight...))
	wantGraphCode(t, errs, "FORBIDDEN")
	_, errs = decodeGraph(t, f.graphUpload(t, "", map[string]any{"name": "x"}, f.pngData, preflight...))
	wantGraphCode(t, errs, "UNAUTHENTICATED")
	if rows, blobs := f.stored(t); rows != 1 || blobs != 1 {
		t.Errorf("stored %d rows, %d blobs after refusals; want 1, 1", rows, blobs)
	}

	// Reads: the connection and one item, tenant-scoped.
	f.mustUpload(t, f.shopTok, "Second")
	f.mustUpload(t, f.rivalTok, "Rival's")
	data, errs = f.graph(t, f.shopTok, `{ media(first: 1) { totalCount edges { node { name } } pageInfo { hasNextPage endCursor } } }`, nil)
	if errs != nil {
		t.Fatal(errs)
	}
	var conn struct {
		Media struct {
			TotalCount int
			Edges      []struct{ Node struct{ Name string } }
			PageInfo   struct {
				HasNextPage bool
				EndCursor   string
			}
		}
	}
	gcMust(t, json.Unmarshal(data, &conn))
	if conn.Media.TotalCount != 2 || len(conn.Media.Edges) != 1 || conn.Media.Edges[0].Node.Name != "Second" || !conn.Media.PageInfo.HasNextPage {
		t.Errorf("media(first: 1) = %s", data)
	}
	data, _ = f.graph(t, f.shopTok, `query($after: String) { media(first: 5, after: $after) { edges { node { name } } pageInfo { hasNextPage } } }`,
		map[string]any{"after": conn.Media.PageInfo.EndCursor})
	WantJSON(t, data, `{"media": {"edges": [{"node": {"name": "Graph logo"}}], "pageInfo": {"hasNextPage": false}}}`)
	data, _ = f.graph(t, f.staffTok, `{ media { totalCount } }`, nil)
	WantJSON(t, data, `{"media": {"totalCount": 3}}`)
	_, errs = f.graph(t, "", `{ media { totalCount } }`, nil)
	wantGraphCode(t, errs, "UNAUTHENTICATED")

	item := `query($id: ID!) { mediaItem(id: $id) { name url } }`
	data, errs = f.graph(t, f.shopTok, item, map[string]any{"id": fmt.Sprint(rowID)})
	if errs != nil {
		t.Fatal(errs)
	}
	WantJSON(t, data, `{"mediaItem": {"name": "Graph logo", "url": "`+f.URL+`/media/`+uuid+`"}}`)
	for _, tok := range []string{f.rivalTok, f.readerTok} {
		_, errs = f.graph(t, tok, item, map[string]any{"id": fmt.Sprint(rowID)})
		wantGraphCode(t, errs, "NOT_FOUND")
	}
	_, errs = f.graph(t, f.shopTok, item, map[string]any{"id": "abc"})
	wantGraphCode(t, errs, "NOT_FOUND")

	// Rename: the same rules as PATCH.
	rename := `mutation($id: ID!, $name: String!) { renameMedia(input: {id: $id, name: $name}) { media { name } userErrors { field code message } errors { field code message } } }`
	data, errs = f.graph(t, f.shopTok, rename, map[string]any{"id": fmt.Sprint(rowID), "name": "Renamed"})
	if errs != nil {
		t.Fatal(errs)
	}
	WantJSON(t, data, `{"renameMedia": {"media": {"name": "Renamed"}, "userErrors": [], "errors": []}}`)
	data, _ = f.graph(t, f.shopTok, rename, map[string]any{"id": fmt.Sprint(rowID), "name": " "})
	WantJSON(t, data, `{"renameMedia": {"media": null, "userErrors": [{"field": ["name"], "code": "required", "message": "This field may not be blank."}],
		"errors": [{"field": ["input", "name"], "code": "REQUIRED", "message": "This field may not be blank."}]}}`)
	_, errs = f.graph(t, f.rivalTok, rename, map[string]any{"id": fmt.Sprint(rowID), "name": "x"})
	wantGraphCode(t, errs, "NOT_FOUND")
	_, errs = f.graph(t, f.readerTok, rename, map[string]any{"id": fmt.Sprint(rowID), "name": "x"})
	wantGraphCode(t, errs, "FORBIDDEN")
	var protoID int64
	ctx := context.Background()
	gcMust(t, f.db.NewRaw(`INSERT INTO voucher_prototypes (partner_id, cover_image_id) VALUES (?, ?) RETURNING id`, f.shopID, rowID).Scan(ctx, &protoID))
	_, errs = f.graph(t, f.shopTok, rename, map[string]any{"id": fmt.Sprint(rowID), "name": "x"})
	wantGraphCode(t, errs, "CONFLICT")
	if len(errs) == 1 && errs[0].Message != "This media is used by a product and can no longer be renamed." {
		t.Errorf("conflict message %q", errs[0].Message)
	}

	// Filters and orders: Renamed is used (a cover), Second and a JPEG are not.
	if res := f.upload(t, f.shopTok, field("name", "Third jpeg"), file("file", f.jpegData)); res.Status != http.StatusCreated {
		t.Fatalf("jpeg: %d %s", res.Status, res.Body)
	}
	names := func(tok, args string) string {
		t.Helper()
		data, errs := f.graph(t, tok, `{ media`+args+` { totalCount edges { node { name } } } }`, nil)
		if errs != nil {
			t.Fatalf("media%s: %v", args, errs)
		}
		var c struct {
			Media struct {
				TotalCount int
				Edges      []struct{ Node struct{ Name string } }
			}
		}
		gcMust(t, json.Unmarshal(data, &c))
		out := fmt.Sprint(c.Media.TotalCount)
		for _, e := range c.Media.Edges {
			out += "|" + e.Node.Name
		}
		return out
	}
	for args, want := range map[string]string{
		"":                              "3|Third jpeg|Second|Renamed",
		"(filter: {unused: true})":      "2|Third jpeg|Second",
		"(filter: {unused: false})":     "1|Renamed",
		"(filter: {contentType: JPEG})": "1|Third jpeg",
		"(filter: {contentType: PNG, search: \"sEc\"})": "1|Second",
		"(orderBy: {field: NAME})":                      "3|Renamed|Second|Third jpeg",
		"(orderBy: {field: NAME, direction: DESC})":     "3|Third jpeg|Second|Renamed",
		"(orderBy: {field: CREATED_ON})":                "3|Renamed|Second|Third jpeg",
		"(filter: {search: \"%\"})":                     "0",
	} {
		if got := names(f.shopTok, args); got != want {
			t.Errorf("media%s = %s, want %s", args, got, want)
		}
	}
	if got := names(f.staffTok, `(filter: {search: "rival"})`); got != "1|Rival's" {
		t.Errorf("staff search = %s", got)
	}
	partnerMedia := fmt.Sprintf(`{ adminPartner(uuid: %q) { media(filter: {unused: true}, orderBy: {field: NAME}) { totalCount edges { node { name } } } } }`, f.shopUUID)
	data, errs = f.graph(t, f.staffTok, partnerMedia, nil)
	if errs != nil {
		t.Fatal(errs)
	}
	WantJSON(t, data, `{"adminPartner": {"media": {"totalCount": 2, "edges": [{"node": {"name": "Second"}}, {"node": {"name": "Third jpeg"}}]}}}`)
	data, errs = f.graph(t, f.staffTok, `{ media(filter: {search: "Rival"}) { edges { node { partnerId partner { uuid } } } } }`, nil)
	if errs != nil {
		t.Fatal(errs)
	}
	WantJSON(t, data, fmt.Sprintf(`{"media": {"edges": [{"node": {"partnerId": "%d", "partner": {"uuid": %q}}}]}}`, f.rivalID, f.rivalUUID))
	_, errs = f.graph(t, f.rivalTok, partnerMedia, nil)
	wantGraphCode(t, errs, "NOT_FOUND")
}

func wantGraphCode(t *testing.T, errs []gqlError, code string) {
	t.Helper()
	if len(errs) != 1 || errs[0].Extensions["code"] != code {
		t.Errorf("errors = %+v, want one %s", errs, code)
	}
}

// With S3 configured, media live in the bucket, not under DATA_DIR.
func TestAdminMediaS3(t *testing.T) {
	t.Parallel()
	backend := s3mem.New()
	gcMust(t, backend.CreateBucket("media"))
	s3 := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(s3.Close)
	f := newMediaFixture(t, "--s3-endpoint", strings.TrimPrefix(s3.URL, "http://"), "--s3-bucket", "media",
		"--s3-access-key-id", "key", "--s3-secret-access-key", "secret", "--s3-region", "us-east-1", "--s3-insecure")
	m := f.mustUpload(t, f.shopTok, "In the bucket")
	if rows, blobs := f.stored(t); rows != 1 || blobs != 0 {
		t.Errorf("stored %d rows, %d local files; want 1, 0", rows, blobs)
	}
	list, err := backend.ListBucket("media", nil, gofakes3.ListBucketPage{})
	gcMust(t, err)
	if len(list.Contents) != 1 {
		t.Errorf("bucket holds %d objects, want 1", len(list.Contents))
	}
	res := Do(t, http.MethodGet, f.URL+"/media/"+m["uuid"].(string), "")
	if res.Status != 200 || res.Body != string(f.pngData) {
		t.Errorf("GET /media/ from S3: %d", res.Status)
	}
}
