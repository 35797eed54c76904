package catalogue

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/l10n"
)

// Workshop is a partner's bookable workshop: a category that sets its price,
// descriptive vocabularies, and dated sessions.
type Workshop struct {
	ID                            int64
	PartnerID                     int64
	Name                          domain.Localized
	ShortDescription              domain.Localized
	LongDescription               domain.Localized
	BookingConditions             domain.Localized
	Images                        []string
	CanBePrivatized               bool
	DisplayCalendar               bool
	Address                       string
	ActivateWorkshopsGroupPayment bool
	// CategoryID names one of the same partner's categories (required);
	// LevelID a level, or nil.
	CategoryID int64
	LevelID    *int64
	// Links to the vocabularies, set by CreateWorkshop.
	ThemeIDs, TargetIDs, SkillIDs, RecipeIDs []int64

	// Filled by WorkshopStore.FindWorkshop.
	Category *WorkshopCategory
	Level    *WorkshopTag
	Themes   []WorkshopTag
	Targets  []WorkshopTag
	Skills   []WorkshopTag
	Recipes  []WorkshopTag
	Sessions []WorkshopSession
}

// WorkshopCategory groups a partner's workshops and sets their price.
type WorkshopCategory struct {
	ID        int64
	PartnerID int64
	Name      domain.Localized
	Price     decimal.Decimal
	// SpecificValidityPeriod overrides the validity period of the workshops
	// product information; nil when it does not.
	SpecificValidityPeriod *int
}

// WorkshopTagKind names a vocabulary that describes workshops.
type WorkshopTagKind string

// The vocabularies of workshops.
const (
	WorkshopLevel  WorkshopTagKind = "level"
	WorkshopTheme  WorkshopTagKind = "theme"
	WorkshopTarget WorkshopTagKind = "target"
	WorkshopSkill  WorkshopTagKind = "skill"
	WorkshopRecipe WorkshopTagKind = "recipe"
)

// WorkshopTag is a term of a workshop vocabulary (a level, theme, target,
// skill or recipe).
type WorkshopTag struct {
	ID   int64
	Name domain.Localized
}

// WorkshopSession is one date of a workshop. AvailablePlaces is what remains
// to book.
type WorkshopSession struct {
	ID              int64
	WorkshopID      int64
	StartingAt      time.Time
	EndingAt        time.Time
	MinCapacity     int
	MaxCapacity     int
	AvailablePlaces int
}

// WorkshopSessionFilter selects sessions of a partner's workshops.
type WorkshopSessionFilter struct {
	PartnerID int64
	// After: only sessions starting strictly after this instant.
	After time.Time
	// WorkshopID, when not nil, keeps one workshop's sessions.
	WorkshopID *int64
	Page       domain.PageRequest
}

// WorkshopStore reads and writes what WorkshopService serves.
type WorkshopStore interface {
	WorkshopAdminStore
	// CreateWorkshopCategory inserts c and sets its ID.
	CreateWorkshopCategory(ctx context.Context, c *WorkshopCategory) error
	// CreateWorkshopTag inserts a term of the kind's vocabulary and sets its
	// ID.
	CreateWorkshopTag(ctx context.Context, kind WorkshopTagKind, t *WorkshopTag) error
	// CreateWorkshop inserts w with its vocabulary links, in one
	// transaction, and sets its ID. A category that is not the partner's is a
	// CodeInvalid error on "category"; an unknown level, theme, target, skill
	// or recipe one on "level", "themes", "targets", "skills" or "recipes".
	CreateWorkshop(ctx context.Context, w *Workshop) error
	// AddWorkshopSession inserts a session of an existing workshop and sets
	// its ID.
	AddWorkshopSession(ctx context.Context, s *WorkshopSession) error
	// FindWorkshop returns the partner's workshop with its category, level,
	// vocabularies (each by id) and sessions starting after sessionsAfter
	// (by start, then id). ErrNotFound when the partner has no workshop with
	// that id.
	FindWorkshop(ctx context.Context, partnerID, id int64, sessionsAfter time.Time) (*Workshop, error)
	// FindWorkshopSessions returns one page of sessions, ordered by start
	// then id, and the number of sessions the filter selects.
	FindWorkshopSessions(ctx context.Context, f WorkshopSessionFilter) ([]*WorkshopSession, int, error)
	// FindWorkshopThemes returns one page of the themes of the partner's
	// workshops, by id, and their number.
	FindWorkshopThemes(ctx context.Context, partnerID int64, page domain.PageRequest) ([]*WorkshopTag, int, error)
	// FindWorkshops returns the partner's workshops among ids, by id, with
	// their category, level and vocabularies but no sessions: a batch read.
	FindWorkshops(ctx context.Context, partnerID int64, ids []int64) ([]*Workshop, error)
	// FindSessionsOfWorkshops returns the window f.Page of the sessions of
	// each workshop f selects, by workshop then start then id, and how many
	// sessions f selects of each: a batch read.
	FindSessionsOfWorkshops(ctx context.Context, f WorkshopSessionBatchFilter) ([]*WorkshopSession, map[int64]int, error)
}

