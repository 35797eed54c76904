package domain

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// Voucher prototypes of the administration API (Document 3, 2.5, 4.4 and
// 4.6): the full record a partner writes, on the same rows the public
// catalogue reads (name, universe, themes). Decisions:
// docs/admin-prototypes.md.

// Voucher prototype types (4.6 `type`).
var VoucherPrototypeTypes = []string{"stay", "standard", "fixed_stay"}

// MaxPDFDescriptionLength is the contract's bound of pdf_description_<lang>.
const MaxPDFDescriptionLength = 300

// msgNoName refuses a prototype, option or category without any name.
const msgNoName = "At least one name_<lang> must not be blank."

// msgMinAboveMax refuses a minimum above the maximum.
const msgMinAboveMax = "Ensure this value is less than or equal to %s."

// AdminVoucherPrototype is a voucher prototype as the administration API
// shows it (2.5).
type AdminVoucherPrototype struct {
	ID          int64
	PartnerID   int64
	PartnerUUID uuid.UUID

	Name, Description, LongDescription     Localized
	RentConditions, HowToBookHTML, PDFText Localized

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
	// every global option of its partner, in one transaction; sets p.ID.
	CreateAdminVoucherPrototype(ctx context.Context, p *AdminVoucherPrototype) error
	// ModifyAdminVoucherPrototype locks the prototype, reads it, calls
	// change and, when change returns nil, writes it and replaces its
	// images: one transaction, so concurrent updates do not lose each
	// other's fields. change reads through tx, the store bound to that
	// transaction, never through another connection: a request holding
	// the lock must not wait for a second pooled connection.
	// ErrNotFound when it does not exist; change's error otherwise.
	ModifyAdminVoucherPrototype(ctx context.Context, id int64, change func(ctx context.Context, tx AdminPrototypeStore, p *AdminVoucherPrototype) error) error
	// FindAdminVoucherPrototypes returns a page of prototypes and the
	// number of all that match.
	FindAdminVoucherPrototypes(ctx context.Context, f AdminPrototypeFilter, page PageRequest) ([]*AdminVoucherPrototype, int, error)
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
	UniversesByID(ctx context.Context, ids []int64) ([]*Universe, error)
	// EnvironmentExists reports whether the environment exists.
	EnvironmentExists(ctx context.Context, id int64) (bool, error)

	OptionStore
}

// AdminPrototypeService is the administration of voucher prototypes,
// options and option categories; REST and graph call the same methods.
type AdminPrototypeService struct {
	store    AdminPrototypeStore
	partners PartnerStore
}

// NewAdminPrototypeService returns the service.
func NewAdminPrototypeService(store AdminPrototypeStore, partners PartnerStore) *AdminPrototypeService {
	return &AdminPrototypeService{store: store, partners: partners}
}

