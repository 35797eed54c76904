package catalogue

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"time"
	_ "time/tzdata" // partners' zones, even where the host has no zoneinfo

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/l10n"
)

// Event is a partner's ticketed event: dates (slots) and ticket types
// (formulas) that every slot sells.
type Event struct {
	ID               int64
	PartnerID        int64
	Name             domain.Localized
	ShortDescription domain.Localized
	LongDescription  domain.Localized
	Booking          domain.Localized
	CoverImage       string
	Images           []string
	DeliveryOptions  DeliveryOptions
	// Slots and Formulas are filled by EventStore.FindEvent.
	Slots    []EventSlot
	Formulas []EventFormula
}

// DeliveryOptions are the ways an event's tickets reach the buyer or the
// beneficiary, stored per event.
type DeliveryOptions struct {
	EmailToBuyer              bool
	EmailToBeneficiary        bool
	PostalMailToBuyer         bool
	PostalMailToBeneficiary   bool
	PostalMailShippingCost    decimal.Decimal
	PostalMailDuration        int // days
	PickupOnSite              bool
	PickupOnSiteDuration      int // days
	PickupOnSiteCost          decimal.Decimal
	Activated3MAToBuyer       bool
	Activated3MAToBeneficiary bool
	MessengerDeliveryCost     decimal.Decimal
}

// EventSlot is one date of an event. AvailablePlaces is what remains to
// sell.
type EventSlot struct {
	ID              int64
	EventID         int64
	StartingAt      time.Time
	EndingAt        time.Time
	AvailablePlaces int
}

// EventFormula is a ticket type of an event and its price.
type EventFormula struct {
	ID      int64
	EventID int64
	Name    domain.Localized
	Price   decimal.Decimal
}

// EventSettings are a partner's ticket settings.
type EventSettings struct {
	// DisplayEventsPerSlots lists every available slot of an event in the
	// slot list instead of only its first one (display_events_per_slots of
	// the events product information).
	DisplayEventsPerSlots bool
}

// EventSlotFilter selects the slots of the event slot list.
type EventSlotFilter struct {
	PartnerID int64
	// After: only slots starting strictly after this instant, with places
	// left, are available.
	After time.Time
	// EverySlot lists every available slot; otherwise each event appears
	// once, by its earliest available slot.
	EverySlot bool
	Page      domain.PageRequest
}

// EventSlotListing is one row of the event slot list as stored: a slot with
// what the list shows of its event.
type EventSlotListing struct {
	Slot             EventSlot
	EventName        domain.Localized
	EventDescription domain.Localized // the event's short description
	FormulasCount    int
	// LowestPrice is the event's cheapest formula; nil when it has none.
	LowestPrice *decimal.Decimal
	// SlotsCount is the number of available slots of the event.
	SlotsCount int
}

// EventStore reads and writes what EventService serves.
type EventStore interface {
	EventAdminStore
	// CreateEvent inserts e (not its slots or formulas) and sets its ID.
	CreateEvent(ctx context.Context, e *Event) error
	// AddEventSlot inserts a slot of an existing event and sets its ID.
	AddEventSlot(ctx context.Context, s *EventSlot) error
	// AddEventFormula inserts a formula of an existing event and sets its ID.
	AddEventFormula(ctx context.Context, f *EventFormula) error
	// SaveEventSettings creates or replaces the partner's ticket settings.
	SaveEventSettings(ctx context.Context, partnerID int64, s EventSettings) error
	// FindEventSettings returns the partner's ticket settings, the zero
	// value when it has none saved.
	FindEventSettings(ctx context.Context, partnerID int64) (EventSettings, error)
	// FindEvent returns the partner's event with its slots starting after
	// slotsAfter (by start, then id) and its formulas (by id).
	// ErrNotFound when the partner has no event with that id.
	FindEvent(ctx context.Context, partnerID, id int64, slotsAfter time.Time) (*Event, error)
	// FindEventSlots returns one page of the slot list, ordered by start
	// then slot id, and the number of rows of the whole list.
	FindEventSlots(ctx context.Context, f EventSlotFilter) ([]*EventSlotListing, int, error)
	// FindEvents returns the partner's events among ids, by id, with their
	// formulas (by id) but no slots: a batch read.
	FindEvents(ctx context.Context, partnerID int64, ids []int64) ([]*Event, error)
	// FindSlotsOfEvents returns the window f.Page of the slots of each event
	// f selects, by event then start then id, and how many slots f selects
	// of each: a batch read.
	FindSlotsOfEvents(ctx context.Context, f EventSlotBatchFilter) ([]*EventSlot, map[int64]int, error)
}

