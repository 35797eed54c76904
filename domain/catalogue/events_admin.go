package catalogue

import (
	"context"
	"time"

	"salesplatform/domain"
)

// Event administration: a partner (or staff for it) writes its events,
// their slots and formulas, and its ticket settings. See admin.go for the
// rules every admin input shares.

// EventInput creates or changes an event. A nil field keeps the stored
// value (on create: empty); Name is required on create.
type EventInput struct {
	// PartnerID names the partner on create: staff name any, a partner
	// caller only its own (or none).
	PartnerID        *int64
	Name             []domain.TextInput
	ShortDescription []domain.TextInput
	LongDescription  []domain.TextInput
	Booking          []domain.TextInput
	CoverImage       *string
	Images           []string
	// DeliveryOptions replaces every option when given.
	DeliveryOptions *DeliveryOptionsInput
}

// DeliveryOptionsInput are an event's delivery options; costs are decimal
// strings.
type DeliveryOptionsInput struct {
	EmailToBuyer              bool
	EmailToBeneficiary        bool
	PostalMailToBuyer         bool
	PostalMailToBeneficiary   bool
	PostalMailShippingCost    string
	PostalMailDuration        int
	PickupOnSite              bool
	PickupOnSiteDuration      int
	PickupOnSiteCost          string
	Activated3MAToBuyer       bool
	Activated3MAToBeneficiary bool
	MessengerDeliveryCost     string
}

// EventSlotInput adds or changes a slot; start and end are required to add.
type EventSlotInput struct {
	StartingAt      *time.Time
	EndingAt        *time.Time
	AvailablePlaces *int
}

// EventFormulaInput adds or changes a formula; name and price are required
// to add.
type EventFormulaInput struct {
	Name  []domain.TextInput
	Price *string
}

// EventAdminStore is what the event administration writes with, beyond
// EventStore's reads.
type EventAdminStore interface {
	// GetEvent returns the event with that id, whoever owns it, without its
	// slots and formulas; ErrNotFound when there is none.
	GetEvent(ctx context.Context, id int64) (*Event, error)
	// UpdateEvent writes e's own fields (not its slots or formulas).
	UpdateEvent(ctx context.Context, e *Event) error
	// GetEventSlot returns the slot with that id; ErrNotFound when none.
	GetEventSlot(ctx context.Context, id int64) (*EventSlot, error)
	// UpdateEventSlot writes s.
	UpdateEventSlot(ctx context.Context, s *EventSlot) error
	// RemoveEventSlot deletes the slot; ErrNotFound when there is none.
	RemoveEventSlot(ctx context.Context, id int64) error
	// GetEventFormula returns the formula with that id; ErrNotFound when none.
	GetEventFormula(ctx context.Context, id int64) (*EventFormula, error)
	// UpdateEventFormula writes f.
	UpdateEventFormula(ctx context.Context, f *EventFormula) error
}

func (in *EventInput) apply(v *domain.Validator, e *Event) {
	create := e.ID == 0
	e.Name = v.OptLocalized(in.Name, e.Name, domain.MaxNameLength, create || in.Name != nil, "name")
	e.ShortDescription = v.OptLocalized(in.ShortDescription, e.ShortDescription, domain.MaxDescriptionLength, false, "shortDescription")
	e.LongDescription = v.OptLocalized(in.LongDescription, e.LongDescription, domain.MaxDescriptionLength, false, "longDescription")
	e.Booking = v.OptLocalized(in.Booking, e.Booking, domain.MaxDescriptionLength, false, "booking")
	e.CoverImage = v.OptURL(in.CoverImage, e.CoverImage, "coverImage")
	e.Images = v.ImageURLs(in.Images, e.Images, "images")
	if d := in.DeliveryOptions; d != nil {
		at := func(f string) []any { return []any{"deliveryOptions", f} }
		e.DeliveryOptions = DeliveryOptions{
			EmailToBuyer: d.EmailToBuyer, EmailToBeneficiary: d.EmailToBeneficiary,
			PostalMailToBuyer: d.PostalMailToBuyer, PostalMailToBeneficiary: d.PostalMailToBeneficiary,
			PostalMailShippingCost: v.Money(d.PostalMailShippingCost, at("postalMailShippingCost")...),
			PostalMailDuration:     v.NonNegative(d.PostalMailDuration, at("postalMailDuration")...),
			PickupOnSite:           d.PickupOnSite,
			PickupOnSiteDuration:   v.NonNegative(d.PickupOnSiteDuration, at("pickupOnSiteDuration")...),
			PickupOnSiteCost:       v.Money(d.PickupOnSiteCost, at("pickupOnSiteCost")...),
			Activated3MAToBuyer:    d.Activated3MAToBuyer, Activated3MAToBeneficiary: d.Activated3MAToBeneficiary,
			MessengerDeliveryCost: v.Money(d.MessengerDeliveryCost, at("messengerDeliveryCost")...),
		}
	}
}

