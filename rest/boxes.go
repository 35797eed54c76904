package rest

import "github.com/gorilla/mux"

// registerBoxRoutes adds the catalogue routes of BoxService.
func registerBoxRoutes(r *mux.Router, a *api) {}
