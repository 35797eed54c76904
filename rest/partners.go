package rest

import "github.com/gorilla/mux"

// registerPartnerCatalogRoutes adds the catalogue routes of PartnerCatalogService.
func registerPartnerCatalogRoutes(r *mux.Router, a *api) {}
