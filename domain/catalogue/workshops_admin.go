package catalogue

import (
	"context"
	"fmt"
	"slices"
	"time"

	"salesplatform/domain"
)

// Workshop administration: a partner (or staff for it) writes its
// workshops, their sessions and its categories; staff write the shared
// vocabularies (workshop themes). See admin.go for the shared rules.

// MaxAddressLength bounds a workshop's address.
const MaxAddressLength = 255

const MsgNoSuchRecord = "Invalid pk \"%d\" - object does not exist."

// WorkshopInput creates or changes a workshop. A nil field keeps the stored
// value; Name and CategoryID are required on create. A non-nil id list
// replaces the links.
type WorkshopInput struct {
	PartnerID                     *int64 // create only, see EventInput
	Name                          []domain.TextInput
	ShortDescription              []domain.TextInput
	LongDescription               []domain.TextInput
	BookingConditions             []domain.TextInput
	Images                        []string
	CanBePrivatized               *bool
	DisplayCalendar               *bool
	Address                       *string
	ActivateWorkshopsGroupPayment *bool
	// CategoryID names one of the workshop partner's categories.
	CategoryID *int64
	// LevelID sets the level; ClearLevel removes it.
	LevelID    *int64
	ClearLevel bool
	ThemeIDs   []int64
	TargetIDs  []int64
	SkillIDs   []int64
	RecipeIDs  []int64
}

// WorkshopSessionInput adds or changes a session; start, end and
// maxCapacity are required to add. AvailablePlaces defaults to MaxCapacity.
type WorkshopSessionInput struct {
	StartingAt      *time.Time
	EndingAt        *time.Time
	MinCapacity     *int
	MaxCapacity     *int
	AvailablePlaces *int
}

// WorkshopCategoryInput creates or changes a category; name and price are
// required to create. SpecificValidityPeriod is at least 1;
// ClearSpecificValidityPeriod removes it.
type WorkshopCategoryInput struct {
	PartnerID                   *int64 // create only
	Name                        []domain.TextInput
	Price                       *string
	SpecificValidityPeriod      *int
	ClearSpecificValidityPeriod bool
}

// WorkshopAdminStore is what the workshop administration writes with.
type WorkshopAdminStore interface {
	// GetWorkshop returns the workshop with that id, whoever owns it,
	// without its relations; ErrNotFound when there is none.
	GetWorkshop(ctx context.Context, id int64) (*Workshop, error)
	// UpdateWorkshop writes w's own columns and, for each of ThemeIDs,
	// TargetIDs, SkillIDs and RecipeIDs that is not nil, replaces those
	// links: one transaction.
	UpdateWorkshop(ctx context.Context, w *Workshop) error
	// GetWorkshopCategory returns the category; ErrNotFound when none.
	GetWorkshopCategory(ctx context.Context, id int64) (*WorkshopCategory, error)
	// UpdateWorkshopCategory writes c.
	UpdateWorkshopCategory(ctx context.Context, c *WorkshopCategory) error
	// GetWorkshopSession returns the session; ErrNotFound when none.
	GetWorkshopSession(ctx context.Context, id int64) (*WorkshopSession, error)
	// UpdateWorkshopSession writes s.
	UpdateWorkshopSession(ctx context.Context, s *WorkshopSession) error
	// UpdateWorkshopTag writes a term's name; ErrNotFound when none.
	UpdateWorkshopTag(ctx context.Context, kind WorkshopTagKind, t *WorkshopTag) error
	// MissingWorkshopTags returns the ids among ids that name no term of
	// the kind's vocabulary.
	MissingWorkshopTags(ctx context.Context, kind WorkshopTagKind, ids []int64) ([]int64, error)
}

func (in *WorkshopInput) apply(v *domain.Validator, w *Workshop) {
	create := w.ID == 0
	w.Name = v.OptLocalized(in.Name, w.Name, domain.MaxNameLength, create || in.Name != nil, "name")
	w.ShortDescription = v.OptLocalized(in.ShortDescription, w.ShortDescription, domain.MaxDescriptionLength, false, "shortDescription")
	w.LongDescription = v.OptLocalized(in.LongDescription, w.LongDescription, domain.MaxDescriptionLength, false, "longDescription")
	w.BookingConditions = v.OptLocalized(in.BookingConditions, w.BookingConditions, domain.MaxDescriptionLength, false, "bookingConditions")
	w.Images = v.ImageURLs(in.Images, w.Images, "images")
	w.CanBePrivatized = domain.Pick(in.CanBePrivatized, w.CanBePrivatized)
	w.DisplayCalendar = domain.Pick(in.DisplayCalendar, w.DisplayCalendar)
	w.Address = v.OptText(in.Address, w.Address, MaxAddressLength, "address")
	w.ActivateWorkshopsGroupPayment = domain.Pick(in.ActivateWorkshopsGroupPayment, w.ActivateWorkshopsGroupPayment)
	if create && in.CategoryID == nil {
		v.Add(domain.VRequired, domain.MsgRequired, "categoryId")
	}
	w.CategoryID = domain.Pick(in.CategoryID, w.CategoryID)
	if in.ClearLevel {
		w.LevelID = nil
	} else if in.LevelID != nil {
		w.LevelID = in.LevelID
	}
	w.ThemeIDs, w.TargetIDs, w.SkillIDs, w.RecipeIDs = in.ThemeIDs, in.TargetIDs, in.SkillIDs, in.RecipeIDs
}

