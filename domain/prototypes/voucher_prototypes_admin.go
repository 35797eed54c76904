package prototypes

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
)

// Voucher prototypes of the administration API (the REST voucher prototype record and routes,
// 4.6): the full record a partner writes, on the same rows the public
// catalogue reads (name, universe, themes). Decisions:
// docs/admin-prototypes.md.

// Voucher prototype types (the REST body's `type`).
var VoucherPrototypeTypes = []string{"stay", "standard", "fixed_stay"}

// MaxPDFDescriptionLength is the contract's bound of pdf_description_<lang>.
const MaxPDFDescriptionLength = 300

// msgMinAboveMax refuses a minimum above the maximum.
const msgMinAboveMax = "Ensure this value is less than or equal to %s."

// AdminVoucherPrototype is a voucher prototype as the administration API
// shows it.
type AdminVoucherPrototype struct {
	ID          int64
	PartnerID   int64
	PartnerUUID uuid.UUID

	Name, Description, LongDescription     domain.Localized
	RentConditions, HowToBookHTML, PDFText domain.Localized

	IsActive, IsHighlight bool
	Type                  string
	PriceScope            int
	MaxCapacity           int
	MinCapacity           int
	Ranking               int
	StayPrice             decimal.Decimal
	AdultsPrice           *decimal.Decimal
	ChildrenPrice         *decimal.Decimal
	BabyPrice             *decimal.Decimal
	UniverseID            *int64 // nil only when its universe was deleted
	EnvironmentID         *int64
	LastActiveDay         *time.Time // a date
	ImageIDs              []int64    // media, in display order
	CoverImageID          *int64     // nil: the first image
	// NbOrders counts its vouchers that were sold (state not draft nor
	// error).
	NbOrders int
}

// CoverMediaID is the media its cover shows: its cover image, else its
// first image (a null cover_image means the first image); nil with
// neither.
func (p *AdminVoucherPrototype) CoverMediaID() *int64 {
	switch {
	case p.CoverImageID != nil:
		return p.CoverImageID
	case len(p.ImageIDs) > 0:
		return &p.ImageIDs[0]
	}
	return nil
}

// AdminPrototypeFilter selects prototypes. PartnerID limits them to one
// partner (the graph's Partner.voucherPrototypes); the service narrows it
// to the caller's tenancy. The rest are the graph's filters.
type AdminPrototypeFilter struct {
	PartnerID  *int64
	IsActive   *bool
	Type       *string
	UniverseID *int64
	Search     string // in any language of the name
	Ordering   string // one of AdminPrototypeOrderings; "" is "id"
}

// AdminPrototypeOrderings are the orderings of a prototype list.
var AdminPrototypeOrderings = []string{"id", "-id", "ranking", "-ranking"}

// AdminPrototypeStore is what the prototype and option administration
// reads and writes with.
type AdminPrototypeStore interface {
	// CreateAdminVoucherPrototype inserts p with its images and a link to
	// every global option of its partner (run it in a transaction); sets
	// p.ID.
	CreateAdminVoucherPrototype(ctx context.Context, p *AdminVoucherPrototype) error
	// LockAdminVoucherPrototype reads the prototype and holds its row
	// until the transaction ends, so that concurrent updates apply one
	// after the other; ErrNotFound when it does not exist.
	LockAdminVoucherPrototype(ctx context.Context, id int64) (*AdminVoucherPrototype, error)
	// UpdateAdminVoucherPrototype writes p and replaces its images (run it
	// in a transaction).
	UpdateAdminVoucherPrototype(ctx context.Context, p *AdminVoucherPrototype) error
	// FindAdminVoucherPrototypes returns a page of prototypes and the
	// number of all that match.
	FindAdminVoucherPrototypes(ctx context.Context, f AdminPrototypeFilter, page domain.PageRequest) ([]*AdminVoucherPrototype, int, error)
	// AdminVoucherPrototypesByID returns the prototypes in ids order, nil
	// for an id that names none.
	AdminVoucherPrototypesByID(ctx context.Context, ids []int64) ([]*AdminVoucherPrototype, error)
	// MissingMedia returns the ids among ids that name no media of
	// partnerID.
	MissingMedia(ctx context.Context, partnerID int64, ids []int64) ([]int64, error)
	// MissingPrototypes returns the ids among ids that name no voucher
	// prototype of partnerID.
	MissingPrototypes(ctx context.Context, partnerID int64, ids []int64) ([]int64, error)
	// UniversesByID returns the universes in ids order, nil when missing.
	UniversesByID(ctx context.Context, ids []int64) ([]*catalogue.Universe, error)
	// EnvironmentExists reports whether the environment exists.
	EnvironmentExists(ctx context.Context, id int64) (bool, error)

	OptionStore
}