// EventSlotBatchFilter selects the slots of some events of a partner, a
// page of each.
type EventSlotBatchFilter struct {
	PartnerID int64
	EventIDs  []int64
	// After: only slots starting strictly after this instant, places left
	// or not.
	After time.Time
	Page  domain.PageRequest // the window of each event's slots
}

// EventService serves the events of the public catalogue (API v2).
type EventService struct {
	store    EventStore
	partners domain.PartnerStore
	now      func() time.Time
}

// NewEventService returns the service.
func NewEventService(store EventStore, partners domain.PartnerStore) *EventService {
	return &EventService{store: store, partners: partners, now: time.Now}
}

// Schedule is when a slot or a session takes place as the catalogue shows
// it: in the partner's time zone, with the formatted companions.
type Schedule struct {
	Start, End             time.Time // in the partner's zone
	StartFormatted         domain.Localized
	EndFormatted           domain.Localized
	DurationFormatted      domain.Localized // in words: "2 heures 30 minutes"
	DurationValueFormatted domain.Localized // short: "2 h 30 min"
}

func newSchedule(start, end time.Time, loc *time.Location) Schedule {
	d := end.Sub(start)
	return Schedule{
		Start:                  start.In(loc),
		End:                    end.In(loc),
		StartFormatted:         domain.Localized(l10n.DateTime(start, loc)),
		EndFormatted:           domain.Localized(l10n.DateTime(end, loc)),
		DurationFormatted:      domain.Localized(l10n.Duration(d)),
		DurationValueFormatted: domain.Localized(l10n.DurationShort(d)),
	}
}

// idFromPath reads a record id from a URL path segment; anything but a
// positive integer names no record.
func idFromPath(s string) (int64, bool) {
	id, err := strconv.ParseInt(s, 10, 64)
	return id, err == nil && id > 0
}

// EventView is an event's detail as the catalogue shows it.
type EventView struct {
	Event    *Event
	Slots    []EventSlotView
	Formulas []EventFormulaView
	// LowestPrice is the cheapest formula's price, nil without formulas
	// (LowestPriceFormatted is nil then too).
	LowestPrice          *decimal.Decimal
	LowestPriceFormatted domain.Localized
	CurrencyCode         string
}

// EventSlotView is an upcoming slot in an event's detail.
type EventSlotView struct {
	EventSlot
	Schedule
	FunnelLink string
}

// EventFormulaView is a formula with its formatted price.
type EventFormulaView struct {
	EventFormula
	PriceFormatted domain.Localized
	CurrencyCode   string
}

// Event returns an event of the catalogue's partner by the id in the path,
// with its upcoming slots (places left or not) and its formulas.
// Errors: those of CatalogPartner; CodeNotFound when the partner has no
// event with that id.
func (s *EventService) Event(ctx context.Context, id string) (*EventView, error) {
	p, err := domain.CatalogPartner(ctx, s.partners)
	if err != nil {
		return nil, err
	}
	eventID, ok := idFromPath(id)
	if !ok {
		return nil, domain.ErrNotFound
	}
	loc, err := p.Location()
	if err != nil {
		return nil, err
	}
	e, err := s.store.FindEvent(ctx, p.ID, eventID, s.now())
	if err != nil {
		return nil, err
	}
	return newEventView(p, e, loc), nil
}

func newEventView(p *domain.Partner, e *Event, loc *time.Location) *EventView {
	currency := p.PriceCurrency()
	v := &EventView{Event: e, CurrencyCode: currency,
		Slots: make([]EventSlotView, len(e.Slots)), Formulas: make([]EventFormulaView, len(e.Formulas))}
	for i, sl := range e.Slots {
		v.Slots[i] = EventSlotView{EventSlot: sl, Schedule: newSchedule(sl.StartingAt, sl.EndingAt, loc),
			FunnelLink: eventFunnelLink(p, e.ID, sl.ID)}
	}
	for i, f := range e.Formulas {
		v.Formulas[i] = EventFormulaView{EventFormula: f, PriceFormatted: domain.Localized(l10n.Money(f.Price, currency)),
			CurrencyCode: currency}
		if v.LowestPrice == nil || f.Price.LessThan(*v.LowestPrice) {
			v.LowestPrice = &e.Formulas[i].Price
		}
	}
	if v.LowestPrice != nil {
		v.LowestPriceFormatted = domain.Localized(l10n.Money(*v.LowestPrice, currency))
	}
	return v
}

