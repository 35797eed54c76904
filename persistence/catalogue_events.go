package persistence

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
)

type eventRow struct {
	bun.BaseModel `bun:"table:events,alias:e"`

	ID               int64            `bun:"id,pk,autoincrement"`
	PartnerID        int64            `bun:"partner_id,notnull"`
	Name             domain.Localized `bun:"name,type:jsonb,notnull"`
	ShortDescription domain.Localized `bun:"short_description,type:jsonb,notnull"`
	LongDescription  domain.Localized `bun:"long_description,type:jsonb,notnull"`
	Booking          domain.Localized `bun:"booking,type:jsonb,notnull"`
	CoverImage       string           `bun:"cover_image,notnull"`
	Images           []string         `bun:"images,array,notnull"`

	EmailToBuyer              bool            `bun:"activated_email_to_buyer,notnull"`
	EmailToBeneficiary        bool            `bun:"activated_email_to_beneficiary_delivery,notnull"`
	PostalMailToBuyer         bool            `bun:"activated_postal_mail_to_buyer,notnull"`
	PostalMailToBeneficiary   bool            `bun:"activated_postal_mail_to_beneficiary_delivery,notnull"`
	PostalMailShippingCost    decimal.Decimal `bun:"postal_mail_shipping_cost,type:numeric(12,2),notnull"`
	PostalMailDuration        int             `bun:"postal_mail_duration,notnull"`
	PickupOnSite              bool            `bun:"activated_pickup_on_site_delivery,notnull"`
	PickupOnSiteDuration      int             `bun:"pickup_on_site_duration,notnull"`
	PickupOnSiteCost          decimal.Decimal `bun:"pickup_on_site_cost,type:numeric(12,2),notnull"`
	Activated3MAToBuyer       bool            `bun:"activated_3ma_to_buyer,notnull"`
	Activated3MAToBeneficiary bool            `bun:"activated_3ma_to_beneficiary,notnull"`
	MessengerDeliveryCost     decimal.Decimal `bun:"messenger_delivery_cost,type:numeric(12,2),notnull"`
}

func toRowEvent(e *catalogue.Event) *eventRow {
	d := e.DeliveryOptions
	return &eventRow{ID: e.ID, PartnerID: e.PartnerID, Name: storedText(e.Name),
		ShortDescription: storedText(e.ShortDescription), LongDescription: storedText(e.LongDescription),
		Booking: storedText(e.Booking), CoverImage: e.CoverImage, Images: storedStrings(e.Images),
		EmailToBuyer: d.EmailToBuyer, EmailToBeneficiary: d.EmailToBeneficiary,
		PostalMailToBuyer: d.PostalMailToBuyer, PostalMailToBeneficiary: d.PostalMailToBeneficiary,
		PostalMailShippingCost: d.PostalMailShippingCost, PostalMailDuration: d.PostalMailDuration,
		PickupOnSite: d.PickupOnSite, PickupOnSiteDuration: d.PickupOnSiteDuration, PickupOnSiteCost: d.PickupOnSiteCost,
		Activated3MAToBuyer: d.Activated3MAToBuyer, Activated3MAToBeneficiary: d.Activated3MAToBeneficiary,
		MessengerDeliveryCost: d.MessengerDeliveryCost}
}

func (r *eventRow) toDomain() *catalogue.Event {
	return &catalogue.Event{ID: r.ID, PartnerID: r.PartnerID, Name: r.Name, ShortDescription: r.ShortDescription,
		LongDescription: r.LongDescription, Booking: r.Booking, CoverImage: r.CoverImage, Images: storedStrings(r.Images),
		DeliveryOptions: catalogue.DeliveryOptions{
			EmailToBuyer: r.EmailToBuyer, EmailToBeneficiary: r.EmailToBeneficiary,
			PostalMailToBuyer: r.PostalMailToBuyer, PostalMailToBeneficiary: r.PostalMailToBeneficiary,
			PostalMailShippingCost: r.PostalMailShippingCost, PostalMailDuration: r.PostalMailDuration,
			PickupOnSite: r.PickupOnSite, PickupOnSiteDuration: r.PickupOnSiteDuration, PickupOnSiteCost: r.PickupOnSiteCost,
			Activated3MAToBuyer: r.Activated3MAToBuyer, Activated3MAToBeneficiary: r.Activated3MAToBeneficiary,
			MessengerDeliveryCost: r.MessengerDeliveryCost,
		},
		Slots: []catalogue.EventSlot{}, Formulas: []catalogue.EventFormula{}}
}

