package rest

import "github.com/gorilla/mux"

// registerWidgetRoutes adds the catalogue routes of WidgetService.
func registerWidgetRoutes(r *mux.Router, a *api) {}
