package rest

import (
	"net/http"

	"github.com/gorilla/mux"

	"salesplatform/domain/catalogue"
)

// registerWorkshopRoutes adds the catalogue routes of WorkshopService.
func registerWorkshopRoutes(r *mux.Router, a *api) {
	handle(r, "/api/v2/workshops/{id}/", a.handleWorkshopGet, http.MethodGet, http.MethodHead, http.MethodOptions)
	handle(r, "/api/v2/workshop_sessions/", a.handleWorkshopSessionList, http.MethodGet, http.MethodHead)
	handle(r, "/api/v2/workshop_themes/", a.handleWorkshopThemeList, http.MethodGet, http.MethodHead)
}

// jsonWorkshopTag is a level, theme, target, skill or recipe.
type jsonWorkshopTag struct {
	ID   int64         `json:"id"`
	Name jsonLocalized `json:"name"`
}

func toJSONWorkshopTag(t *catalogue.WorkshopTag) jsonWorkshopTag {
	return jsonWorkshopTag{ID: t.ID, Name: toJSONLocalized(t.Name)}
}

func toJSONWorkshopTags(tags []catalogue.WorkshopTag) []jsonWorkshopTag {
	out := make([]jsonWorkshopTag, len(tags))
	for i := range tags {
		out[i] = toJSONWorkshopTag(&tags[i])
	}
	return out
}

type jsonWorkshopCategory struct {
	ID                     int64         `json:"id"`
	Name                   jsonLocalized `json:"name"`
	Price                  string        `json:"price"`
	PriceFormatted         jsonLocalized `json:"price_formatted"`
	CurrencyCode           string        `json:"currency_code"`
	SpecificValidityPeriod *int          `json:"specific_validity_period"`
}

// jsonWorkshopSession is a WorkshopSession (spec 2.15); workshop_id is an
// addition of this service.
type jsonWorkshopSession struct {
	ID                        int64         `json:"id"`
	WorkshopID                int64         `json:"workshop_id"`
	StartingDatetime          string        `json:"starting_datetime"`
	StartingDatetimeFormatted jsonLocalized `json:"starting_datetime_formatted"`
	EndingDatetime            string        `json:"ending_datetime"`
	EndingDatetimeFormatted   jsonLocalized `json:"ending_datetime_formatted"`
	MinCapacity               int           `json:"min_capacity"`
	MaxCapacity               int           `json:"max_capacity"`
	DurationFormatted         jsonLocalized `json:"duration_formatted"`
	DurationValueFormatted    jsonLocalized `json:"duration_value_formatted"`
	AvailablePlaces           int           `json:"available_places"`
	FunnelLink                string        `json:"funnel_link"`
}

func toJSONWorkshopSession(s *catalogue.WorkshopSessionView) jsonWorkshopSession {
	return jsonWorkshopSession{
		ID: s.ID, WorkshopID: s.WorkshopID,
		StartingDatetime: scheduleDateTime(s.Start), StartingDatetimeFormatted: toJSONLocalized(s.StartFormatted),
		EndingDatetime: scheduleDateTime(s.End), EndingDatetimeFormatted: toJSONLocalized(s.EndFormatted),
		MinCapacity: s.MinCapacity, MaxCapacity: s.MaxCapacity,
		DurationFormatted:      toJSONLocalized(s.DurationFormatted),
		DurationValueFormatted: toJSONLocalized(s.DurationValueFormatted),
		AvailablePlaces:        s.AvailablePlaces, FunnelLink: s.FunnelLink,
	}
}

