package rest

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/gorilla/mux"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
)

// registerEventRoutes adds the catalogue routes of EventService.
func registerEventRoutes(r *mux.Router, a *api) {
	handle(r, "/api/v2/event_prototypes/{id}/", a.handleEventGet, http.MethodGet, http.MethodHead)
	handle(r, "/api/v2/event_slots/", a.handleEventSlotList, http.MethodGet, http.MethodHead)
}

// scheduleDateTime is an instant as the catalogue shows it: ISO 8601 with the
// offset of the zone it is in, to the second.
func scheduleDateTime(t time.Time) string { return t.Format(time.RFC3339) }

// moneyText is an amount with two decimal places.
func moneyText(d decimal.Decimal) string { return d.StringFixed(2) }

// optionalMoneyText is an amount, or null.
func optionalMoneyText(d *decimal.Decimal) *string {
	if d == nil {
		return nil
	}
	s := moneyText(*d)
	return &s
}

// optionalJSONLocalized is a Localized, or null when l is nil.
func optionalJSONLocalized(l domain.Localized) jsonLocalized {
	if l == nil {
		return nil
	}
	return toJSONLocalized(l)
}

// jsonEventSlot is a Slot inside an event detail (spec 2.2).
type jsonEventSlot struct {
	StartingDatetime          string        `json:"starting_datetime"`
	StartingDatetimeFormatted jsonLocalized `json:"starting_datetime_formatted"`
	EndingDatetime            string        `json:"ending_datetime"`
	EndingDatetimeFormatted   jsonLocalized `json:"ending_datetime_formatted"`
	DurationFormatted         jsonLocalized `json:"duration_formatted"`
	FunnelLink                string        `json:"funnel_link"`
	AvailablePlaces           int           `json:"available_places"`
}

// jsonEventFormula is one formula inside the event detail's formulas text.
type jsonEventFormula struct {
	ID             int64         `json:"id"`
	Name           jsonLocalized `json:"name"`
	Price          string        `json:"price"`
	PriceFormatted jsonLocalized `json:"price_formatted"`
}

type jsonDeliveryOptions struct {
	EmailToBuyer              bool   `json:"activated_email_to_buyer"`
	EmailToBeneficiary        bool   `json:"activated_email_to_beneficiary_delivery"`
	PostalMailToBuyer         bool   `json:"activated_postal_mail_to_buyer"`
	PostalMailToBeneficiary   bool   `json:"activated_postal_mail_to_beneficiary_delivery"`
	PostalMailShippingCost    string `json:"postal_mail_shipping_cost"`
	PostalMailDuration        int    `json:"postal_mail_duration"`
	PickupOnSite              bool   `json:"activated_pickup_on_site_delivery"`
	PickupOnSiteDuration      int    `json:"pickup_on_site_duration"`
	PickupOnSiteCost          string `json:"pickup_on_site_cost"`
	Activated3MAToBuyer       bool   `json:"activated_3MA_to_buyer"`
	Activated3MAToBeneficiary bool   `json:"activated_3MA_to_beneficiary"`
	MessengerDeliveryCost     string `json:"messenger_delivery_cost"`
}

// jsonEvent is the event detail (spec 2.3).
type jsonEvent struct {
	ID                   int64               `json:"id"`
	Name                 jsonLocalized       `json:"name"`
	ShortDescription     jsonLocalized       `json:"short_description"`
	LongDescription      jsonLocalized       `json:"long_description"`
	Booking              jsonLocalized       `json:"booking"`
	CoverImage           string              `json:"cover_image"`
	Images               []string            `json:"images"`
	Slots                []jsonEventSlot     `json:"slots"`
	Formulas             string              `json:"formulas"`
	LowestPrice          *string             `json:"lowest_price"`
	LowestPriceFormatted jsonLocalized       `json:"lowest_price_formatted"`
	CurrencyCode         string              `json:"currency_code"`
	DeliveryOptions      jsonDeliveryOptions `json:"delivery_options"`
}