// CreateVoucherPrototype creates a prototype from a 4.6 body. A member
// creates it for its partner (partner_uuid may be omitted); staff name the
// partner.
// Errors: CodeUnauthenticated, CodeForbidden (OpPrototypeWrite);
// CodeInvalid with every field error.
func (s *AdminPrototypeService) CreateVoucherPrototype(ctx context.Context, doc Doc) (*AdminVoucherPrototype, error) {
	c, err := Authorize(ctx, OpPrototypeWrite)
	if err != nil {
		return nil, err
	}
	var v validator
	d := &docReader{v: &v, obj: doc}
	partner, err := d.writePartner(ctx, s.partners, c, false)
	if err != nil {
		return nil, err
	}
	p := &AdminVoucherPrototype{Name: Localized{}, Description: Localized{}, LongDescription: Localized{},
		RentConditions: Localized{}, HowToBookHTML: Localized{}, PDFText: Localized{},
		Type: "standard", PriceScope: 1, MinCapacity: 1, Ranking: 1, ImageIDs: []int64{}}
	if partner != nil {
		p.PartnerID, p.PartnerUUID = partner.ID, partner.UUID
	}
	if err := applyPrototype(ctx, s.store, d, p); err != nil {
		return nil, err
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	if err := s.store.CreateAdminVoucherPrototype(ctx, p); err != nil {
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
func (s *AdminPrototypeService) UpdateVoucherPrototype(ctx context.Context, id int64, doc Doc, partial bool) (*AdminVoucherPrototype, error) {
	c, err := Authorize(ctx, OpPrototypeWrite)
	if err != nil {
		return nil, err
	}
	err = s.store.ModifyAdminVoucherPrototype(ctx, id, func(ctx context.Context, tx AdminPrototypeStore, p *AdminVoucherPrototype) error {
		if !c.Sees(p.PartnerID) {
			return ErrNotFound
		}
		var v validator
		if err := applyPrototype(ctx, tx, &docReader{v: &v, obj: doc, partial: partial}, p); err != nil {
			return err
		}
		return v.err()
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
	c, err := Authorize(ctx, OpPrototypeRead)
	if err != nil {
		return nil, err
	}
	return s.visiblePrototype(ctx, c, id)
}

// VoucherPrototypes lists the prototypes the caller sees (staff: all), by
// f's filters and ordering; a partner filter the caller does not see
// gives an empty list.
// Errors: CodeUnauthenticated, CodeForbidden; CodeInvalid on "ordering";
// CodeNotFound "Invalid page." past the end.
func (s *AdminPrototypeService) VoucherPrototypes(ctx context.Context, f AdminPrototypeFilter, page PageRequest) (*Page[*AdminVoucherPrototype], error) {
	return adminList(ctx, OpPrototypeRead, f.PartnerID, f.Ordering, AdminPrototypeOrderings, page,
		func(tenant *int64) ([]*AdminVoucherPrototype, int, error) {
			f.PartnerID = tenant
			return s.store.FindAdminVoucherPrototypes(ctx, f, page)
		})
}

// VoucherPrototypesByID returns the prototypes the caller sees in ids
// order, nil for the others (a graph batch).
// Errors: CodeUnauthenticated, CodeForbidden.
func (s *AdminPrototypeService) VoucherPrototypesByID(ctx context.Context, ids []int64) ([]*AdminVoucherPrototype, error) {
	return visibleBatch(ctx, OpPrototypeRead, ids, s.store.AdminVoucherPrototypesByID, func(p *AdminVoucherPrototype) int64 { return p.PartnerID })
}

// UniversesByID returns universes (a shared list) in ids order, nil when
// missing: the graph's prototype universe batch.
// Errors: CodeUnauthenticated, CodeForbidden.
func (s *AdminPrototypeService) UniversesByID(ctx context.Context, ids []int64) ([]*Universe, error) {
	if _, err := Authorize(ctx, OpPrototypeRead); err != nil {
		return nil, err
	}
	return s.store.UniversesByID(ctx, ids)
}

func (s *AdminPrototypeService) visiblePrototype(ctx context.Context, c *Caller, id int64) (*AdminVoucherPrototype, error) {
	ps, err := s.store.AdminVoucherPrototypesByID(ctx, []int64{id})
	if err != nil {
		return nil, err
	}
	if ps[0] == nil || !c.Sees(ps[0].PartnerID) {
		return nil, ErrNotFound
	}
	return ps[0], nil
}

// voucherPrototype reads a prototype just written.
func (s *AdminPrototypeService) voucherPrototype(ctx context.Context, id int64) (*AdminVoucherPrototype, error) {
	ps, err := s.store.AdminVoucherPrototypesByID(ctx, []int64{id})
	if err != nil {
		return nil, err
	}
	if ps[0] == nil {
		return nil, ErrNotFound
	}
	return ps[0], nil
}

// applyPrototype reads the 4.6 body into p and checks the references
// through st. p.PartnerID is 0 when the partner is unknown (its error is
// recorded): the media checks are then skipped.
func applyPrototype(ctx context.Context, st AdminPrototypeStore, d *docReader, p *AdminVoucherPrototype) error {
	d.texts("name", true, MaxNameLength, p.Name)
	d.nameless("name", p.Name)
	d.texts("description", true, MaxDescriptionLength, p.Description)
	d.texts("long_description", true, MaxDescriptionLength, p.LongDescription)
	d.texts("rent_conditions", false, MaxDescriptionLength, p.RentConditions)
	d.texts("how_to_book_html", false, MaxDescriptionLength, p.HowToBookHTML)
	d.texts("pdf_description", false, MaxPDFDescriptionLength, p.PDFText)
	p.IsActive = pick(d.boolean("is_active"), p.IsActive)
	p.IsHighlight = pick(d.boolean("is_highlight"), p.IsHighlight)
	p.Type = pick(d.choice("type", true, VoucherPrototypeTypes), p.Type)
	n, _ := d.integer("price_scope", false, false, 0)
	p.PriceScope = pick(n, p.PriceScope)
	maxSet, _ := d.integer("max_capacity", false, false, 0)
	p.MaxCapacity = pick(maxSet, p.MaxCapacity)
	minSet, _ := d.integer("min_capacity", false, false, 0)
	p.MinCapacity = pick(minSet, p.MinCapacity)
	if (minSet != nil || maxSet != nil) && p.MaxCapacity > 0 && p.MinCapacity > p.MaxCapacity {
		d.v.add(VMaxValue, "Ensure this value is less than or equal to max_capacity.", "min_capacity")
	}
	n, _ = d.integer("ranking", false, false, -maxInt32)
	p.Ranking = pick(n, p.Ranking)
	if m, _ := d.money("stay_price", true, false); m != nil {
		p.StayPrice = *m
	}
	for _, f := range []struct {
		field string
		into  **decimal.Decimal
	}{{"adults_price", &p.AdultsPrice}, {"children_price", &p.ChildrenPrice}, {"baby_price", &p.BabyPrice}} {
		if m, set := d.money(f.field, false, true); set {
			*f.into = m
		}
	}
	if day, set := d.date("last_active_day"); set {
		p.LastActiveDay = day
	}
	if id, _ := d.pk("universe", true, false); id != nil {
		us, err := st.UniversesByID(ctx, []int64{*id})
		if err != nil {
			return err
		}
		if us[0] == nil {
			d.missingPK("universe", *id)
		}
		p.UniverseID = id
	}
	if id, set := d.pk("environment", false, true); set {
		if id != nil {
			ok, err := st.EnvironmentExists(ctx, *id)
			if err != nil {
				return err
			}
			if !ok {
				d.missingPK("environment", *id)
			}
		}
		p.EnvironmentID = id
	}
	images := d.pkList("images")
	if images != nil {
		if len(images) > MaxImages {
			d.v.add(VMaxElements, fmt.Sprintf(msgTooManyElements, MaxImages), "images")
		}
		p.ImageIDs = images
	}
	cover, coverSet := d.pk("cover_image", false, true)
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
			d.missingPK("images", missing[0])
		}
	}
	if cover != nil {
		missing, err := st.MissingMedia(ctx, p.PartnerID, []int64{*cover})
		if err != nil {
			return err
		}
		if len(missing) > 0 {
			d.missingPK("cover_image", *cover)
		}
	}
	return nil
}