// CreateEvent creates an event of the caller's partner (staff: of
// in.PartnerID) and returns it as the catalogue shows it.
// Errors: those of adminPartner; CodeInvalid with every field error.
func (s *EventService) CreateEvent(ctx context.Context, in EventInput) (*EventView, error) {
	p, _, err := domain.AdminPartner(ctx, s.partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	e := &Event{PartnerID: p.ID}
	var v domain.Validator
	in.apply(&v, e)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.CreateEvent(ctx, e); err != nil {
		return nil, err
	}
	return s.adminEventView(ctx, p, e.ID)
}

// UpdateEvent changes the fields in of an event the caller manages.
// Errors: CodeUnauthenticated; CodeNotFound for an unknown event or one of
// another partner; CodeInvalid with every field error.
func (s *EventService) UpdateEvent(ctx context.Context, id int64, in EventInput) (*EventView, error) {
	e, p, err := s.managedEvent(ctx, id)
	if err != nil {
		return nil, err
	}
	var v domain.Validator
	in.apply(&v, e)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.UpdateEvent(ctx, e); err != nil {
		return nil, err
	}
	return s.adminEventView(ctx, p, e.ID)
}

// managedEvent returns the event and its partner when the caller manages it.
func (s *EventService) managedEvent(ctx context.Context, id int64) (*Event, *domain.Partner, error) {
	if _, err := domain.Authorize(ctx, domain.OpCatalogueWrite); err != nil {
		return nil, nil, err
	}
	e, err := s.store.GetEvent(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	p, err := domain.OwnerPartner(ctx, s.partners, e.PartnerID)
	if err != nil {
		return nil, nil, err
	}
	return e, p, nil
}

func (s *EventService) adminEventView(ctx context.Context, p *domain.Partner, id int64) (*EventView, error) {
	loc, err := p.Location()
	if err != nil {
		return nil, err
	}
	e, err := s.store.FindEvent(ctx, p.ID, id, s.now())
	if err != nil {
		return nil, err
	}
	return newEventView(p, e, loc), nil
}

func (in *EventSlotInput) apply(v *domain.Validator, sl *EventSlot) {
	create := sl.ID == 0
	if create && in.StartingAt == nil {
		v.Add(domain.VRequired, domain.MsgRequired, "startingDatetime")
	}
	if create && in.EndingAt == nil {
		v.Add(domain.VRequired, domain.MsgRequired, "endingDatetime")
	}
	sl.StartingAt = v.OptTime(in.StartingAt, sl.StartingAt, "startingDatetime")
	sl.EndingAt = v.OptTime(in.EndingAt, sl.EndingAt, "endingDatetime")
	sl.AvailablePlaces = v.OptInt(in.AvailablePlaces, sl.AvailablePlaces, "availablePlaces")
	if in.StartingAt != nil || in.EndingAt != nil {
		if !sl.StartingAt.IsZero() && !sl.EndingAt.IsZero() {
			v.DateRange(sl.StartingAt, sl.EndingAt, "endingDatetime")
		}
	}
}

// AddEventSlot adds a slot to an event the caller manages.
// Errors: CodeUnauthenticated; CodeNotFound for an event the caller does
// not manage; CodeInvalid with every field error.
func (s *EventService) AddEventSlot(ctx context.Context, eventID int64, in EventSlotInput) (*EventSlotView, error) {
	e, p, err := s.managedEvent(ctx, eventID)
	if err != nil {
		return nil, err
	}
	sl := &EventSlot{EventID: e.ID}
	var v domain.Validator
	in.apply(&v, sl)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.AddEventSlot(ctx, sl); err != nil {
		return nil, err
	}
	return eventSlotView(p, sl)
}

// UpdateEventSlot changes a slot of an event the caller manages.
// Errors: as AddEventSlot, CodeNotFound for the slot.
func (s *EventService) UpdateEventSlot(ctx context.Context, id int64, in EventSlotInput) (*EventSlotView, error) {
	sl, p, err := s.managedSlot(ctx, id)
	if err != nil {
		return nil, err
	}
	var v domain.Validator
	in.apply(&v, sl)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.UpdateEventSlot(ctx, sl); err != nil {
		return nil, err
	}
	return eventSlotView(p, sl)
}

// RemoveEventSlot deletes a slot of an event the caller manages.
// Errors: CodeUnauthenticated; CodeNotFound for a slot the caller does not
// manage.
func (s *EventService) RemoveEventSlot(ctx context.Context, id int64) error {
	sl, _, err := s.managedSlot(ctx, id)
	if err != nil {
		return err
	}
	return s.store.RemoveEventSlot(ctx, sl.ID)
}

func (s *EventService) managedSlot(ctx context.Context, id int64) (*EventSlot, *domain.Partner, error) {
	if _, err := domain.Authorize(ctx, domain.OpCatalogueWrite); err != nil {
		return nil, nil, err
	}
	sl, err := s.store.GetEventSlot(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	_, p, err := s.managedEvent(ctx, sl.EventID)
	return sl, p, err
}

func eventSlotView(p *domain.Partner, sl *EventSlot) (*EventSlotView, error) {
	loc, err := p.Location()
	if err != nil {
		return nil, err
	}
	return &EventSlotView{EventSlot: *sl, Schedule: newSchedule(sl.StartingAt, sl.EndingAt, loc),
		FunnelLink: eventFunnelLink(p, sl.EventID, sl.ID)}, nil
}

func (in *EventFormulaInput) apply(v *domain.Validator, f *EventFormula) {
	create := f.ID == 0
	f.Name = v.OptLocalized(in.Name, f.Name, domain.MaxNameLength, create || in.Name != nil, "name")
	if create && in.Price == nil {
		v.Add(domain.VRequired, domain.MsgRequired, "price")
	}
	f.Price = v.OptMoney(in.Price, f.Price, "price")
}

// AddEventFormula adds a formula to an event the caller manages.
// Errors: as AddEventSlot.
func (s *EventService) AddEventFormula(ctx context.Context, eventID int64, in EventFormulaInput) (*EventFormulaView, error) {
	e, p, err := s.managedEvent(ctx, eventID)
	if err != nil {
		return nil, err
	}
	f := &EventFormula{EventID: e.ID}
	var v domain.Validator
	in.apply(&v, f)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.AddEventFormula(ctx, f); err != nil {
		return nil, err
	}
	return &EventFormulaView{EventFormula: *f, PriceFormatted: domain.FormatMoney(p, f.Price),
		CurrencyCode: p.PriceCurrency()}, nil
}

// UpdateEventFormula changes a formula of an event the caller manages.
// Errors: as AddEventSlot, CodeNotFound for the formula.
func (s *EventService) UpdateEventFormula(ctx context.Context, id int64, in EventFormulaInput) (*EventFormulaView, error) {
	if _, err := domain.Authorize(ctx, domain.OpCatalogueWrite); err != nil {
		return nil, err
	}
	f, err := s.store.GetEventFormula(ctx, id)
	if err != nil {
		return nil, err
	}
	_, p, err := s.managedEvent(ctx, f.EventID)
	if err != nil {
		return nil, err
	}
	var v domain.Validator
	in.apply(&v, f)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.UpdateEventFormula(ctx, f); err != nil {
		return nil, err
	}
	return &EventFormulaView{EventFormula: *f, PriceFormatted: domain.FormatMoney(p, f.Price),
		CurrencyCode: p.PriceCurrency()}, nil
}

// SaveEventSettings replaces the ticket settings of the caller's partner
// (staff: of partnerID).
// Errors: those of adminPartner.
func (s *EventService) SaveEventSettings(ctx context.Context, partnerID *int64, set EventSettings) (EventSettings, error) {
	p, _, err := domain.AdminPartner(ctx, s.partners, partnerID)
	if err != nil {
		return EventSettings{}, err
	}
	if err := s.store.SaveEventSettings(ctx, p.ID, set); err != nil {
		return EventSettings{}, err
	}
	return s.store.FindEventSettings(ctx, p.ID)
}
