package prototypes

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/vouchers"
)

// Options a buyer adds to a voucher, their categories, and the links that
// offer an option with a prototype (the REST option, option category and link records,
// 4.5). Decisions: docs/admin-prototypes.md.

// OptionCategory groups a partner's options; the buyer picks between
// MinNumberOptions and MaxNumberOptions of them (nil: no bound).
type OptionCategory struct {
	ID               int64
	PartnerID        int64
	PartnerUUID      uuid.UUID
	Name             domain.Localized
	Description      domain.Localized
	IsActive         bool
	Ranking          int
	MinNumberOptions *int
	MaxNumberOptions *int
}

// PrototypeOptionLink offers an option with a prototype: Count of it,
// Included in the prototype's price or sold on top.
type PrototypeOptionLink struct {
	ID          int64
	PrototypeID int64
	Count       int
	Included    bool
	Option      *vouchers.VoucherOption
}

// OptionStore is what the option administration writes with.
type OptionStore interface {
	// CreateOption inserts o with its services, its links (count 1, not
	// included) to o.VoucherPrototypeIDs and, when global, to every prototype of
	// its partner (run it in a transaction); sets o.ID.
	CreateOption(ctx context.Context, o *vouchers.VoucherOption) error
	// OptionsByID returns the options in ids order, nil when missing.
	OptionsByID(ctx context.Context, ids []int64) ([]*vouchers.VoucherOption, error)
	// CreateOptionCategory inserts c and sets c.ID.
	CreateOptionCategory(ctx context.Context, c *OptionCategory) error
	// OptionCategoriesByID returns the categories in ids order, nil when
	// missing.
	OptionCategoriesByID(ctx context.Context, ids []int64) ([]*OptionCategory, error)
	// FindPrototypeOptionLinks returns, for each prototype of ids (in
	// order), the page of its option links (by option ranking, then id)
	// and how many it has.
	FindPrototypeOptionLinks(ctx context.Context, prototypeIDs []int64, page domain.PageRequest) ([][]*PrototypeOptionLink, []int, error)
	// SavePrototypeOptionLink inserts or updates the link of its prototype
	// and option and sets l.ID.
	SavePrototypeOptionLink(ctx context.Context, l *PrototypeOptionLink) error
	// FindOptions returns a page of the options f selects and how many it
	// selects.
	FindOptions(ctx context.Context, f OptionFilter, page domain.PageRequest) ([]*vouchers.VoucherOption, int, error)
	// FindOptionCategories returns a page of the categories f selects and
	// how many it selects.
	FindOptionCategories(ctx context.Context, f OptionCategoryFilter, page domain.PageRequest) ([]*OptionCategory, int, error)
	// FindCategoryOptions returns, for each category of ids (in order), the
	// page of its options (by ranking, then id) and how many it has.
	FindCategoryOptions(ctx context.Context, categoryIDs []int64, page domain.PageRequest) ([][]*vouchers.VoucherOption, []int, error)
}

// OptionFilter selects options. PartnerID limits them to one partner (the
// graph's Partner.options); the service narrows it to the caller's
// tenancy. The rest are the graph's filters.
type OptionFilter struct {
	PartnerID  *int64
	CategoryID *int64
	IsActive   *bool
	IsGlobal   *bool
	Search     string // in any language of the name
	Ordering   string // one of OptionOrderings; "" is "ranking"
}

// OptionCategoryFilter selects option categories, as OptionFilter does
// options.
type OptionCategoryFilter struct {
	PartnerID *int64
	IsActive  *bool
	Search    string // in any language of the name
	Ordering  string // one of OptionOrderings; "" is "ranking"
}

// OptionOrderings are the orderings of an option or option category list.
// The default, "ranking", is the order the buyer sees them in.
var OptionOrderings = []string{"ranking", "-ranking", "id", "-id"}

// CreateOption creates an option from its body: name_<lang> and
// description_<lang> required, price and selling_price, countable,
// is_global, is_active, ranking, category, voucher_prototypes (linked with
// count 1, not included), services_info, partner_uuid.
// Errors: CodeUnauthenticated, CodeForbidden (OpOptionWrite); CodeInvalid
// with every field error.
func (s *AdminPrototypeService) CreateOption(ctx context.Context, in OptionInput) (*vouchers.VoucherOption, error) {
	c, err := domain.Authorize(ctx, domain.OpOptionWrite)
	if err != nil {
		return nil, err
	}
	var o *vouchers.VoucherOption
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		var err error
		o, err = createOption(ctx, tx, c, in)
		return err
	})
	if err != nil {
		return nil, err
	}
	os, err := s.uow.Stores().Prototypes.OptionsByID(ctx, []int64{o.ID})
	if err != nil {
		return nil, err
	}
	return os[0], nil
}