// checkRelations reports ids that name no record, or a category of another
// partner, as field errors.
func checkRelations(ctx context.Context, tx WorkshopStores, v *domain.Validator, in *WorkshopInput, w *Workshop) error {
	if in.CategoryID != nil {
		c, err := tx.Workshops.GetWorkshopCategory(ctx, *in.CategoryID)
		switch {
		case domain.IsCode(err, domain.CodeNotFound) || (err == nil && c.PartnerID != w.PartnerID):
			v.Add(domain.VNotFound, fmt.Sprintf(MsgNoSuchRecord, *in.CategoryID), "categoryId")
		case err != nil:
			return err
		}
	}
	if in.LevelID != nil && !in.ClearLevel {
		if err := checkTags(ctx, tx, v, WorkshopLevel, []int64{*in.LevelID}, "levelId"); err != nil {
			return err
		}
	}
	for _, l := range []struct {
		kind  WorkshopTagKind
		ids   []int64
		field string
	}{{WorkshopTheme, in.ThemeIDs, "themeIds"}, {WorkshopTarget, in.TargetIDs, "targetIds"},
		{WorkshopSkill, in.SkillIDs, "skillIds"}, {WorkshopRecipe, in.RecipeIDs, "recipeIds"}} {
		if err := checkTags(ctx, tx, v, l.kind, l.ids, l.field); err != nil {
			return err
		}
	}
	return nil
}

func checkTags(ctx context.Context, tx WorkshopStores, v *domain.Validator, kind WorkshopTagKind, ids []int64, field string) error {
	if len(ids) == 0 {
		return nil
	}
	missing, err := tx.Workshops.MissingWorkshopTags(ctx, kind, ids)
	if err != nil {
		return err
	}
	for i, id := range ids {
		if slices.Contains(missing, id) {
			if kind == WorkshopLevel {
				v.Add(domain.VNotFound, fmt.Sprintf(MsgNoSuchRecord, id), field)
			} else {
				v.Add(domain.VNotFound, fmt.Sprintf(MsgNoSuchRecord, id), field, i)
			}
		}
	}
	return nil
}

// CreateWorkshop creates a workshop of the caller's partner (staff: of
// in.PartnerID) with its links, in one transaction.
// Errors: those of adminPartner; CodeInvalid with every field error (an
// unknown category, level or term, or a category of another partner,
// included).
func (s *WorkshopService) CreateWorkshop(ctx context.Context, in WorkshopInput) (*WorkshopView, error) {
	p, _, err := domain.AdminPartner(ctx, s.uow.Stores().Partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	w := &Workshop{PartnerID: p.ID}
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx WorkshopStores) error {
		if err := applyWorkshop(ctx, tx, &in, w); err != nil {
			return err
		}
		return tx.Workshops.CreateWorkshop(ctx, w)
	})
	if err != nil {
		return nil, err
	}
	return s.adminWorkshopView(ctx, p, w.ID)
}

// UpdateWorkshop changes a workshop the caller manages.
// Errors: CodeUnauthenticated; CodeNotFound for a workshop the caller does
// not manage; CodeInvalid as CreateWorkshop.
func (s *WorkshopService) UpdateWorkshop(ctx context.Context, id int64, in WorkshopInput) (*WorkshopView, error) {
	var p *domain.Partner
	err := s.uow.RunInTx(ctx, func(ctx context.Context, tx WorkshopStores) error {
		w, partner, err := managedWorkshop(ctx, tx, id)
		if err != nil {
			return err
		}
		p = partner
		if err := applyWorkshop(ctx, tx, &in, w); err != nil {
			return err
		}
		return tx.Workshops.UpdateWorkshop(ctx, w)
	})
	if err != nil {
		return nil, err
	}
	return s.adminWorkshopView(ctx, p, id)
}

// applyWorkshop applies in to w and checks its relations, reporting every
// field error at once.
func applyWorkshop(ctx context.Context, tx WorkshopStores, in *WorkshopInput, w *Workshop) error {
	var v domain.Validator
	in.apply(&v, w)
	if err := checkRelations(ctx, tx, &v, in, w); err != nil {
		return err
	}
	return v.Err()
}

