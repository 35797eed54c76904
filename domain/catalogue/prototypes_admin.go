package catalogue

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
)

// Prototype administration: a partner (or staff for it) writes its
// giftcard prototypes and files its voucher prototypes under a universe and
// themes; staff write the shared universe tree and themes. See admin.go for
// the shared rules.

// MaxUniverseDepth is how deep the universe tree goes: a root, its
// sub-universes and theirs (the contract shows three levels).
const MaxUniverseDepth = 3

// MaxPredefinedAmounts bounds a giftcard prototype's amount choices.
const MaxPredefinedAmounts = 20

var validityUnits = []string{ValidityDay, ValidityWeek, ValidityMonth, ValidityYear}

// GiftcardPrototypeInput creates or changes a giftcard prototype; Title is
// required on create. Amounts are decimal strings. A nil field keeps the
// stored value (on create: the defaults, 12 months).
type GiftcardPrototypeInput struct {
	PartnerID         *int64 // create only
	Title             []domain.TextInput
	Description       []domain.TextInput
	TermsOfUse        []domain.TextInput
	CustomizedAmount  *bool
	MinimumAmount     *string
	PredefinedAmounts []string // nil keeps them
	MoneyPotActivated *bool
	MoneyPotLogo      *string
	ValidityPeriod    *int
	ValidityUnit      *string // ValidityDay…ValidityYear
}

// UniverseInput creates or changes a universe; Name is required on
// create. ParentID files it under another universe; ClearParent makes it a
// root. Order is its position among its siblings; ClearOrder removes it.
type UniverseInput struct {
	Name        []domain.TextInput
	ParentID    *int64
	ClearParent bool
	Order       *int
	ClearOrder  bool
}

// VoucherPrototypeFilingInput files a voucher prototype: UniverseID sets
// its universe (ClearUniverse, an explicit null, is refused), a non-nil
// ThemeIDs replaces its themes.
type VoucherPrototypeFilingInput struct {
	UniverseID    *int64
	ClearUniverse bool
	ThemeIDs      []int64
}

// PrototypeAdminStore is what the prototype administration writes with.
type PrototypeAdminStore interface {
	// GetGiftcardPrototype returns the prototype with that id, whoever owns
	// it, with its partner's name and currency; ErrNotFound when none.
	GetGiftcardPrototype(ctx context.Context, id int64) (*GiftcardPrototype, error)
	// UpdateGiftcardPrototype writes p.
	UpdateGiftcardPrototype(ctx context.Context, p *GiftcardPrototype) error
	// GetVoucherPrototype returns the prototype with its theme ids (by id);
	// ErrNotFound when none.
	GetVoucherPrototype(ctx context.Context, id int64) (*VoucherPrototype, error)
	// FileVoucherPrototype writes p's universe and, when p.ThemeIDs is not
	// nil, replaces its themes (run it in a transaction).
	FileVoucherPrototype(ctx context.Context, p *VoucherPrototype) error
	// GetUniverse returns the universe; ErrNotFound when none.
	GetUniverse(ctx context.Context, id int64) (*Universe, error)
	// UpdateUniverse writes u.
	UpdateUniverse(ctx context.Context, u *Universe) error
	// FindUniverseLineage returns the universe and its ancestors, from it
	// up to its root; ErrNotFound when it does not exist.
	FindUniverseLineage(ctx context.Context, id int64) ([]*Universe, error)
	// FindUniverseDescendants returns every universe below it, in no order.
	FindUniverseDescendants(ctx context.Context, id int64) ([]*Universe, error)
	// UpdateTheme writes a theme's name; ErrNotFound when none.
	UpdateTheme(ctx context.Context, t *Theme) error
	// MissingThemes returns the ids among ids that name no theme.
	MissingThemes(ctx context.Context, ids []int64) ([]int64, error)
	// LockUniverseTree takes the universe tree's lock until the
	// transaction ends, so that a placement is checked and written with no
	// other tree write in between (two concurrent moves could otherwise
	// make a cycle).
	LockUniverseTree(ctx context.Context) error
}