type eventSlotRow struct {
	bun.BaseModel `bun:"table:event_slots,alias:s"`

	ID              int64     `bun:"id,pk,autoincrement"`
	EventID         int64     `bun:"event_id,notnull"`
	StartingAt      time.Time `bun:"starting_at,notnull"`
	EndingAt        time.Time `bun:"ending_at,notnull"`
	AvailablePlaces int       `bun:"available_places,notnull"`
}

func (r *eventSlotRow) toDomain() catalogue.EventSlot {
	return catalogue.EventSlot{ID: r.ID, EventID: r.EventID, StartingAt: r.StartingAt, EndingAt: r.EndingAt,
		AvailablePlaces: r.AvailablePlaces}
}

type eventFormulaRow struct {
	bun.BaseModel `bun:"table:event_formulas,alias:f"`

	ID      int64            `bun:"id,pk,autoincrement"`
	EventID int64            `bun:"event_id,notnull"`
	Name    domain.Localized `bun:"name,type:jsonb,notnull"`
	Price   decimal.Decimal  `bun:"price,type:numeric(12,2),notnull"`
}

type eventSettingsRow struct {
	bun.BaseModel `bun:"table:event_settings"`

	PartnerID             int64 `bun:"partner_id,pk"`
	DisplayEventsPerSlots bool  `bun:"display_events_per_slots,notnull"`
}

// storedText keeps a missing text an empty JSON object rather than JSON null.
func storedText(l domain.Localized) domain.Localized {
	if l == nil {
		return domain.Localized{}
	}
	return l
}

// storedStrings keeps a missing list empty rather than NULL.
func storedStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// EventStore is the domain.EventStore on PostgreSQL.
type EventStore struct{ db bun.IDB }

var _ catalogue.EventStore = (*EventStore)(nil)

// NewEventStore returns the store on db.
func NewEventStore(db bun.IDB) *EventStore { return &EventStore{db: db} }

// CreateEvent inserts e (not its slots or formulas) and sets its ID.
func (s *EventStore) CreateEvent(ctx context.Context, e *catalogue.Event) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := toRowEvent(e)
	if _, err := s.db.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert event: %w", err)
	}
	e.ID = row.ID
	return nil
}

// AddEventSlot inserts a slot of an existing event and sets its ID.
func (s *EventStore) AddEventSlot(ctx context.Context, sl *catalogue.EventSlot) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := &eventSlotRow{EventID: sl.EventID, StartingAt: sl.StartingAt, EndingAt: sl.EndingAt, AvailablePlaces: sl.AvailablePlaces}
	if _, err := s.db.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert event slot: %w", err)
	}
	sl.ID = row.ID
	return nil
}

// AddEventFormula inserts a formula of an existing event and sets its ID.
func (s *EventStore) AddEventFormula(ctx context.Context, f *catalogue.EventFormula) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := &eventFormulaRow{EventID: f.EventID, Name: storedText(f.Name), Price: f.Price}
	if _, err := s.db.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert event formula: %w", err)
	}
	f.ID = row.ID
	return nil
}

// SaveEventSettings creates or replaces the partner's ticket settings.
func (s *EventStore) SaveEventSettings(ctx context.Context, partnerID int64, set catalogue.EventSettings) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := &eventSettingsRow{PartnerID: partnerID, DisplayEventsPerSlots: set.DisplayEventsPerSlots}
	_, err := s.db.NewInsert().Model(row).
		On("CONFLICT (partner_id) DO UPDATE").
		Set("display_events_per_slots = EXCLUDED.display_events_per_slots").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("save event settings: %w", err)
	}
	return nil
}