// readServices reads services_info: at most MaxServiceRows rows of
// service_cost, service_buying_vat, service_selling_vat, service_price.
func readServices(f domain.Fields, field string, o domain.Optional[[]OptionServiceInput]) []vouchers.OptionService {
	rows, ok, _ := domain.Present(f, field, o, false, false)
	if !ok {
		return []vouchers.OptionService{}
	}
	if len(rows) > domain.MaxServiceRows {
		f.V.Add(domain.VMaxElements, fmt.Sprintf(domain.MsgTooManyElements, domain.MaxServiceRows), field)
		return nil
	}
	f.V.ListLength(len(rows), field)
	out := make([]vouchers.OptionService, len(rows))
	for i, row := range rows {
		read := func(name string, o domain.Optional[decimal.Decimal], vat bool) decimal.Decimal {
			path := []any{field, i, name}
			switch {
			case domain.HasFieldError(f.V, path...) || !o.Set:
				return decimal.Zero
			case o.Null:
				f.V.Add(domain.VNull, domain.MsgNull, path...)
				return decimal.Zero
			}
			before := len(f.V.Fields)
			m := f.V.Amount(o.Value, path...)
			if len(f.V.Fields) == before && vat && m.GreaterThan(decimal.NewFromInt(100)) {
				f.V.Add(domain.VMaxValue, "Ensure this value is less than or equal to 100.", path...)
			}
			return m
		}
		out[i] = vouchers.OptionService{Cost: read("service_cost", row.Cost, false), BuyingVAT: read("service_buying_vat", row.BuyingVAT, true),
			SellingVAT: read("service_selling_vat", row.SellingVAT, true), Price: read("service_price", row.Price, false)}
	}
	return out
}

