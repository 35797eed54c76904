package rest

import "github.com/gorilla/mux"

// registerGiftRoutes adds the catalogue routes of GiftService.
func registerGiftRoutes(r *mux.Router, a *api) {}