// FindEventSettings returns the partner's ticket settings, the zero value
// when none are saved.
func (s *EventStore) FindEventSettings(ctx context.Context, partnerID int64) (catalogue.EventSettings, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []eventSettingsRow
	if err := s.db.NewSelect().Model(&rows).Where("partner_id = ?", partnerID).Scan(ctx); err != nil {
		return catalogue.EventSettings{}, fmt.Errorf("select event settings: %w", err)
	}
	if len(rows) == 0 {
		return catalogue.EventSettings{}, nil
	}
	return catalogue.EventSettings{DisplayEventsPerSlots: rows[0].DisplayEventsPerSlots}, nil
}

// FindEvent returns the partner's event with its slots starting after
// slotsAfter and its formulas: one query per level.
func (s *EventStore) FindEvent(ctx context.Context, partnerID, id int64, slotsAfter time.Time) (*catalogue.Event, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := new(eventRow)
	if err := s.db.NewSelect().Model(row).Where("e.id = ? AND e.partner_id = ?", id, partnerID).Scan(ctx); err != nil {
		return nil, notFound(err)
	}
	e := row.toDomain()
	byID := map[int64]*catalogue.Event{e.ID: e}
	if err := s.loadSlots(ctx, byID, slotsAfter); err != nil {
		return nil, err
	}
	if err := s.loadFormulas(ctx, byID); err != nil {
		return nil, err
	}
	return e, nil
}

// loadSlots fills the events' upcoming slots in one query.
func (s *EventStore) loadSlots(ctx context.Context, events map[int64]*catalogue.Event, after time.Time) error {
	var rows []eventSlotRow
	err := s.db.NewSelect().Model(&rows).
		Where("s.event_id IN (?) AND s.starting_at > ?", bun.In(eventIDs(events)), after).
		Order("s.starting_at", "s.id").Scan(ctx)
	if err != nil {
		return fmt.Errorf("select event slots: %w", err)
	}
	for i := range rows {
		e := events[rows[i].EventID]
		e.Slots = append(e.Slots, rows[i].toDomain())
	}
	return nil
}

// loadFormulas fills the events' formulas in one query.
func (s *EventStore) loadFormulas(ctx context.Context, events map[int64]*catalogue.Event) error {
	var rows []eventFormulaRow
	err := s.db.NewSelect().Model(&rows).
		Where("f.event_id IN (?)", bun.In(eventIDs(events))).
		Order("f.id").Scan(ctx)
	if err != nil {
		return fmt.Errorf("select event formulas: %w", err)
	}
	for _, r := range rows {
		e := events[r.EventID]
		e.Formulas = append(e.Formulas, catalogue.EventFormula{ID: r.ID, EventID: r.EventID, Name: r.Name, Price: r.Price})
	}
	return nil
}

func eventIDs(events map[int64]*catalogue.Event) []int64 {
	ids := make([]int64, 0, len(events))
	for id := range events {
		ids = append(ids, id)
	}
	return ids
}

// eventSlotListSQL selects the rows of the event slot list: the available
// slots of a partner's events (?0: partner id, ?1: slots start after),
// numbered per event by start so that ?2 = false keeps each event's first.
const eventSlotListSQL = `
WITH available AS (
    SELECT s.id, s.event_id, s.starting_at, s.ending_at, s.available_places,
           count(*) OVER (PARTITION BY s.event_id) AS slots_count,
           row_number() OVER (PARTITION BY s.event_id ORDER BY s.starting_at, s.id) AS rank
    FROM event_slots s
    JOIN events e ON e.id = s.event_id
    WHERE e.partner_id = ?0 AND s.starting_at > ?1 AND s.available_places > 0
), listed AS (
    SELECT * FROM available WHERE ?2 OR rank = 1
)`