// AdminPrototypeService is the administration of voucher prototypes,
// options and option categories; REST and graph call the same methods.
type AdminPrototypeService struct {
	uow domain.UnitOfWork[Stores]
}

// Stores are the stores the prototype administration reads and writes
// with.
type Stores struct {
	Prototypes AdminPrototypeStore
	Partners   domain.PartnerStore
}

// NewAdminPrototypeService returns the service.
func NewAdminPrototypeService(uow domain.UnitOfWork[Stores]) *AdminPrototypeService {
	return &AdminPrototypeService{uow: uow}
}

// CreateVoucherPrototype creates a prototype from a 4.6 body. A member
// creates it for its partner (partner_uuid may be omitted); staff name the
// partner.
// Errors: CodeUnauthenticated, CodeForbidden (OpPrototypeWrite);
// CodeInvalid with every field error.
func (s *AdminPrototypeService) CreateVoucherPrototype(ctx context.Context, in PrototypeInput) (*AdminVoucherPrototype, error) {
	c, err := domain.Authorize(ctx, domain.OpPrototypeWrite)
	if err != nil {
		return nil, err
	}
	var p *AdminVoucherPrototype
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		v := in.Validator()
		d := domain.Fields{V: v}
		partner, err := d.WritePartner(ctx, tx.Partners, c, in.PartnerUUID, false)
		if err != nil {
			return err
		}
		p = &AdminVoucherPrototype{Name: domain.Localized{}, Description: domain.Localized{}, LongDescription: domain.Localized{},
			RentConditions: domain.Localized{}, HowToBookHTML: domain.Localized{}, PDFText: domain.Localized{},
			Type: "standard", PriceScope: 1, MinCapacity: 1, Ranking: 1, ImageIDs: []int64{}}
		if partner != nil {
			p.PartnerID, p.PartnerUUID = partner.ID, partner.UUID
		}
		if err := applyPrototype(ctx, tx.Prototypes, d, in, p); err != nil {
			return err
		}
		if err := v.Err(); err != nil {
			return err
		}
		return tx.Prototypes.CreateAdminVoucherPrototype(ctx, p)
	})
	if err != nil {
		return nil, err
	}
	return s.voucherPrototype(ctx, p.ID)
}

// UpdateVoucherPrototype changes a prototype the caller sees: PUT
// (partial false) asks for the required fields as creation does, PATCH
// (partial true) for none; both change only the fields given. The
// partner does not change (partner_uuid is ignored).
// Errors: those of CreateVoucherPrototype; CodeNotFound for a prototype
// the caller does not see.
func (s *AdminPrototypeService) UpdateVoucherPrototype(ctx context.Context, id int64, in PrototypeInput, partial bool) (*AdminVoucherPrototype, error) {
	c, err := domain.Authorize(ctx, domain.OpPrototypeWrite)
	if err != nil {
		return nil, err
	}
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		p, err := tx.Prototypes.LockAdminVoucherPrototype(ctx, id)
		if err != nil {
			return err
		}
		if !c.Sees(p.PartnerID) {
			return domain.ErrNotFound
		}
		v := in.Validator()
		if err := applyPrototype(ctx, tx.Prototypes, domain.Fields{V: v, Partial: partial}, in, p); err != nil {
			return err
		}
		if err := v.Err(); err != nil {
			return err
		}
		return tx.Prototypes.UpdateAdminVoucherPrototype(ctx, p)
	})
	if err != nil {
		return nil, err
	}
	return s.voucherPrototype(ctx, id)
}

