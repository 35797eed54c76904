package rest

import "github.com/gorilla/mux"

// registerEventRoutes adds the catalogue routes of EventService.
func registerEventRoutes(r *mux.Router, a *api) {}