// CreateOptionCategory creates an option category from its body.
// partner_uuid is required, a member's must be its own partner's (another
// reads as unknown); min_number_options must not be above
// max_number_options.
// Errors: CodeUnauthenticated, CodeForbidden (OpOptionWrite); CodeInvalid
// with every field error.
func (s *AdminPrototypeService) CreateOptionCategory(ctx context.Context, in OptionCategoryInput) (*OptionCategory, error) {
	c, err := domain.Authorize(ctx, domain.OpOptionWrite)
	if err != nil {
		return nil, err
	}
	v := in.Validator()
	d := domain.Fields{V: v}
	c2 := &OptionCategory{Name: domain.Localized{}, Description: domain.Localized{}, IsActive: true, Ranking: 1}
	partner, err := d.WritePartner(ctx, s.uow.Stores().Partners, c, in.PartnerUUID, true)
	if err != nil {
		return nil, err
	}
	if partner != nil {
		c2.PartnerID, c2.PartnerUUID = partner.ID, partner.UUID
	}
	d.Texts("name", in.Name, false, domain.MaxNameLength, c2.Name)
	d.Nameless("name", in.Name, c2.Name)
	d.Texts("description", in.Description, false, domain.MaxDescriptionLength, c2.Description)
	c2.IsActive = domain.Pick(d.Bool("is_active", in.IsActive), c2.IsActive)
	n, _ := d.Integer("ranking", in.Ranking, false, false, -domain.MaxInt32)
	c2.Ranking = domain.Pick(n, c2.Ranking)
	c2.MinNumberOptions, _ = d.Integer("min_number_options", in.MinNumberOptions, false, true, 0)
	c2.MaxNumberOptions, _ = d.Integer("max_number_options", in.MaxNumberOptions, false, true, 0)
	if c2.MinNumberOptions != nil && c2.MaxNumberOptions != nil && *c2.MinNumberOptions > *c2.MaxNumberOptions {
		v.Add(domain.VMaxValue, fmt.Sprintf(msgMinAboveMax, "max_number_options"), "min_number_options")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.uow.Stores().Prototypes.CreateOptionCategory(ctx, c2); err != nil {
		return nil, err
	}
	return c2, nil
}

// PrototypeOptions returns a page of the option links of a prototype the
// caller sees.
// Errors: CodeUnauthenticated, CodeForbidden (OpPrototypeRead);
// CodeNotFound for a prototype it does not see, "Invalid page." past the
// end.
func (s *AdminPrototypeService) PrototypeOptions(ctx context.Context, id int64, page domain.PageRequest) (*domain.Page[*PrototypeOptionLink], error) {
	c, err := domain.Authorize(ctx, domain.OpPrototypeRead)
	if err != nil {
		return nil, err
	}
	if _, err := visiblePrototype(ctx, s.uow.Stores(), c, id); err != nil {
		return nil, err
	}
	links, counts, err := s.uow.Stores().Prototypes.FindPrototypeOptionLinks(ctx, []int64{id}, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(links[0], counts[0], page)
}

// OptionsOfPrototypes returns the same page of the option links of each
// prototype of ids (a graph batch); a prototype the caller does not see
// has none.
// Errors: CodeUnauthenticated, CodeForbidden.
func (s *AdminPrototypeService) OptionsOfPrototypes(ctx context.Context, ids []int64, page domain.PageRequest) ([]*domain.Page[*PrototypeOptionLink], error) {
	ps, err := s.VoucherPrototypesByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	links, counts, err := s.uow.Stores().Prototypes.FindPrototypeOptionLinks(ctx, ids, page)
	if err != nil {
		return nil, err
	}
	return domain.VisiblePages(ps, links, counts, page), nil
}

// OptionsByID returns the options the caller sees in ids order, nil for
// the others (a graph batch: the options bought with vouchers).
// Errors: CodeUnauthenticated, CodeForbidden.
func (s *AdminPrototypeService) OptionsByID(ctx context.Context, ids []int64) ([]*vouchers.VoucherOption, error) {
	return domain.VisibleBatch(ctx, domain.OpPrototypeRead, ids, s.uow.Stores().Prototypes.OptionsByID, func(o *vouchers.VoucherOption) int64 { return o.PartnerID })
}

// OptionCategoriesByID returns the categories the caller sees in ids
// order, nil for the others (a graph batch).
// Errors: CodeUnauthenticated, CodeForbidden.
func (s *AdminPrototypeService) OptionCategoriesByID(ctx context.Context, ids []int64) ([]*OptionCategory, error) {
	return domain.VisibleBatch(ctx, domain.OpPrototypeRead, ids, s.uow.Stores().Prototypes.OptionCategoriesByID, func(x *OptionCategory) int64 { return x.PartnerID })
}

// SetPrototypeOption offers an option with a prototype (both of one
// partner the caller sees), count of it, included in the price or not;
// it creates the link or changes it.
// Errors: CodeUnauthenticated, CodeForbidden (OpOptionWrite); CodeNotFound
// for a prototype the caller does not see; CodeInvalid on "option" for an
// option of another partner, on "count" below 0.
func (s *AdminPrototypeService) SetPrototypeOption(ctx context.Context, prototypeID, optionID int64, count int, included bool) (*PrototypeOptionLink, error) {
	c, err := domain.Authorize(ctx, domain.OpOptionWrite)
	if err != nil {
		return nil, err
	}
	var l *PrototypeOptionLink
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		p, err := visiblePrototype(ctx, tx, c, prototypeID)
		if err != nil {
			return err
		}
		var v domain.Validator
		os, err := tx.Prototypes.OptionsByID(ctx, []int64{optionID})
		if err != nil {
			return err
		}
		if os[0] == nil || os[0].PartnerID != p.PartnerID {
			v.Add(domain.VNotFound, fmt.Sprintf(domain.MsgPKMissing, optionID), "option")
		}
		if count < 0 || count > domain.MaxInt32 {
			v.Add(domain.VMinValue, domain.MsgMinZero, "count")
		}
		if err := v.Err(); err != nil {
			return err
		}
		l = &PrototypeOptionLink{PrototypeID: prototypeID, Count: count, Included: included, Option: os[0]}
		return tx.Prototypes.SavePrototypeOptionLink(ctx, l)
	})
	if err != nil {
		return nil, err
	}
	// Read the option again: its prototype ids now include this one.
	os, err := s.uow.Stores().Prototypes.OptionsByID(ctx, []int64{optionID})
	if err != nil {
		return nil, err
	}
	l.Option = os[0]
	return l, nil
}

