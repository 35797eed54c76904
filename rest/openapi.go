package rest

import (
	"net/http"

	"github.com/gorilla/mux"

	"salesplatform/rest/openapi"
)

// registerOpenAPIRoutes serves the OpenAPI document of these routes
// (rest/openapi/openapi.yaml) and its offline API reference page.
func registerOpenAPIRoutes(r *mux.Router, _ *api) {
	get := []string{http.MethodGet, http.MethodHead}
	handle(r, openapi.DocumentPath, openapi.ServeDocument, get...)
	r.Handle(openapi.JSONPath, http.HandlerFunc(openapi.ServeJSON)).Methods(get...)
	handle(r, openapi.ViewerPath, openapi.ServeViewer, get...)
	r.Handle(openapi.ViewerPath+"{asset}", http.HandlerFunc(openapi.ServeAsset)).Methods(get...)
}
