// Package openapi holds the OpenAPI 3.1 document of the REST routes
// (openapi.yaml) and serves it: the YAML and its JSON form, and an API
// reference page rendered by Redoc, whose bundle is vendored in assets/
// and embedded so the page works offline and loads nothing from a CDN.
//
// The document is the contract the end-to-end tests enforce: every REST
// response they get is validated against it (cmd/salesplatform/e2e), and
// CI lints it. docs/API.md says how to keep it in step.
package openapi

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"html/template"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"salesplatform/rest/pagesecurity"
)

// Paths where the document and its viewer are served.
const (
	DocumentPath = "/api/schema/"
	JSONPath     = "/api/schema/openapi.json"
	ViewerPath   = "/api/schema/docs/"
)

//go:embed openapi.yaml viewer.html assets
var files embed.FS

// YAML is the document as written.
var YAML = mustRead("openapi.yaml")

func mustRead(name string) []byte {
	b, err := files.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return b
}

var jsonDoc = sync.OnceValues(func() ([]byte, error) {
	var v any
	if err := yaml.Unmarshal(YAML, &v); err != nil {
		return nil, err
	}
	return json.MarshalIndent(v, "", "  ")
})

// JSON is the document converted to JSON.
func JSON() ([]byte, error) { return jsonDoc() }

type asset struct {
	body        []byte
	contentType string
	version     string
}

// redocCreditLogo is where Redoc's sidebar credit takes its image: its
// CDN, which the page's CSP refuses, with an error in the console on every
// visit. The bundle is served with an empty src instead: the browser
// fetches nothing, and Redoc drops the image and keeps the credit's text.
const redocCreditLogo = `src:"https://cdn.redoc.ly/redoc/logo-mini.svg"`

// assets are the files below ViewerPath: the viewer's scripts and the
// licences that go with the vendored bundle.
var assets = func() map[string]*asset {
	m := map[string]*asset{}
	for _, name := range []string{"redoc.standalone.js", "redoc.standalone.js.LICENSE.txt", "LICENSE.redoc", "viewer.js"} {
		body := mustRead("assets/" + name)
		if name == "redoc.standalone.js" {
			body = bytes.Replace(body, []byte(redocCreditLogo), []byte(`src:""`), 1)
		}
		ct := "text/plain; charset=utf-8"
		if path.Ext(name) == ".js" {
			ct = "text/javascript; charset=utf-8"
		}
		sum := sha256.Sum256(body)
		m[name] = &asset{body: body, contentType: ct, version: hex.EncodeToString(sum[:8])}
	}
	return m
}()

var viewer = template.Must(template.ParseFS(files, "viewer.html"))

// ServeDocument answers the YAML document, or its JSON form with
// ?format=json.
func ServeDocument(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("format") == "json" {
		ServeJSON(w, r)
		return
	}
	write(w, r, "application/yaml; charset=utf-8", YAML)
}

// ServeJSON answers the document as JSON.
func ServeJSON(w http.ResponseWriter, r *http.Request) {
	b, err := JSON()
	if err != nil {
		http.Error(w, "the OpenAPI document does not parse: "+err.Error(), http.StatusInternalServerError)
		return
	}
	write(w, r, "application/json", b)
}

func write(w http.ResponseWriter, r *http.Request, contentType string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Link", "<"+ViewerPath+`>; rel="service-doc"`) // RFC 8631: where people read it
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Access-Control-Allow-Origin", "*") // a public document, read by tools
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// viewerPolicy: Redoc styles with inline <style> elements and runs its
// search in a worker made from a blob; everything else comes from this
// server.
var viewerPolicy = pagesecurity.Policy{
	Script: []string{pagesecurity.Self}, Style: []string{pagesecurity.Self, pagesecurity.UnsafeInline},
	Img: []string{pagesecurity.Self, pagesecurity.Data}, Font: []string{pagesecurity.Self, pagesecurity.Data},
	Connect: []string{pagesecurity.Self}, Worker: []string{pagesecurity.Self, pagesecurity.Blob},
}

// ServeViewer answers the API reference page.
func ServeViewer(w http.ResponseWriter, r *http.Request) {
	viewerPolicy.Set(w.Header())
	w.Header().Set("Cache-Control", "no-cache")
	var buf bytes.Buffer
	err := viewer.Execute(&buf, map[string]string{
		"Spec":   JSONPath,
		"Redoc":  assetURL("redoc.standalone.js"),
		"Viewer": assetURL("viewer.js"),
	})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if r.Method != http.MethodHead {
		_, _ = w.Write(buf.Bytes())
	}
}

func assetURL(name string) string { return ViewerPath + name + "?v=" + assets[name].version }

// ServeAsset answers a file of the viewer, named by the last path
// segment; with the version query the page puts on it, it is cached for
// good.
func ServeAsset(w http.ResponseWriter, r *http.Request) {
	a, ok := assets[path.Base(r.URL.Path)]
	if !ok || !strings.HasPrefix(r.URL.Path, ViewerPath) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"detail": "Not found."}` + "\n"))
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("ETag", `"`+a.version+`"`)
	if r.URL.Query().Get("v") == a.version {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.body))
}