type eventSlotListingRow struct {
	ID               int64               `bun:"id"`
	EventID          int64               `bun:"event_id"`
	StartingAt       time.Time           `bun:"starting_at"`
	EndingAt         time.Time           `bun:"ending_at"`
	AvailablePlaces  int                 `bun:"available_places"`
	SlotsCount       int                 `bun:"slots_count"`
	EventName        domain.Localized    `bun:"name,type:jsonb"`
	EventDescription domain.Localized    `bun:"short_description,type:jsonb"`
	FormulasCount    int                 `bun:"formulas_count"`
	LowestPrice      decimal.NullDecimal `bun:"lowest_price"`
}

// FindEventSlots returns one page of the event slot list and its length:
// the slots, their events and formula aggregates in one query, the length in
// a second.
func (s *EventStore) FindEventSlots(ctx context.Context, f catalogue.EventSlotFilter) ([]*catalogue.EventSlotListing, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var count int
	err := s.db.NewRaw(eventSlotListSQL+` SELECT count(*) FROM listed`, f.PartnerID, f.After, f.EverySlot).Scan(ctx, &count)
	if err != nil {
		return nil, 0, fmt.Errorf("count event slots: %w", err)
	}
	var rows []eventSlotListingRow
	err = s.db.NewRaw(eventSlotListSQL+`
SELECT l.id, l.event_id, l.starting_at, l.ending_at, l.available_places, l.slots_count,
       e.name, e.short_description, fo.formulas_count, fo.lowest_price
FROM listed l
JOIN events e ON e.id = l.event_id
CROSS JOIN LATERAL (
    SELECT count(*) AS formulas_count, min(price) AS lowest_price
    FROM event_formulas WHERE event_id = l.event_id
) fo
ORDER BY l.starting_at, l.id
LIMIT ?3 OFFSET ?4`, f.PartnerID, f.After, f.EverySlot, f.Page.Size, f.Page.Offset()).Scan(ctx, &rows)
	if err != nil {
		return nil, 0, fmt.Errorf("select event slots: %w", err)
	}
	out := make([]*catalogue.EventSlotListing, len(rows))
	for i, r := range rows {
		out[i] = &catalogue.EventSlotListing{
			Slot: catalogue.EventSlot{ID: r.ID, EventID: r.EventID, StartingAt: r.StartingAt, EndingAt: r.EndingAt,
				AvailablePlaces: r.AvailablePlaces},
			EventName: r.EventName, EventDescription: r.EventDescription,
			FormulasCount: r.FormulasCount, SlotsCount: r.SlotsCount,
		}
		if r.LowestPrice.Valid {
			out[i].LowestPrice = &r.LowestPrice.Decimal
		}
	}
	return out, count, nil
}