// EventsByID returns, for each id in order, the catalogue partner's event
// with that id, as Event shows it but without its slots (see SlotsOfEvents),
// or nil when the partner has none with that id. A batch read: two
// statements, whatever the number of ids.
// Errors: those of CatalogPartner.
func (s *EventService) EventsByID(ctx context.Context, ids []int64) ([]*EventView, error) {
	p, loc, err := domain.CatalogPartnerZone(ctx, s.partners)
	if err != nil {
		return nil, err
	}
	found, err := s.store.FindEvents(ctx, p.ID, ids)
	if err != nil {
		return nil, err
	}
	views := make([]*EventView, len(found))
	for i, e := range found {
		views[i] = newEventView(p, e, loc)
	}
	return domain.InKeyOrder(ids, views, func(v *EventView) int64 { return v.Event.ID }), nil
}

// SlotsOfEvents returns, for each event id in order, the page of its
// upcoming slots (starting after now, sold-out ones included) as Event
// shows them, by start then id. An event that is not the catalogue
// partner's has none. A batch read: one statement for all the events.
// Errors: those of CatalogPartner.
func (s *EventService) SlotsOfEvents(ctx context.Context, eventIDs []int64, page domain.PageRequest) ([]*domain.Page[*EventSlotView], error) {
	p, loc, err := domain.CatalogPartnerZone(ctx, s.partners)
	if err != nil {
		return nil, err
	}
	rows, counts, err := s.store.FindSlotsOfEvents(ctx, EventSlotBatchFilter{PartnerID: p.ID, EventIDs: eventIDs,
		After: s.now(), Page: page})
	if err != nil {
		return nil, err
	}
	views := make([]*EventSlotView, len(rows))
	for i, sl := range rows {
		views[i] = &EventSlotView{EventSlot: *sl, Schedule: newSchedule(sl.StartingAt, sl.EndingAt, loc),
			FunnelLink: eventFunnelLink(p, sl.EventID, sl.ID)}
	}
	return domain.PagesByParent(eventIDs, page, views, func(v *EventSlotView) int64 { return v.EventID }, counts), nil
}

// EventSlotItem is an item of the event slot list.
type EventSlotItem struct {
	*EventSlotListing
	Schedule
	// PriceFormatted is nil when the event has no formula.
	PriceFormatted domain.Localized
	CurrencyCode   string
}

// EventSlots lists the available slots of the catalogue partner's events: a
// slot is available when it starts after now and has places left. Each event
// appears once, by its earliest available slot, unless the partner's ticket
// settings display events per slot, in which case every available slot
// appears. Ordered by start, then slot id.
// Errors: those of CatalogPartner; CodeNotFound "Invalid page." past the
// last page.
func (s *EventService) EventSlots(ctx context.Context, page domain.PageRequest) (*domain.Page[*EventSlotItem], error) {
	p, loc, err := domain.CatalogPartnerZone(ctx, s.partners)
	if err != nil {
		return nil, err
	}
	settings, err := s.store.FindEventSettings(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	rows, count, err := s.store.FindEventSlots(ctx, EventSlotFilter{PartnerID: p.ID, After: s.now(),
		EverySlot: settings.DisplayEventsPerSlots, Page: page})
	if err != nil {
		return nil, err
	}
	currency := p.PriceCurrency()
	items := make([]*EventSlotItem, len(rows))
	for i, r := range rows {
		items[i] = &EventSlotItem{EventSlotListing: r, CurrencyCode: currency,
			Schedule: newSchedule(r.Slot.StartingAt, r.Slot.EndingAt, loc)}
		if r.LowestPrice != nil {
			items[i].PriceFormatted = domain.Localized(l10n.Money(*r.LowestPrice, currency))
		}
	}
	return domain.NewPage(items, count, page)
}

// eventFunnelLink is the page of the partner's purchase site that books a
// slot.
func eventFunnelLink(p *domain.Partner, eventID, slotID int64) string {
	return fmt.Sprintf("%s/events/%d/booking/?%s", domain.PurchaseSite(p), eventID,
		url.Values{"slot": {strconv.FormatInt(slotID, 10)}}.Encode())
}