// VoucherPrototype returns a prototype the caller sees.
// Errors: CodeUnauthenticated, CodeForbidden (OpPrototypeRead);
// CodeNotFound.
func (s *AdminPrototypeService) VoucherPrototype(ctx context.Context, id int64) (*AdminVoucherPrototype, error) {
	c, err := domain.Authorize(ctx, domain.OpPrototypeRead)
	if err != nil {
		return nil, err
	}
	return visiblePrototype(ctx, s.uow.Stores(), c, id)
}

// VoucherPrototypes lists the prototypes the caller sees (staff: all), by
// f's filters and ordering; a partner filter the caller does not see
// gives an empty list.
// Errors: CodeUnauthenticated, CodeForbidden; CodeInvalid on "ordering";
// CodeNotFound "Invalid page." past the end.
func (s *AdminPrototypeService) VoucherPrototypes(ctx context.Context, f AdminPrototypeFilter, page domain.PageRequest) (*domain.Page[*AdminVoucherPrototype], error) {
	return domain.AdminList(ctx, domain.OpPrototypeRead, f.PartnerID, f.Ordering, AdminPrototypeOrderings, page,
		func(tenant *int64) ([]*AdminVoucherPrototype, int, error) {
			f.PartnerID = tenant
			return s.uow.Stores().Prototypes.FindAdminVoucherPrototypes(ctx, f, page)
		})
}

// VoucherPrototypesByID returns the prototypes the caller sees in ids
// order, nil for the others (a graph batch).
// Errors: CodeUnauthenticated, CodeForbidden.
func (s *AdminPrototypeService) VoucherPrototypesByID(ctx context.Context, ids []int64) ([]*AdminVoucherPrototype, error) {
	return domain.VisibleBatch(ctx, domain.OpPrototypeRead, ids, s.uow.Stores().Prototypes.AdminVoucherPrototypesByID, func(p *AdminVoucherPrototype) int64 { return p.PartnerID })
}

// UniversesByID returns universes (a shared list) in ids order, nil when
// missing: the graph's prototype universe batch.
// Errors: CodeUnauthenticated, CodeForbidden.
func (s *AdminPrototypeService) UniversesByID(ctx context.Context, ids []int64) ([]*catalogue.Universe, error) {
	if _, err := domain.Authorize(ctx, domain.OpPrototypeRead); err != nil {
		return nil, err
	}
	return s.uow.Stores().Prototypes.UniversesByID(ctx, ids)
}

func visiblePrototype(ctx context.Context, st Stores, c *domain.Caller, id int64) (*AdminVoucherPrototype, error) {
	ps, err := st.Prototypes.AdminVoucherPrototypesByID(ctx, []int64{id})
	if err != nil {
		return nil, err
	}
	if ps[0] == nil || !c.Sees(ps[0].PartnerID) {
		return nil, domain.ErrNotFound
	}
	return ps[0], nil
}

// voucherPrototype reads a prototype just written.
func (s *AdminPrototypeService) voucherPrototype(ctx context.Context, id int64) (*AdminVoucherPrototype, error) {
	ps, err := s.uow.Stores().Prototypes.AdminVoucherPrototypesByID(ctx, []int64{id})
	if err != nil {
		return nil, err
	}
	if ps[0] == nil {
		return nil, domain.ErrNotFound
	}
	return ps[0], nil
}