// FindEvents returns the partner's events among ids with their formulas:
// two statements.
func (s *EventStore) FindEvents(ctx context.Context, partnerID int64, ids []int64) ([]*catalogue.Event, error) {
	if len(ids) == 0 {
		return []*catalogue.Event{}, nil
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []eventRow
	err := s.db.NewSelect().Model(&rows).Where("e.id IN (?) AND e.partner_id = ?", bun.In(ids), partnerID).
		Order("e.id").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("select events: %w", err)
	}
	out := make([]*catalogue.Event, len(rows))
	byID := make(map[int64]*catalogue.Event, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
		byID[out[i].ID] = out[i]
	}
	if len(out) > 0 {
		if err := s.loadFormulas(ctx, byID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// eventSlotWindowRow is a slot of FindSlotsOfEvents' window query.
type eventSlotWindowRow struct {
	windowRow
	ID              int64     `bun:"id"`
	StartingAt      time.Time `bun:"starting_at"`
	EndingAt        time.Time `bun:"ending_at"`
	AvailablePlaces int       `bun:"available_places"`
}

// FindSlotsOfEvents returns the window f.Page of each selected event's
// slots, and their counts, in one statement.
func (s *EventStore) FindSlotsOfEvents(ctx context.Context, f catalogue.EventSlotBatchFilter) ([]*catalogue.EventSlot, map[int64]int, error) {
	counts := map[int64]int{}
	if len(f.EventIDs) == 0 {
		return nil, counts, nil
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []eventSlotWindowRow
	err := s.db.NewRaw(windowSQL(`
		SELECT s.event_id AS parent_id, s.id, s.starting_at, s.ending_at, s.available_places,
		       row_number() OVER (PARTITION BY s.event_id ORDER BY s.starting_at, s.id) AS rn,
		       count(*) OVER (PARTITION BY s.event_id) AS total
		FROM event_slots s
		JOIN events e ON e.id = s.event_id
		WHERE s.event_id IN (?) AND e.partner_id = ? AND s.starting_at > ?`),
		append([]any{bun.In(f.EventIDs), f.PartnerID, f.After}, windowArgs(f.Page)...)...).
		Scan(ctx, &rows)
	if err != nil {
		return nil, nil, fmt.Errorf("select slots of events: %w", err)
	}
	var out []*catalogue.EventSlot
	for _, r := range rows {
		if r.inWindow(f.Page, counts) {
			out = append(out, &catalogue.EventSlot{ID: r.ID, EventID: r.ParentID, StartingAt: r.StartingAt,
				EndingAt: r.EndingAt, AvailablePlaces: r.AvailablePlaces})
		}
	}
	return out, counts, nil
}

// GetEvent returns the event with that id, whoever owns it, without its
// slots and formulas.
func (s *EventStore) GetEvent(ctx context.Context, id int64) (*catalogue.Event, error) {
	row, err := rowByID[eventRow](ctx, s.db, "e", id)
	if err != nil {
		return nil, err
	}
	return row.toDomain(), nil
}

// UpdateEvent writes e's own columns.
func (s *EventStore) UpdateEvent(ctx context.Context, e *catalogue.Event) error {
	return updateRow(ctx, s.db, toRowEvent(e), "event", "id", "partner_id")
}

// GetEventSlot returns the slot with that id.
func (s *EventStore) GetEventSlot(ctx context.Context, id int64) (*catalogue.EventSlot, error) {
	row, err := rowByID[eventSlotRow](ctx, s.db, "s", id)
	if err != nil {
		return nil, err
	}
	sl := row.toDomain()
	return &sl, nil
}

// UpdateEventSlot writes the slot's dates and places.
func (s *EventStore) UpdateEventSlot(ctx context.Context, sl *catalogue.EventSlot) error {
	row := &eventSlotRow{ID: sl.ID, EventID: sl.EventID, StartingAt: sl.StartingAt, EndingAt: sl.EndingAt, AvailablePlaces: sl.AvailablePlaces}
	return updateRow(ctx, s.db, row, "event slot", "id", "event_id")
}

// RemoveEventSlot deletes the slot.
func (s *EventStore) RemoveEventSlot(ctx context.Context, id int64) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	res, err := s.db.NewDelete().Model((*eventSlotRow)(nil)).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("delete event slot: %w", err)
	}
	return oneRow(res)
}

// GetEventFormula returns the formula with that id.
func (s *EventStore) GetEventFormula(ctx context.Context, id int64) (*catalogue.EventFormula, error) {
	row, err := rowByID[eventFormulaRow](ctx, s.db, "f", id)
	if err != nil {
		return nil, err
	}
	return &catalogue.EventFormula{ID: row.ID, EventID: row.EventID, Name: row.Name, Price: row.Price}, nil
}

// UpdateEventFormula writes the formula's name and price.
func (s *EventStore) UpdateEventFormula(ctx context.Context, f *catalogue.EventFormula) error {
	row := &eventFormulaRow{ID: f.ID, EventID: f.EventID, Name: storedText(f.Name), Price: f.Price}
	return updateRow(ctx, s.db, row, "event formula", "id", "event_id")
}