func toJSONEvent(v *catalogue.EventView) jsonEvent {
	e, d := v.Event, v.Event.DeliveryOptions
	out := jsonEvent{
		ID: e.ID, Name: toJSONLocalized(e.Name), ShortDescription: toJSONLocalized(e.ShortDescription),
		LongDescription: toJSONLocalized(e.LongDescription), Booking: toJSONLocalized(e.Booking),
		CoverImage: e.CoverImage, Images: e.Images, Slots: make([]jsonEventSlot, len(v.Slots)),
		Formulas:             toJSONEventFormulas(v.Formulas),
		LowestPrice:          optionalMoneyText(v.LowestPrice),
		LowestPriceFormatted: optionalJSONLocalized(v.LowestPriceFormatted),
		CurrencyCode:         v.CurrencyCode,
		DeliveryOptions: jsonDeliveryOptions{
			EmailToBuyer: d.EmailToBuyer, EmailToBeneficiary: d.EmailToBeneficiary,
			PostalMailToBuyer: d.PostalMailToBuyer, PostalMailToBeneficiary: d.PostalMailToBeneficiary,
			PostalMailShippingCost: moneyText(d.PostalMailShippingCost), PostalMailDuration: d.PostalMailDuration,
			PickupOnSite: d.PickupOnSite, PickupOnSiteDuration: d.PickupOnSiteDuration,
			PickupOnSiteCost:    moneyText(d.PickupOnSiteCost),
			Activated3MAToBuyer: d.Activated3MAToBuyer, Activated3MAToBeneficiary: d.Activated3MAToBeneficiary,
			MessengerDeliveryCost: moneyText(d.MessengerDeliveryCost),
		},
	}
	if out.Images == nil {
		out.Images = []string{}
	}
	for i, s := range v.Slots {
		out.Slots[i] = jsonEventSlot{
			StartingDatetime: scheduleDateTime(s.Start), StartingDatetimeFormatted: toJSONLocalized(s.StartFormatted),
			EndingDatetime: scheduleDateTime(s.End), EndingDatetimeFormatted: toJSONLocalized(s.EndFormatted),
			DurationFormatted: toJSONLocalized(s.DurationFormatted), FunnelLink: s.FunnelLink,
			AvailablePlaces: s.AvailablePlaces,
		}
	}
	return out
}

// toJSONEventFormulas writes the formulas as the contract types them: one
// string, here the JSON text of the list (docs/DECISIONS.md).
func toJSONEventFormulas(formulas []catalogue.EventFormulaView) string {
	list := make([]jsonEventFormula, len(formulas))
	for i, f := range formulas {
		list[i] = jsonEventFormula{ID: f.ID, Name: toJSONLocalized(f.Name), Price: moneyText(f.Price),
			PriceFormatted: toJSONLocalized(f.PriceFormatted)}
	}
	b, err := json.Marshal(list)
	if err != nil {
		panic(err) // strings, numbers and maps of strings always marshal
	}
	return string(b)
}

// jsonEventSlotItem is an item of the event slot list (spec 2.4).
type jsonEventSlotItem struct {
	ID                        int64         `json:"id"`
	EventID                   int64         `json:"event_id"`
	Name                      jsonLocalized `json:"name"`
	Description               jsonLocalized `json:"description"`
	StartingDatetime          string        `json:"starting_datetime"`
	StartingDatetimeFormatted jsonLocalized `json:"starting_datetime_formatted"`
	EndingDatetime            string        `json:"ending_datetime"`
	EndingDatetimeFormatted   jsonLocalized `json:"ending_datetime_formatted"`
	DurationFormatted         jsonLocalized `json:"duration_formatted"`
	Price                     *string       `json:"price"`
	PriceFormatted            jsonLocalized `json:"price_formatted"`
	FormulasCount             int           `json:"formulas_count"`
	CurrencyCode              string        `json:"currency_code"`
	AvailablePlaces           int           `json:"available_places"`
	SlotsCount                int           `json:"slots_count"`
}

func toJSONEventSlotItem(it *catalogue.EventSlotItem) jsonEventSlotItem {
	return jsonEventSlotItem{
		ID: it.Slot.ID, EventID: it.Slot.EventID,
		Name: toJSONLocalized(it.EventName), Description: toJSONLocalized(it.EventDescription),
		StartingDatetime: scheduleDateTime(it.Start), StartingDatetimeFormatted: toJSONLocalized(it.StartFormatted),
		EndingDatetime: scheduleDateTime(it.End), EndingDatetimeFormatted: toJSONLocalized(it.EndFormatted),
		DurationFormatted: toJSONLocalized(it.DurationFormatted),
		Price:             optionalMoneyText(it.LowestPrice), PriceFormatted: optionalJSONLocalized(it.PriceFormatted),
		FormulasCount: it.FormulasCount, CurrencyCode: it.CurrencyCode,
		AvailablePlaces: it.Slot.AvailablePlaces, SlotsCount: it.SlotsCount,
	}
}

// handleEventGet is GET /api/v2/event_prototypes/{id}/ (event_prototypes_retrieve).
func (a *api) handleEventGet(w http.ResponseWriter, r *http.Request) {
	v, err := a.EventCatalog.Event(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONEvent(v))
}

// handleEventSlotList is GET /api/v2/event_slots/ (event_slots_list).
func (a *api) handleEventSlotList(w http.ResponseWriter, r *http.Request) {
	page, err := pageRequest(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	p, err := a.EventCatalog.EventSlots(r.Context(), page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONPage(r, p, toJSONEventSlotItem))
}