// applyPrototype reads in into p and checks the references through st.
// p.PartnerID is 0 when the partner is unknown (its error is recorded):
// the media checks are then skipped.
func applyPrototype(ctx context.Context, st AdminPrototypeStore, d domain.Fields, in PrototypeInput, p *AdminVoucherPrototype) error {
	applyPrototypeFields(d, in, p)
	if id, _ := d.PK("universe", in.Universe, true, false); id != nil {
		us, err := st.UniversesByID(ctx, []int64{*id})
		if err != nil {
			return err
		}
		if us[0] == nil {
			d.MissingPK("universe", *id)
		}
		p.UniverseID = id
	}
	if id, set := d.PK("environment", in.Environment, false, true); set {
		if id != nil {
			ok, err := st.EnvironmentExists(ctx, *id)
			if err != nil {
				return err
			}
			if !ok {
				d.MissingPK("environment", *id)
			}
		}
		p.EnvironmentID = id
	}
	images := d.PKList("images", in.Images)
	if images != nil {
		if len(images) > domain.MaxImages {
			d.V.Add(domain.VMaxElements, fmt.Sprintf(domain.MsgTooManyElements, domain.MaxImages), "images")
		}
		p.ImageIDs = images
	}
	cover, coverSet := d.PK("cover_image", in.CoverImage, false, true)
	if coverSet {
		p.CoverImageID = cover
	}
	if p.PartnerID == 0 {
		return nil
	}
	// Another partner's media reads as one that does not exist.
	if len(images) > 0 {
		missing, err := st.MissingMedia(ctx, p.PartnerID, images)
		if err != nil {
			return err
		}
		if len(missing) > 0 {
			d.MissingPK("images", missing[0])
		}
	}
	if cover != nil {
		missing, err := st.MissingMedia(ctx, p.PartnerID, []int64{*cover})
		if err != nil {
			return err
		}
		if len(missing) > 0 {
			d.MissingPK("cover_image", *cover)
		}
	}
	return nil
}

// applyPrototypeFields reads the fields of in that need no store.
func applyPrototypeFields(d domain.Fields, in PrototypeInput, p *AdminVoucherPrototype) {
	d.Texts("name", in.Name, true, domain.MaxNameLength, p.Name)
	d.Nameless("name", in.Name, p.Name)
	d.Texts("description", in.Description, true, domain.MaxDescriptionLength, p.Description)
	d.Texts("long_description", in.LongDescription, true, domain.MaxDescriptionLength, p.LongDescription)
	d.Texts("rent_conditions", in.RentConditions, false, domain.MaxDescriptionLength, p.RentConditions)
	d.Texts("how_to_book_html", in.HowToBookHTML, false, domain.MaxDescriptionLength, p.HowToBookHTML)
	d.Texts("pdf_description", in.PDFText, false, MaxPDFDescriptionLength, p.PDFText)
	p.IsActive = domain.Pick(d.Bool("is_active", in.IsActive), p.IsActive)
	p.IsHighlight = domain.Pick(d.Bool("is_highlight", in.IsHighlight), p.IsHighlight)
	p.Type = domain.Pick(d.Choice("type", in.Type, true, VoucherPrototypeTypes), p.Type)
	n, _ := d.Integer("price_scope", in.PriceScope, false, false, 0)
	p.PriceScope = domain.Pick(n, p.PriceScope)
	maxSet, _ := d.Integer("max_capacity", in.MaxCapacity, false, false, 0)
	p.MaxCapacity = domain.Pick(maxSet, p.MaxCapacity)
	minSet, _ := d.Integer("min_capacity", in.MinCapacity, false, false, 0)
	p.MinCapacity = domain.Pick(minSet, p.MinCapacity)
	if (minSet != nil || maxSet != nil) && p.MaxCapacity > 0 && p.MinCapacity > p.MaxCapacity {
		d.V.Add(domain.VMaxValue, "Ensure this value is less than or equal to max_capacity.", "min_capacity")
	}
	n, _ = d.Integer("ranking", in.Ranking, false, false, -domain.MaxInt32)
	p.Ranking = domain.Pick(n, p.Ranking)
	if m, _ := d.Money("stay_price", in.StayPrice, true, false); m != nil {
		p.StayPrice = *m
	}
	for _, f := range []struct {
		field string
		o     domain.Optional[decimal.Decimal]
		into  **decimal.Decimal
	}{{"adults_price", in.AdultsPrice, &p.AdultsPrice}, {"children_price", in.ChildrenPrice, &p.ChildrenPrice}, {"baby_price", in.BabyPrice, &p.BabyPrice}} {
		if m, set := d.Money(f.field, f.o, false, true); set {
			*f.into = m
		}
	}
	if day, set := d.Date("last_active_day", in.LastActiveDay, msgDate); set {
		p.LastActiveDay = day
	}
}
