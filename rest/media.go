package rest

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/mux"

	"salesplatform/domain"
	"salesplatform/domain/media"
)

// MaxMediaBodyBytes bounds a media upload's body: the file and room for the
// other fields and the multipart framing.
const MaxMediaBodyBytes = media.MaxMediaBytes + 64<<10

// registerMediaRoutes adds the media routes and the
// public media bytes.
func registerMediaRoutes(r *mux.Router, a *api) {
	handleWithToken(r, "/api/media/", a.handleMediaUpload, http.MethodPost)
	handleWithToken(r, "/api/media/", a.handleMediaList, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/media/{id}/", a.handleMediaGet, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/media/{id}/", a.handleMediaRename, http.MethodPatch)
	r.Handle("/media/{uuid}", http.HandlerFunc(a.handleMediaContent)).Methods(http.MethodGet, http.MethodHead)
}

// jsonMedia is the spec's Media.
type jsonMedia struct {
	ID         int64      `json:"id"`
	UUID       string     `json:"uuid"`
	Name       string     `json:"name"`
	CreatedOn  time.Time  `json:"created_on"`
	ArchivedOn *time.Time `json:"archived_on"`
}

func toJSONMedia(m media.Media) jsonMedia {
	out := jsonMedia{ID: m.ID, UUID: m.UUID.String(), Name: m.Name, CreatedOn: m.CreatedOn.UTC()}
	if m.ArchivedOn != nil {
		t := m.ArchivedOn.UTC()
		out.ArchivedOn = &t
	}
	return out
}

func (a *api) handleMediaUpload(w http.ResponseWriter, r *http.Request) {
	if mediaType(r) != "multipart/form-data" {
		unsupported(r).write(w)
		return
	}
	u := readUpload(w, r, MaxMediaBodyBytes, "name", "partner_uuid")
	if u == nil {
		return
	}
	defer u.Close()
	in := media.MediaUpload{Name: u.value("name"), PartnerUUID: u.value("partner_uuid"), File: u.File(), Files: u.files}
	m, err := a.MediaLibrary.Upload(r.Context(), in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, toJSONMedia(*m))
}

// handleMediaList answers a plain array, as the spec says, with the
// paging in headers: X-Total-Count and an RFC 8288 Link.
func (a *api) handleMediaList(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	req, err := media.ParseMediaPage(q.Get("page"), q.Get("page_size"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	p, err := a.MediaLibrary.List(r.Context(), media.MediaFilter{}, req)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeArrayPage(w, r, p, toJSONMedia)
}

func (a *api) handleMediaGet(w http.ResponseWriter, r *http.Request) {
	id, err := mediaID(r)
	if err == nil {
		var m *media.Media
		if m, err = a.MediaLibrary.Get(r.Context(), id); err == nil {
			writeJSON(w, http.StatusOK, toJSONMedia(*m))
			return
		}
	}
	writeError(w, r, err)
}

func (a *api) handleMediaRename(w http.ResponseWriter, r *http.Request) {
	id, err := mediaID(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	body, herr := decodeJSON(w, r)
	if herr != nil {
		herr.write(w)
		return
	}
	m, err := a.MediaLibrary.Rename(r.Context(), id, decodeRenameInput(body))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONMedia(*m))
}

// handleMediaContent serves a media's bytes to anyone: partner sites show
// them. A media's bytes never change (a rename changes the row only), so
// they are cacheable for a year and the uuid is a strong ETag.
func (a *api) handleMediaContent(w http.ResponseWriter, r *http.Request) {
	id, err := uuid.Parse(mux.Vars(r)["uuid"])
	if err != nil {
		writeError(w, r, domain.ErrNotFound)
		return
	}
	m, body, err := a.MediaLibrary.Content(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	defer body.Close()
	etag := `"` + m.UUID.String() + `"`
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
	if notModified(r, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", m.ContentType)
	h.Set("Content-Length", strconv.FormatInt(m.Size, 10))
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	if _, err := io.Copy(w, body); err != nil {
		logger(r).Warn("media body not sent whole", "media", m.UUID.String(), "error", err.Error())
	}
}

// notModified reports whether r's If-None-Match names etag: a list, in one
// header or several, compared weakly, as RFC 9110 says.
func notModified(r *http.Request, etag string) bool {
	for _, header := range r.Header.Values("If-None-Match") {
		for part := range strings.SplitSeq(header, ",") {
			part = strings.TrimPrefix(strings.TrimSpace(part), "W/")
			if part == "*" || part == strings.TrimPrefix(etag, "W/") {
				return true
			}
		}
	}
	return false
}
