package rest

import "github.com/gorilla/mux"

// registerPrototypeRoutes adds the catalogue routes of PrototypeService.
func registerPrototypeRoutes(r *mux.Router, a *api) {}