func (in *GiftcardPrototypeInput) apply(v *domain.Validator, p *GiftcardPrototype) {
	create := p.ID == 0
	p.Title = v.OptLocalized(in.Title, p.Title, domain.MaxNameLength, create || in.Title != nil, "title")
	p.Description = v.OptLocalized(in.Description, p.Description, domain.MaxDescriptionLength, false, "description")
	p.TermsOfUse = v.OptLocalized(in.TermsOfUse, p.TermsOfUse, domain.MaxDescriptionLength, false, "termsOfUse")
	p.CustomizedAmount = domain.Pick(in.CustomizedAmount, p.CustomizedAmount)
	p.MinimumAmount = v.OptMoney(in.MinimumAmount, p.MinimumAmount, "minimumAmount")
	if in.PredefinedAmounts != nil {
		if len(in.PredefinedAmounts) > MaxPredefinedAmounts {
			v.Add(domain.VMaxElements, fmt.Sprintf(domain.MsgTooManyElements, MaxPredefinedAmounts), "predefinedAmounts")
		} else {
			p.PredefinedAmounts = make([]decimal.Decimal, len(in.PredefinedAmounts))
			for i, a := range in.PredefinedAmounts {
				p.PredefinedAmounts[i] = v.Money(a, "predefinedAmounts", i)
				if p.PredefinedAmounts[i].IsZero() && !domain.HasFieldError(v, "predefinedAmounts", i) {
					v.Add(domain.VMinValue, "Ensure this value is greater than 0.", "predefinedAmounts", i)
				}
			}
		}
	}
	if !p.CustomizedAmount && len(p.PredefinedAmounts) == 0 && (create || in.CustomizedAmount != nil || in.PredefinedAmounts != nil) {
		v.Add(domain.VRequired, "Give predefined amounts, or let the buyer choose the amount.", "predefinedAmounts")
	}
	p.MoneyPotActivated = domain.Pick(in.MoneyPotActivated, p.MoneyPotActivated)
	p.MoneyPotLogo = v.OptURL(in.MoneyPotLogo, p.MoneyPotLogo, "moneyPotLogo")
	if in.ValidityPeriod != nil && *in.ValidityPeriod < 1 {
		v.Add(domain.VMinValue, "Ensure this value is greater than or equal to 1.", "validityPeriod")
	}
	p.ValidityPeriod = domain.Pick(in.ValidityPeriod, p.ValidityPeriod)
	if in.ValidityUnit != nil && !slices.Contains(validityUnits, *in.ValidityUnit) {
		v.Add(domain.VInvalid, fmt.Sprintf(domain.MsgLanguageChoice, *in.ValidityUnit), "validityUnit")
	}
	p.ValidityUnit = domain.Pick(in.ValidityUnit, p.ValidityUnit)
}