// WorkshopSessionBatchFilter selects the sessions of some workshops of a
// partner, a page of each.
type WorkshopSessionBatchFilter struct {
	PartnerID   int64
	WorkshopIDs []int64
	// After: only sessions starting strictly after this instant.
	After time.Time
	Page  domain.PageRequest // the window of each workshop's sessions
}

// WorkshopService serves the workshops of the public catalogue (API v2).
type WorkshopService struct {
	uow domain.UnitOfWork[WorkshopStores]
	now func() time.Time
}

// WorkshopStores are the stores the workshop service reads and writes
// with.
type WorkshopStores struct {
	Workshops WorkshopStore
	Partners  domain.PartnerStore
}

// NewWorkshopService returns the service.
func NewWorkshopService(uow domain.UnitOfWork[WorkshopStores]) *WorkshopService {
	return &WorkshopService{uow: uow, now: time.Now}
}

// WorkshopView is a workshop's detail as the catalogue shows it.
type WorkshopView struct {
	Workshop *Workshop
	Category WorkshopCategoryView
	Sessions []*WorkshopSessionView
}

// WorkshopCategoryView is a category with its formatted price.
type WorkshopCategoryView struct {
	*WorkshopCategory
	PriceFormatted domain.Localized
	CurrencyCode   string
}

// WorkshopSessionView is a session as the catalogue shows it.
type WorkshopSessionView struct {
	WorkshopSession
	Schedule
	FunnelLink string
}

// Workshop returns a workshop of the catalogue's partner by the id in the
// path, with its upcoming sessions (places left or not).
// Errors: those of CatalogPartner; CodeNotFound when the partner has no
// workshop with that id.
func (s *WorkshopService) Workshop(ctx context.Context, id string) (*WorkshopView, error) {
	p, err := domain.CatalogPartner(ctx, s.uow.Stores().Partners)
	if err != nil {
		return nil, err
	}
	workshopID, ok := idFromPath(id)
	if !ok {
		return nil, domain.ErrNotFound
	}
	loc, err := p.Location()
	if err != nil {
		return nil, err
	}
	w, err := s.uow.Stores().Workshops.FindWorkshop(ctx, p.ID, workshopID, s.now())
	if err != nil {
		return nil, err
	}
	return newWorkshopView(p, w, loc), nil
}

func newWorkshopView(p *domain.Partner, w *Workshop, loc *time.Location) *WorkshopView {
	currency := p.PriceCurrency()
	v := &WorkshopView{Workshop: w, Sessions: make([]*WorkshopSessionView, len(w.Sessions)),
		Category: WorkshopCategoryView{WorkshopCategory: w.Category, CurrencyCode: currency,
			PriceFormatted: domain.Localized(l10n.Money(w.Category.Price, currency))}}
	for i, ses := range w.Sessions {
		v.Sessions[i] = newWorkshopSessionView(p, ses, loc)
	}
	return v
}

// WorkshopsByID returns, for each id in order, the catalogue partner's
// workshop with that id, as Workshop shows it but without its sessions
// (see SessionsOfWorkshops), or nil when the partner has none with that id.
// A batch read: two statements, whatever the number of ids.
// Errors: those of CatalogPartner.
func (s *WorkshopService) WorkshopsByID(ctx context.Context, ids []int64) ([]*WorkshopView, error) {
	p, loc, err := domain.CatalogPartnerZone(ctx, s.uow.Stores().Partners)
	if err != nil {
		return nil, err
	}
	found, err := s.uow.Stores().Workshops.FindWorkshops(ctx, p.ID, ids)
	if err != nil {
		return nil, err
	}
	views := make([]*WorkshopView, len(found))
	for i, w := range found {
		views[i] = newWorkshopView(p, w, loc)
	}
	return domain.InKeyOrder(ids, views, func(v *WorkshopView) int64 { return v.Workshop.ID }), nil
}

