// Package playground serves GraphiQL, an in-browser GraphQL IDE for staff,
// at /playground.
//
// Its assets (GraphiQL 3's UMD build, React 18) are vendored from their npm
// packages into assets/ and embedded in the binary, so the page works where
// the server has no internet access and never loads code from a CDN; a
// Content-Security-Policy holds the browser to this server. See
// assets/README.md for the versions and how to refresh them.
//
// Mount the handler on both the page path and the folder below it:
//
//	pg := playground.Handler("/graphql")
//	mux.Handle(playground.Path, pg)
//	mux.Handle(playground.Path+"/", pg)
package playground

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"salesplatform/rest/pagesecurity"
)

// Path is where the page is served; the assets are under Path + "/".
const Path = "/playground"

//go:embed page.html playground.js playground.css assets
var files embed.FS

var page = template.Must(template.New("page.html").Funcs(template.FuncMap{
	// asset gives the relative URL of an asset with its content version,
	// which lets browsers cache it for good.
	"asset": func(prefix, name string) (string, error) {
		a, ok := assets[name]
		if !ok {
			return "", fs.ErrNotExist
		}
		return prefix + name + "?v=" + a.version, nil
	},
}).ParseFS(files, "page.html"))

type asset struct {
	body        []byte
	contentType string
	version     string // hex prefix of the body's SHA-256

	gzipOnce sync.Once
	gzipped  []byte
}

// assets maps a path below Path+"/" to its file: the vendored files of
// assets/ (not its README) and this package's own script and style sheet.
var assets = func() map[string]*asset {
	m := map[string]*asset{}
	add := func(name, file string) {
		body, err := files.ReadFile(file)
		if err != nil {
			panic(err)
		}
		sum := sha256.Sum256(body)
		ct := "text/plain; charset=utf-8"
		switch path.Ext(name) {
		case ".js":
			ct = "text/javascript; charset=utf-8"
		case ".css":
			ct = "text/css; charset=utf-8"
		}
		m[name] = &asset{body: body, contentType: ct, version: hex.EncodeToString(sum[:8])}
	}
	add("playground.js", "playground.js")
	add("playground.css", "playground.css")
	err := fs.WalkDir(files, "assets", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && p != "assets/README.md" {
			add(strings.TrimPrefix(p, "assets/"), p)
		}
		return err
	})
	if err != nil {
		panic(err)
	}
	return m
}()

type handler struct {
	// pages[0] is the page for Path, pages[1] for Path+"/": the asset URLs
	// are relative, so that the page works behind a proxy that adds a
	// prefix, and differ by one folder.
	pages  [2][]byte
	policy pagesecurity.Policy
}

// Handler serves the GraphiQL page at Path (and Path+"/") pointed at the
// GraphQL endpoint, a path on this server such as "/graphql" or an absolute
// http(s) URL, and its assets below Path+"/". It panics when endpoint is
// empty.
func Handler(endpoint string) http.Handler {
	if endpoint == "" {
		panic("playground: empty GraphQL endpoint")
	}
	h := &handler{}
	for i, prefix := range []string{path.Base(Path) + "/", ""} {
		var buf bytes.Buffer
		if err := page.Execute(&buf, struct{ Prefix, Endpoint string }{prefix, endpoint}); err != nil {
			panic(err)
		}
		h.pages[i] = buf.Bytes()
	}
	connect := []string{pagesecurity.Self}
	if u, err := url.Parse(endpoint); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		connect = append(connect, u.Scheme+"://"+u.Host)
	}
	h.policy = pagesecurity.Policy{Script: []string{pagesecurity.Self}, Style: []string{pagesecurity.Self},
		Img: []string{pagesecurity.Self, pagesecurity.Data}, Font: []string{pagesecurity.Self, pagesecurity.Data}, Connect: connect}
	return h
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	switch r.URL.Path {
	case Path, Path + "/":
		body := h.pages[0]
		if r.URL.Path == Path+"/" {
			body = h.pages[1]
		}
		h.policy.Set(w.Header())
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
		return
	}
	name, ok := strings.CutPrefix(r.URL.Path, Path+"/")
	a := assets[name]
	if !ok || a == nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", a.contentType)
	// Asset URLs carry the content version: with the right one the response
	// is cached for good; without, revalidated by ETag.
	if r.URL.Query().Get("v") == a.version {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
	body, etag := a.body, `"`+a.version+`"`
	if len(a.body) >= 1024 {
		w.Header().Add("Vary", "Accept-Encoding")
		if acceptsGzip(r) {
			body, etag = a.gzip(), `"`+a.version+`-gzip"`
			w.Header().Set("Content-Encoding", "gzip")
		}
	}
	w.Header().Set("ETag", etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// gzip compresses the asset once, on first use: GraphiQL's bundle shrinks
// from 3.5 MB to well under 1 MB.
func (a *asset) gzip() []byte {
	a.gzipOnce.Do(func() {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write(a.body)
		_ = zw.Close()
		a.gzipped = buf.Bytes()
	})
	return a.gzipped
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(part, ";")
		if !strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			continue
		}
		q, found := strings.CutPrefix(strings.TrimSpace(params), "q=")
		if !found {
			return true
		}
		v, err := strconv.ParseFloat(q, 64)
		return err == nil && v > 0
	}
	return false
}