// CreateGiftcardPrototype creates a giftcard prototype of the caller's
// partner (staff: of in.PartnerID).
// Errors: those of adminPartner; CodeInvalid with every field error.
func (s *PrototypeService) CreateGiftcardPrototype(ctx context.Context, in GiftcardPrototypeInput) (*GiftcardPrototypeView, error) {
	partner, _, err := domain.AdminPartner(ctx, s.uow.Stores().Partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	p := &GiftcardPrototype{PartnerID: partner.ID, ValidityPeriod: 12, ValidityUnit: ValidityMonth}
	var v domain.Validator
	in.apply(&v, p)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.uow.Stores().Prototypes.CreateGiftcardPrototype(ctx, p); err != nil {
		return nil, err
	}
	return giftcardPrototypeView(p), nil
}

// UpdateGiftcardPrototype changes a giftcard prototype the caller manages.
// Errors: CodeUnauthenticated; CodeNotFound for one of another partner;
// CodeInvalid with every field error.
func (s *PrototypeService) UpdateGiftcardPrototype(ctx context.Context, id int64, in GiftcardPrototypeInput) (*GiftcardPrototypeView, error) {
	if _, err := domain.Authorize(ctx, domain.OpCatalogueWrite); err != nil {
		return nil, err
	}
	p, err := s.uow.Stores().Prototypes.GetGiftcardPrototype(ctx, id)
	if err != nil {
		return nil, err
	}
	if _, err := domain.OwnerPartner(ctx, s.uow.Stores().Partners, p.PartnerID); err != nil {
		return nil, err
	}
	var v domain.Validator
	in.apply(&v, p)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.uow.Stores().Prototypes.UpdateGiftcardPrototype(ctx, p); err != nil {
		return nil, err
	}
	return giftcardPrototypeView(p), nil
}

// FileVoucherPrototype sets the universe and themes of a voucher prototype
// the caller manages, in one transaction. The universe may change, not go:
// the administration API requires one.
// Errors: those of Authorize(OpCatalogueWrite); CodeNotFound for one of
// another partner; CodeInvalid on "universeId" (null, or naming nothing)
// or ["themeIds", i] for ids that name nothing.
func (s *PrototypeService) FileVoucherPrototype(ctx context.Context, id int64, in VoucherPrototypeFilingInput) (*VoucherPrototype, error) {
	if _, err := domain.Authorize(ctx, domain.OpCatalogueWrite); err != nil {
		return nil, err
	}
	err := s.uow.RunInTx(ctx, func(ctx context.Context, tx PrototypeStores) error {
		p, err := tx.Prototypes.GetVoucherPrototype(ctx, id)
		if err != nil {
			return err
		}
		if _, err := domain.OwnerPartner(ctx, tx.Partners, p.PartnerID); err != nil {
			return err
		}
		var v domain.Validator
		switch {
		case in.ClearUniverse:
			// A voucher prototype always has a universe (its REST body requires one).
			v.Add(domain.VNull, domain.MsgNull, "universeId")
		case in.UniverseID != nil:
			if _, err := tx.Prototypes.GetUniverse(ctx, *in.UniverseID); domain.IsCode(err, domain.CodeNotFound) {
				v.Add(domain.VNotFound, fmt.Sprintf(MsgNoSuchRecord, *in.UniverseID), "universeId")
			} else if err != nil {
				return err
			}
			p.UniverseID = in.UniverseID
		}
		if in.ThemeIDs != nil {
			if err := checkThemes(ctx, tx, &v, in.ThemeIDs); err != nil {
				return err
			}
		}
		p.ThemeIDs = in.ThemeIDs
		if err := v.Err(); err != nil {
			return err
		}
		return tx.Prototypes.FileVoucherPrototype(ctx, p)
	})
	if err != nil {
		return nil, err
	}
	return s.uow.Stores().Prototypes.GetVoucherPrototype(ctx, id)
}

func checkThemes(ctx context.Context, tx PrototypeStores, v *domain.Validator, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	missing, err := tx.Prototypes.MissingThemes(ctx, ids)
	if err != nil {
		return err
	}
	for i, id := range ids {
		if slices.Contains(missing, id) {
			v.Add(domain.VNotFound, fmt.Sprintf(MsgNoSuchRecord, id), "themeIds", i)
		}
	}
	return nil
}

// CreateTheme adds a theme, a vocabulary all partners share: staff only.
// Errors: those of requireStaff; CodeInvalid on "name".
func (s *PrototypeService) CreateTheme(ctx context.Context, name []domain.TextInput) (*Theme, error) {
	if err := requireStaff(ctx); err != nil {
		return nil, err
	}
	var v domain.Validator
	t := &Theme{Name: v.Localized(name, domain.MaxNameLength, true, "name")}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.uow.Stores().Prototypes.CreateTheme(ctx, t); err != nil {
		return nil, err
	}
	return t, nil
}

// UpdateTheme renames a theme: staff only.
// Errors: those of requireStaff; CodeNotFound; CodeInvalid on "name".
func (s *PrototypeService) UpdateTheme(ctx context.Context, id int64, name []domain.TextInput) (*Theme, error) {
	if err := requireStaff(ctx); err != nil {
		return nil, err
	}
	var v domain.Validator
	t := &Theme{ID: id, Name: v.Localized(name, domain.MaxNameLength, true, "name")}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.uow.Stores().Prototypes.UpdateTheme(ctx, t); err != nil {
		return nil, err
	}
	return t, nil
}

// CreateUniverse adds a universe to the shared tree: staff only. Under a
// parent, it must stay within MaxUniverseDepth levels.
// Errors: those of requireStaff; CodeInvalid with every field error
// (VMaxDepth on "parentId" too deep, VNotFound for an unknown parent).
func (s *PrototypeService) CreateUniverse(ctx context.Context, in UniverseInput) (*Universe, error) {
	if err := requireStaff(ctx); err != nil {
		return nil, err
	}
	u := &Universe{}
	err := s.uow.RunInTx(ctx, func(ctx context.Context, tx PrototypeStores) error {
		if err := tx.Prototypes.LockUniverseTree(ctx); err != nil {
			return err
		}
		st := tx.Prototypes
		var v domain.Validator
		if err := applyUniverse(ctx, st, &v, &in, u); err != nil {
			return err
		}
		if err := v.Err(); err != nil {
			return err
		}
		return st.CreateUniverse(ctx, u)
	})
	if err != nil {
		return nil, err
	}
	return u, nil
}

// UpdateUniverse changes a universe: staff only. Moving it (and its
// sub-universes) must keep the tree within MaxUniverseDepth levels and
// without cycles.
// Errors: those of CreateUniverse; CodeNotFound for an unknown universe;
// VInvalid on "parentId" for itself or one of its descendants.
func (s *PrototypeService) UpdateUniverse(ctx context.Context, id int64, in UniverseInput) (*Universe, error) {
	if err := requireStaff(ctx); err != nil {
		return nil, err
	}
	var u *Universe
	err := s.uow.RunInTx(ctx, func(ctx context.Context, tx PrototypeStores) error {
		if err := tx.Prototypes.LockUniverseTree(ctx); err != nil {
			return err
		}
		st := tx.Prototypes
		var err error
		if u, err = st.GetUniverse(ctx, id); err != nil {
			return err
		}
		var v domain.Validator
		if err := applyUniverse(ctx, st, &v, &in, u); err != nil {
			return err
		}
		if err := v.Err(); err != nil {
			return err
		}
		return st.UpdateUniverse(ctx, u)
	})
	if err != nil {
		return nil, err
	}
	return u, nil
}

func applyUniverse(ctx context.Context, st PrototypeStore, v *domain.Validator, in *UniverseInput, u *Universe) error {
	create := u.ID == 0
	u.Name = v.OptLocalized(in.Name, u.Name, domain.MaxNameLength, create || in.Name != nil, "name")
	switch {
	case in.ClearOrder:
		u.Order = nil
	case in.Order != nil:
		u.Order = in.Order
	}
	switch {
	case in.ClearParent:
		u.ParentID = nil
	case in.ParentID != nil:
		lineage, err := st.FindUniverseLineage(ctx, *in.ParentID)
		if domain.IsCode(err, domain.CodeNotFound) {
			v.Add(domain.VNotFound, fmt.Sprintf(MsgNoSuchRecord, *in.ParentID), "parentId")
			return nil
		}
		if err != nil {
			return err
		}
		var below []*Universe
		if !create {
			if below, err = st.FindUniverseDescendants(ctx, u.ID); err != nil {
				return err
			}
		}
		if err := UniversePlacement(u.ID, lineage, below); err != nil {
			code, msg := domain.VMaxDepth, err.Error()
			if err == errUniverseCycle {
				code = domain.VInvalid
			}
			v.Add(code, msg, "parentId")
			return nil
		}
		u.ParentID = in.ParentID
	}
	return nil
}

var (
	errUniverseCycle = errors.New("A universe cannot be filed under itself or one of its sub-universes.")
	errUniverseDepth = fmt.Errorf("Universes go at most %d levels deep.", MaxUniverseDepth)
)

// UniversePlacement checks filing universe id (0 for a new one) with its
// descendants below under the parent whose lineage (the parent, then its
// ancestors up to the root) is given: no cycle, and at most
// MaxUniverseDepth levels from the root to the deepest descendant.
func UniversePlacement(id int64, parentLineage, below []*Universe) error {
	for _, a := range parentLineage {
		if id != 0 && a.ID == id {
			return errUniverseCycle
		}
	}
	if len(parentLineage)+1+subtreeHeight(id, below) > MaxUniverseDepth {
		return errUniverseDepth
	}
	return nil
}

// subtreeHeight is how many levels lie below universe id among below.
func subtreeHeight(id int64, below []*Universe) int {
	children := map[int64][]int64{}
	for _, u := range below {
		if u.ParentID != nil {
			children[*u.ParentID] = append(children[*u.ParentID], u.ID)
		}
	}
	var height func(int64, int) int
	height = func(n int64, guard int) int {
		if guard > len(below) {
			return guard // a cycle already stored: as deep as it gets
		}
		h := 0
		for _, c := range children[n] {
			h = max(h, 1+height(c, guard+1))
		}
		return h
	}
	return height(id, 0)
}
