package rest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"salesplatform/rest/upload"
)

func uploadRequest(body string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/api/media/", strings.NewReader(body))
	r.Header.Set("Content-Type", "multipart/form-data; boundary=x")
	return r
}

// readUpload keeps the fields asked for (their first value) and the first
// file of "file", counts every file, and refuses what would be held in
// memory past its bounds.
func TestReadUpload(t *testing.T) {
	body := "--x\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nLogo\r\n" +
		"--x\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nsecond\r\n" +
		"--x\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nskipped\r\n" +
		"--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\n\r\nbytes of a\r\n" +
		"--x\r\nContent-Disposition: form-data; name=\"extra\"; filename=\"b.png\"\r\n\r\nbytes of b\r\n--x--\r\n"
	rec := httptest.NewRecorder()
	u := readUpload(rec, uploadRequest(body), 1<<20, "name", "partner_uuid")
	if u == nil {
		t.Fatalf("refused: %d %s", rec.Code, rec.Body)
	}
	defer u.Close()
	if v := u.value("name"); v == nil || *v != "Logo" {
		t.Errorf("name = %v", v)
	}
	if u.value("partner_uuid") != nil || u.value("other") != nil {
		t.Errorf("values = %v", u.values)
	}
	if u.files != 2 {
		t.Errorf("files = %d, want 2", u.files)
	}
	if got, err := io.ReadAll(u.File()); err != nil || string(got) != "bytes of a" {
		t.Errorf("file = %q, %v", got, err)
	}

	part := func(headers, content string) string {
		return "--x\r\nContent-Disposition: form-data; name=\"name\"" + headers + "\r\n\r\n" + content + "\r\n--x--\r\n"
	}
	refusals := []struct {
		name, body string
		max        int64
		status     int
	}{
		{"a value past maxFieldBytes", part("", strings.Repeat("n", maxFieldBytes+1)), 1 << 20, http.StatusBadRequest},
		{"headers past upload.MaxPartHeaderBytes", part("\r\nX-Pad: "+strings.Repeat("h", upload.MaxPartHeaderBytes), "Logo"), 1 << 20, http.StatusBadRequest},
		{"a body past its limit", part("", "Logo"), 50, http.StatusRequestEntityTooLarge},
		{"no multipart body", "garbage", 1 << 20, http.StatusBadRequest},
	}
	for _, c := range refusals {
		rec := httptest.NewRecorder()
		if u := readUpload(rec, uploadRequest(c.body), c.max, "name"); u != nil {
			u.Close()
			t.Errorf("%s: read", c.name)
		} else if rec.Code != c.status {
			t.Errorf("%s: %d %s, want %d", c.name, rec.Code, rec.Body, c.status)
		}
	}
}