// Options returns a page of the options the caller sees (its partner's;
// every partner's for staff) that f selects, in f's ordering; a partner
// filter the caller does not see gives an empty list.
// Errors: CodeUnauthenticated, CodeForbidden (OpPrototypeRead);
// CodeInvalid on "ordering"; CodeNotFound "Invalid page." past the end.
func (s *AdminPrototypeService) Options(ctx context.Context, f OptionFilter, page domain.PageRequest) (*domain.Page[*vouchers.VoucherOption], error) {
	return domain.AdminList(ctx, domain.OpPrototypeRead, f.PartnerID, f.Ordering, OptionOrderings, page,
		func(tenant *int64) ([]*vouchers.VoucherOption, int, error) {
			f.PartnerID = tenant
			return s.uow.Stores().Prototypes.FindOptions(ctx, f, page)
		})
}

// OptionCategories returns a page of the option categories the caller
// sees that f selects, as Options does options.
// Errors: those of Options.
func (s *AdminPrototypeService) OptionCategories(ctx context.Context, f OptionCategoryFilter, page domain.PageRequest) (*domain.Page[*OptionCategory], error) {
	return domain.AdminList(ctx, domain.OpPrototypeRead, f.PartnerID, f.Ordering, OptionOrderings, page,
		func(tenant *int64) ([]*OptionCategory, int, error) {
			f.PartnerID = tenant
			return s.uow.Stores().Prototypes.FindOptionCategories(ctx, f, page)
		})
}

// OptionsOfCategories returns the same page of the options of each
// category of ids (a graph batch); a category the caller does not see has
// none.
// Errors: CodeUnauthenticated, CodeForbidden.
func (s *AdminPrototypeService) OptionsOfCategories(ctx context.Context, ids []int64, page domain.PageRequest) ([]*domain.Page[*vouchers.VoucherOption], error) {
	cs, err := s.OptionCategoriesByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	options, counts, err := s.uow.Stores().Prototypes.FindCategoryOptions(ctx, ids, page)
	if err != nil {
		return nil, err
	}
	return domain.VisiblePages(cs, options, counts, page), nil
}

// createOption reads, checks and inserts an option through tx: the
// category and prototypes it names are checked in the transaction that
// links them.
func createOption(ctx context.Context, tx Stores, c *domain.Caller, in OptionInput) (*vouchers.VoucherOption, error) {
	v := in.Validator()
	d := domain.Fields{V: v}
	partner, err := d.WritePartner(ctx, tx.Partners, c, in.PartnerUUID, false)
	if err != nil {
		return nil, err
	}
	o := &vouchers.VoucherOption{Name: domain.Localized{}, Description: domain.Localized{}, IsActive: true, Ranking: 1,
		Services: []vouchers.OptionService{}, VoucherPrototypeIDs: []int64{}}
	d.Texts("name", in.Name, true, domain.MaxNameLength, o.Name)
	d.Nameless("name", in.Name, o.Name)
	d.Texts("description", in.Description, true, domain.MaxDescriptionLength, o.Description)
	if m, _ := d.Money("price", in.Price, false, false); m != nil {
		o.Price = *m
	}
	if m, _ := d.Money("selling_price", in.SellingPrice, false, false); m != nil {
		o.SellingPrice = *m
	}
	o.Countable = domain.Pick(d.Bool("countable", in.Countable), o.Countable)
	o.IsGlobal = domain.Pick(d.Bool("is_global", in.IsGlobal), o.IsGlobal)
	o.IsActive = domain.Pick(d.Bool("is_active", in.IsActive), o.IsActive)
	n, _ := d.Integer("ranking", in.Ranking, false, false, -domain.MaxInt32)
	o.Ranking = domain.Pick(n, o.Ranking)
	o.Services = readServices(d, "services_info", in.Services)
	category, _ := d.PK("category", in.Category, false, true)
	o.CategoryID = category
	prototypes := d.PKList("voucher_prototypes", in.VoucherPrototypes)
	if partner != nil {
		o.PartnerID, o.PartnerUUID = partner.ID, partner.UUID
		if category != nil {
			cs, err := tx.Prototypes.OptionCategoriesByID(ctx, []int64{*category})
			if err != nil {
				return nil, err
			}
			if cs[0] == nil || cs[0].PartnerID != partner.ID {
				d.MissingPK("category", *category)
			}
		}
		if len(prototypes) > 0 {
			missing, err := tx.Prototypes.MissingPrototypes(ctx, partner.ID, prototypes)
			if err != nil {
				return nil, err
			}
			if len(missing) > 0 {
				d.MissingPK("voucher_prototypes", missing[0])
			}
			o.VoucherPrototypeIDs = prototypes
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := tx.Prototypes.CreateOption(ctx, o); err != nil {
		return nil, err
	}
	return o, nil
}