// SessionsOfWorkshops returns, for each workshop id in order, the page of
// its upcoming sessions (starting after now, places left or not), by start
// then id. A workshop that is not the catalogue partner's has none. A batch
// read: one statement for all the workshops.
// Errors: those of CatalogPartner.
func (s *WorkshopService) SessionsOfWorkshops(ctx context.Context, workshopIDs []int64, page domain.PageRequest) ([]*domain.Page[*WorkshopSessionView], error) {
	p, loc, err := domain.CatalogPartnerZone(ctx, s.uow.Stores().Partners)
	if err != nil {
		return nil, err
	}
	rows, counts, err := s.uow.Stores().Workshops.FindSessionsOfWorkshops(ctx, WorkshopSessionBatchFilter{PartnerID: p.ID,
		WorkshopIDs: workshopIDs, After: s.now(), Page: page})
	if err != nil {
		return nil, err
	}
	views := make([]*WorkshopSessionView, len(rows))
	for i, r := range rows {
		views[i] = newWorkshopSessionView(p, *r, loc)
	}
	return domain.PagesByParent(workshopIDs, page, views, func(v *WorkshopSessionView) int64 { return v.WorkshopID }, counts), nil
}

// WorkshopSessionQuery is the input of the session list: the values of the
// query parameters ("" when absent).
type WorkshopSessionQuery struct {
	Workshop string // a workshop id
	Page     domain.PageRequest
}

// WorkshopSessions lists the upcoming sessions (starting after now, places
// left or not) of the catalogue partner's workshops, or of one of them,
// ordered by start then id. A workshop that is not the partner's has no
// sessions here.
// Errors: those of CatalogPartner; CodeInvalid on "workshop" when it is not
// an integer; CodeNotFound "Invalid page." past the last page.
func (s *WorkshopService) WorkshopSessions(ctx context.Context, q WorkshopSessionQuery) (*domain.Page[*WorkshopSessionView], error) {
	p, err := domain.CatalogPartner(ctx, s.uow.Stores().Partners)
	if err != nil {
		return nil, err
	}
	f := WorkshopSessionFilter{PartnerID: p.ID, After: s.now(), Page: q.Page}
	if raw := strings.TrimSpace(q.Workshop); raw != "" {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			var v domain.Validator
			v.Add(domain.VInvalid, "Enter a number.", "workshop")
			return nil, v.Err()
		}
		f.WorkshopID = &id
	}
	loc, err := p.Location()
	if err != nil {
		return nil, err
	}
	rows, count, err := s.uow.Stores().Workshops.FindWorkshopSessions(ctx, f)
	if err != nil {
		return nil, err
	}
	items := make([]*WorkshopSessionView, len(rows))
	for i, r := range rows {
		items[i] = newWorkshopSessionView(p, *r, loc)
	}
	return domain.NewPage(items, count, q.Page)
}

// WorkshopThemes lists the themes of the catalogue partner's workshops, by
// id.
// Errors: those of CatalogPartner; CodeNotFound "Invalid page." past the
// last page.
func (s *WorkshopService) WorkshopThemes(ctx context.Context, page domain.PageRequest) (*domain.Page[*WorkshopTag], error) {
	p, err := domain.CatalogPartner(ctx, s.uow.Stores().Partners)
	if err != nil {
		return nil, err
	}
	rows, count, err := s.uow.Stores().Workshops.FindWorkshopThemes(ctx, p.ID, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(rows, count, page)
}

func newWorkshopSessionView(p *domain.Partner, s WorkshopSession, loc *time.Location) *WorkshopSessionView {
	return &WorkshopSessionView{WorkshopSession: s, Schedule: newSchedule(s.StartingAt, s.EndingAt, loc),
		FunnelLink: workshopFunnelLink(p, s.WorkshopID, s.ID)}
}

// workshopFunnelLink is the page of the partner's purchase site that books
// a session.
func workshopFunnelLink(p *domain.Partner, workshopID, sessionID int64) string {
	return fmt.Sprintf("%s/workshops/%d/booking/?%s", domain.PurchaseSite(p), workshopID,
		url.Values{"session": {strconv.FormatInt(sessionID, 10)}}.Encode())
}
