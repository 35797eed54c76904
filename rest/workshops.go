package rest

import "github.com/gorilla/mux"

// registerWorkshopRoutes adds the catalogue routes of WorkshopService.
func registerWorkshopRoutes(r *mux.Router, a *api) {}