// jsonWorkshop is the workshop detail (spec 2.15).
type jsonWorkshop struct {
	ID                            int64                 `json:"id"`
	Name                          jsonLocalized         `json:"name"`
	ShortDescription              jsonLocalized         `json:"short_description"`
	LongDescription               jsonLocalized         `json:"long_description"`
	BookingConditions             jsonLocalized         `json:"booking_conditions"`
	Images                        []string              `json:"images"`
	CanBePrivatized               bool                  `json:"can_be_privatized"`
	DisplayCalendar               bool                  `json:"display_calendar"`
	Address                       string                `json:"address"`
	Category                      jsonWorkshopCategory  `json:"category"`
	Level                         *jsonWorkshopTag      `json:"level"`
	Themes                        []jsonWorkshopTag     `json:"themes"`
	Targets                       []jsonWorkshopTag     `json:"targets"`
	Skills                        []jsonWorkshopTag     `json:"skills"`
	Recipes                       []jsonWorkshopTag     `json:"recipes"`
	Sessions                      []jsonWorkshopSession `json:"sessions"`
	ActivateWorkshopsGroupPayment bool                  `json:"activate_workshops_group_payment"`
}

func toJSONWorkshop(v *catalogue.WorkshopView) jsonWorkshop {
	w, c := v.Workshop, v.Category
	out := jsonWorkshop{
		ID: w.ID, Name: toJSONLocalized(w.Name), ShortDescription: toJSONLocalized(w.ShortDescription),
		LongDescription: toJSONLocalized(w.LongDescription), BookingConditions: toJSONLocalized(w.BookingConditions),
		Images: w.Images, CanBePrivatized: w.CanBePrivatized, DisplayCalendar: w.DisplayCalendar, Address: w.Address,
		Category: jsonWorkshopCategory{ID: c.ID, Name: toJSONLocalized(c.Name), Price: moneyText(c.Price),
			PriceFormatted: toJSONLocalized(c.PriceFormatted), CurrencyCode: c.CurrencyCode,
			SpecificValidityPeriod: c.SpecificValidityPeriod},
		Themes: toJSONWorkshopTags(w.Themes), Targets: toJSONWorkshopTags(w.Targets),
		Skills: toJSONWorkshopTags(w.Skills), Recipes: toJSONWorkshopTags(w.Recipes),
		Sessions:                      make([]jsonWorkshopSession, len(v.Sessions)),
		ActivateWorkshopsGroupPayment: w.ActivateWorkshopsGroupPayment,
	}
	if out.Images == nil {
		out.Images = []string{}
	}
	if w.Level != nil {
		l := toJSONWorkshopTag(w.Level)
		out.Level = &l
	}
	for i, s := range v.Sessions {
		out.Sessions[i] = toJSONWorkshopSession(s)
	}
	return out
}

// handleWorkshopGet is GET /api/v2/workshops/{id}/ (workshops_retrieve) and
// OPTIONS on the same path (workshops_options_retrieve), which answers the
// same body with the allowed methods.
func (a *api) handleWorkshopGet(w http.ResponseWriter, r *http.Request) {
	v, err := a.WorkshopCatalog.Workshop(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		writeError(w, r, err)
		return
	}
	if r.Method == http.MethodOptions {
		w.Header().Set("Allow", "GET, HEAD, OPTIONS")
	}
	writeJSON(w, http.StatusOK, toJSONWorkshop(v))
}

// handleWorkshopSessionList is GET /api/v2/workshop_sessions/: upcoming
// sessions, optionally of one workshop (query `workshop`).
func (a *api) handleWorkshopSessionList(w http.ResponseWriter, r *http.Request) {
	page, err := pageRequest(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	p, err := a.WorkshopCatalog.WorkshopSessions(r.Context(),
		catalogue.WorkshopSessionQuery{Workshop: r.URL.Query().Get("workshop"), Page: page})
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONPage(r, p, toJSONWorkshopSession))
}

// handleWorkshopThemeList is GET /api/v2/workshop_themes/ (workshop_themes_list).
func (a *api) handleWorkshopThemeList(w http.ResponseWriter, r *http.Request) {
	page, err := pageRequest(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	p, err := a.WorkshopCatalog.WorkshopThemes(r.Context(), page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONPage(r, p, toJSONWorkshopTag))
}