func managedWorkshop(ctx context.Context, tx WorkshopStores, id int64) (*Workshop, *domain.Partner, error) {
	if _, err := domain.Authorize(ctx, domain.OpCatalogueWrite); err != nil {
		return nil, nil, err
	}
	w, err := tx.Workshops.GetWorkshop(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	p, err := domain.OwnerPartner(ctx, tx.Partners, w.PartnerID)
	if err != nil {
		return nil, nil, err
	}
	return w, p, nil
}

func (s *WorkshopService) adminWorkshopView(ctx context.Context, p *domain.Partner, id int64) (*WorkshopView, error) {
	loc, err := p.Location()
	if err != nil {
		return nil, err
	}
	w, err := s.uow.Stores().Workshops.FindWorkshop(ctx, p.ID, id, s.now())
	if err != nil {
		return nil, err
	}
	return newWorkshopView(p, w, loc), nil
}

func (in *WorkshopSessionInput) apply(v *domain.Validator, ses *WorkshopSession) {
	create := ses.ID == 0
	for _, r := range []struct {
		missing bool
		field   string
	}{{in.StartingAt == nil, "startingDatetime"}, {in.EndingAt == nil, "endingDatetime"}, {in.MaxCapacity == nil, "maxCapacity"}} {
		if create && r.missing {
			v.Add(domain.VRequired, domain.MsgRequired, r.field)
		}
	}
	ses.StartingAt = v.OptTime(in.StartingAt, ses.StartingAt, "startingDatetime")
	ses.EndingAt = v.OptTime(in.EndingAt, ses.EndingAt, "endingDatetime")
	ses.MinCapacity = v.OptInt(in.MinCapacity, ses.MinCapacity, "minCapacity")
	ses.MaxCapacity = v.OptInt(in.MaxCapacity, ses.MaxCapacity, "maxCapacity")
	if create && in.AvailablePlaces == nil {
		ses.AvailablePlaces = ses.MaxCapacity
	}
	ses.AvailablePlaces = v.OptInt(in.AvailablePlaces, ses.AvailablePlaces, "availablePlaces")
	if !ses.StartingAt.IsZero() && !ses.EndingAt.IsZero() {
		v.DateRange(ses.StartingAt, ses.EndingAt, "endingDatetime")
	}
	if ses.MinCapacity > ses.MaxCapacity && ses.MaxCapacity >= 0 {
		v.Add(domain.VMaxValue, "Ensure this value is less than or equal to maxCapacity.", "minCapacity")
	}
	if ses.AvailablePlaces > ses.MaxCapacity && ses.MaxCapacity >= 0 {
		v.Add(domain.VMaxValue, "Ensure this value is less than or equal to maxCapacity.", "availablePlaces")
	}
}

// AddWorkshopSession adds a session to a workshop the caller manages.
// Errors: CodeUnauthenticated; CodeNotFound for a workshop the caller does
// not manage; CodeInvalid with every field error.
func (s *WorkshopService) AddWorkshopSession(ctx context.Context, workshopID int64, in WorkshopSessionInput) (*WorkshopSessionView, error) {
	w, p, err := managedWorkshop(ctx, s.uow.Stores(), workshopID)
	if err != nil {
		return nil, err
	}
	ses := &WorkshopSession{WorkshopID: w.ID}
	var v domain.Validator
	in.apply(&v, ses)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.uow.Stores().Workshops.AddWorkshopSession(ctx, ses); err != nil {
		return nil, err
	}
	return s.adminSessionView(p, ses)
}

// UpdateWorkshopSession changes a session of a workshop the caller manages.
// Errors: as AddWorkshopSession, CodeNotFound for the session.
func (s *WorkshopService) UpdateWorkshopSession(ctx context.Context, id int64, in WorkshopSessionInput) (*WorkshopSessionView, error) {
	if _, err := domain.Authorize(ctx, domain.OpCatalogueWrite); err != nil {
		return nil, err
	}
	ses, err := s.uow.Stores().Workshops.GetWorkshopSession(ctx, id)
	if err != nil {
		return nil, err
	}
	_, p, err := managedWorkshop(ctx, s.uow.Stores(), ses.WorkshopID)
	if err != nil {
		return nil, err
	}
	var v domain.Validator
	in.apply(&v, ses)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.uow.Stores().Workshops.UpdateWorkshopSession(ctx, ses); err != nil {
		return nil, err
	}
	return s.adminSessionView(p, ses)
}

func (s *WorkshopService) adminSessionView(p *domain.Partner, ses *WorkshopSession) (*WorkshopSessionView, error) {
	loc, err := p.Location()
	if err != nil {
		return nil, err
	}
	return newWorkshopSessionView(p, *ses, loc), nil
}

func (in *WorkshopCategoryInput) apply(v *domain.Validator, c *WorkshopCategory) {
	create := c.ID == 0
	c.Name = v.OptLocalized(in.Name, c.Name, domain.MaxNameLength, create || in.Name != nil, "name")
	if create && in.Price == nil {
		v.Add(domain.VRequired, domain.MsgRequired, "price")
	}
	c.Price = v.OptMoney(in.Price, c.Price, "price")
	switch {
	case in.ClearSpecificValidityPeriod:
		c.SpecificValidityPeriod = nil
	case in.SpecificValidityPeriod != nil:
		if *in.SpecificValidityPeriod < 1 {
			v.Add(domain.VMinValue, "Ensure this value is greater than or equal to 1.", "specificValidityPeriod")
		}
		c.SpecificValidityPeriod = in.SpecificValidityPeriod
	}
}

// CreateWorkshopCategory creates a category of the caller's partner
// (staff: of in.PartnerID).
// Errors: those of adminPartner; CodeInvalid with every field error.
func (s *WorkshopService) CreateWorkshopCategory(ctx context.Context, in WorkshopCategoryInput) (*WorkshopCategoryView, error) {
	p, _, err := domain.AdminPartner(ctx, s.uow.Stores().Partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	c := &WorkshopCategory{PartnerID: p.ID}
	var v domain.Validator
	in.apply(&v, c)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.uow.Stores().Workshops.CreateWorkshopCategory(ctx, c); err != nil {
		return nil, err
	}
	return newWorkshopCategoryView(p, c), nil
}

// UpdateWorkshopCategory changes a category the caller manages.
// Errors: CodeUnauthenticated; CodeNotFound for a category of another
// partner; CodeInvalid with every field error.
func (s *WorkshopService) UpdateWorkshopCategory(ctx context.Context, id int64, in WorkshopCategoryInput) (*WorkshopCategoryView, error) {
	if _, err := domain.Authorize(ctx, domain.OpCatalogueWrite); err != nil {
		return nil, err
	}
	c, err := s.uow.Stores().Workshops.GetWorkshopCategory(ctx, id)
	if err != nil {
		return nil, err
	}
	p, err := domain.OwnerPartner(ctx, s.uow.Stores().Partners, c.PartnerID)
	if err != nil {
		return nil, err
	}
	var v domain.Validator
	in.apply(&v, c)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.uow.Stores().Workshops.UpdateWorkshopCategory(ctx, c); err != nil {
		return nil, err
	}
	return newWorkshopCategoryView(p, c), nil
}

func newWorkshopCategoryView(p *domain.Partner, c *WorkshopCategory) *WorkshopCategoryView {
	return &WorkshopCategoryView{WorkshopCategory: c, PriceFormatted: domain.FormatMoney(p, c.Price), CurrencyCode: p.PriceCurrency()}
}

// requireStaff is the check of operations on what all partners share.
// Errors: CodeUnauthenticated; CodeForbidden for a caller that is not staff.
func requireStaff(ctx context.Context) error {
	c, err := domain.CallerFrom(ctx)
	if err != nil {
		return err
	}
	if !c.User.IsStaff {
		return &domain.Error{Code: domain.CodeForbidden, Message: domain.MsgPermissionDenied}
	}
	return nil
}

// CreateWorkshopTheme adds a term to the workshop themes, a vocabulary all
// partners share: staff only.
// Errors: those of requireStaff; CodeInvalid on "name".
func (s *WorkshopService) CreateWorkshopTheme(ctx context.Context, name []domain.TextInput) (*WorkshopTag, error) {
	if err := requireStaff(ctx); err != nil {
		return nil, err
	}
	var v domain.Validator
	t := &WorkshopTag{Name: v.Localized(name, domain.MaxNameLength, true, "name")}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.uow.Stores().Workshops.CreateWorkshopTag(ctx, WorkshopTheme, t); err != nil {
		return nil, err
	}
	return t, nil
}

// UpdateWorkshopTheme renames a workshop theme: staff only.
// Errors: those of requireStaff; CodeNotFound; CodeInvalid on "name".
func (s *WorkshopService) UpdateWorkshopTheme(ctx context.Context, id int64, name []domain.TextInput) (*WorkshopTag, error) {
	if err := requireStaff(ctx); err != nil {
		return nil, err
	}
	var v domain.Validator
	t := &WorkshopTag{ID: id, Name: v.Localized(name, domain.MaxNameLength, true, "name")}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.uow.Stores().Workshops.UpdateWorkshopTag(ctx, WorkshopTheme, t); err != nil {
		return nil, err
	}
	return t, nil
}
