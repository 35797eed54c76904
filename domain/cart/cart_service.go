package cart

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"salesplatform/domain"
)

// Cart limits. The contract sets none; these keep one cart small enough that
// the in-memory store stays bounded (documented in docs/DECISIONS.md).
const (
	DefaultCartTTL       = 2 * time.Hour
	MaxCartItems         = 100
	MaxCartQuantity      = 100_000
	MaxAttributesPerItem = 50
	MaxAttributeValueLen = 255
	MsgCartNotFound      = "Cart not found"
	funnelPath           = "/ecommerce/shop/customization/"
)

// Service creates, replaces, reads and deletes e-commerce carts for the
// calling partner.
type Service struct {
	carts    CartStore
	partners domain.PartnerStore
	ttl      time.Duration
	// publicBaseURL builds funnel URLs for partners without a site domain.
	publicBaseURL string
	// development lets return_url name local hosts (checkReturnURL).
	development bool
	now         func() time.Time
}

// NewService returns the service. ttl is how long a cart lives after its
// last modification; publicBaseURL is this service's public address, used
// for the funnel URL of partners that have no site domain.
func NewService(carts CartStore, partners domain.PartnerStore, ttl time.Duration, publicBaseURL string) *Service {
	return &Service{carts: carts, partners: partners, ttl: ttl, publicBaseURL: strings.TrimRight(publicBaseURL, "/"), now: time.Now}
}

// AllowLocalReturnURLs lets carts' return_url name localhost, *.localhost
// and loopback addresses, over http too: for development only, where the
// shop runs on the developer's machine. It returns s.
func (s *Service) AllowLocalReturnURLs(allow bool) *Service {
	s.development = allow
	return s
}

// CartView is a cart as the API shows it.
type CartView struct {
	*Cart
	FunnelURL string
	ExpiresAt time.Time
	// ReturnTo is where the funnel may send the customer back to: the
	// cart's ReturnURL if it passes the return_url rule today, else "" (a
	// cart stored under an older rule keeps its ReturnURL, echoed by the
	// API, but the funnel never sends anyone there).
	ReturnTo string
}

// CartInput is a cart as a client sends it. ID names the cart it replaces
// (absent or null: a new cart). IfMatch is an HTTP If-Match value (""
// when absent).
type CartInput struct {
	domain.Refusals
	ID        domain.Optional[uuid.UUID]
	Items     domain.Optional[[]ItemInput]
	ReturnURL domain.Optional[string]
	IfMatch   string
}

// ItemInput is one item of a cart. AttributeValues are keyed by attribute
// id as sent (the contract's object keys); a value the surface refused is
// absent.
type ItemInput struct {
	ProductID, Quantity, VariantID domain.Optional[int64]
	AttributeValues                domain.Optional[map[string]string]
}

// SaveCart creates a cart, or replaces the caller's cart named by the
// document's id. created reports which.
// Errors: CodeUnauthenticated, CodeForbidden (caller without partner),
// CodeInvalid (including an id that names no cart of the caller's partner),
// CodePreconditionFailed (IfMatch does not match the current cart).
func (s *Service) SaveCart(ctx context.Context, in CartInput) (view *CartView, created bool, err error) {
	partner, err := domain.PartnerFrom(ctx)
	if err != nil {
		return nil, false, err
	}
	doc, err := parseCartDoc(in, s.development)
	if err != nil {
		return nil, false, err
	}
	now := s.now().Truncate(time.Millisecond) // last_modified is in ms
	if doc.id == nil {
		if in.IfMatch != "" {
			return nil, false, &domain.Error{Code: domain.CodePreconditionFailed, Message: "If-Match applies only to replacing an existing cart."}
		}
		c := &Cart{ID: uuid.New(), PartnerID: partner.ID, Items: doc.items, ReturnURL: doc.returnURL, CreatedAt: now, LastModified: now}
		if err := s.carts.Create(ctx, c, s.ttl); err != nil {
			return nil, false, err
		}
		return s.view(c, partner, c.ReturnURL), true, nil
	}

	var saved *Cart
	err = s.carts.Update(ctx, *doc.id, s.ttl, func(cur *Cart) (*Cart, error) {
		if cur.PartnerID != partner.ID {
			return nil, domain.ErrNotFound
		}
		if in.IfMatch != "" && !etagMatches(in.IfMatch, cur.ETag()) {
			return nil, &domain.Error{Code: domain.CodePreconditionFailed, Message: "The cart has changed since it was read."}
		}
		// Later rounding could put a replace before its create; never go back.
		modified := now
		if !modified.After(cur.LastModified) {
			modified = cur.LastModified.Add(time.Millisecond)
		}
		saved = &Cart{ID: cur.ID, PartnerID: cur.PartnerID, Items: doc.items, ReturnURL: doc.returnURL,
			CreatedAt: cur.CreatedAt, LastModified: modified, Revision: cur.Revision + 1,
			Funnel: cur.Funnel} // the customer's answers outlive the shop's changes
		return saved, nil
	})
	if domain.IsCode(err, domain.CodeNotFound) {
		var v domain.Validator
		v.Add(domain.VNotFound, MsgCartNotFound, "id")
		return nil, false, v.Err()
	}
	if err != nil {
		return nil, false, err
	}
	return s.view(saved, partner, saved.ReturnURL), false, nil
}

// Cart returns a cart of the caller's partner by its id as given in a path.
// Errors: CodeUnauthenticated, CodeForbidden, CodeNotFound ("Cart not found")
// when the id is not a UUID, or the cart does not exist, lapsed, was deleted
// or is another partner's.
func (s *Service) Cart(ctx context.Context, id string) (*CartView, error) {
	partner, err := domain.PartnerFrom(ctx)
	if err != nil {
		return nil, err
	}
	cartID, err := uuid.Parse(id)
	if err != nil {
		return nil, &domain.Error{Code: domain.CodeNotFound, Message: MsgCartNotFound}
	}
	return s.partnerCart(ctx, partner, cartID)
}

// FunnelSite names the partner whose purchase site serves a funnel page:
// by the request's host, or by UUID on this service's own address.
type FunnelSite struct {
	Host        string
	PartnerUUID *uuid.UUID
}

// FunnelCart returns the cart a customer opens through a funnel URL, with
// the site's partner. The site decides the tenant: a cart of another
// partner is not found.
// Errors: CodeNotFound ("Cart not found").
func (s *Service) FunnelCart(ctx context.Context, site FunnelSite, id uuid.UUID) (*CartView, *domain.Partner, error) {
	partner, err := s.sitePartner(ctx, site)
	if err != nil {
		return nil, nil, err
	}
	v, err := s.partnerCart(ctx, partner, id)
	if err != nil {
		return nil, nil, err
	}
	return v, partner, nil
}

// DeleteCart removes a cart once its checkout reached the order summary,
// as the funnel does. Deleting a missing cart is not an error; another
// partner's cart is not touched.
// Errors: CodeNotFound when the site names no partner.
func (s *Service) DeleteCart(ctx context.Context, site FunnelSite, id uuid.UUID) error {
	partner, err := s.sitePartner(ctx, site)
	if err != nil {
		return err
	}
	c, err := s.carts.Get(ctx, id)
	if domain.IsCode(err, domain.CodeNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if c.PartnerID != partner.ID {
		return nil
	}
	return s.carts.Delete(ctx, id)
}

// SitePartner is the partner whose purchase site serves a funnel page.
// Errors: CodeNotFound ("Cart not found") when the site names none.
func (s *Service) SitePartner(ctx context.Context, site FunnelSite) (*domain.Partner, error) {
	return s.sitePartner(ctx, site)
}

func (s *Service) sitePartner(ctx context.Context, site FunnelSite) (*domain.Partner, error) {
	var p *domain.Partner
	var err error
	if site.PartnerUUID != nil {
		p, err = s.partners.FindPartnerByUUID(ctx, *site.PartnerUUID)
	} else {
		p, err = s.partners.FindPartnerBySiteDomain(ctx, strings.ToLower(site.Host))
	}
	if domain.IsCode(err, domain.CodeNotFound) {
		return nil, &domain.Error{Code: domain.CodeNotFound, Message: MsgCartNotFound}
	}
	return p, err
}

func (s *Service) partnerCart(ctx context.Context, partner *domain.Partner, id uuid.UUID) (*CartView, error) {
	c, err := s.carts.Get(ctx, id)
	if err == nil && c.PartnerID != partner.ID {
		err = domain.ErrNotFound
	}
	if domain.IsCode(err, domain.CodeNotFound) {
		return nil, &domain.Error{Code: domain.CodeNotFound, Message: MsgCartNotFound}
	}
	if err != nil {
		return nil, err
	}
	returnTo := c.ReturnURL
	if _, msg := checkReturnURL(returnTo, s.development); msg != "" {
		returnTo = "" // a cart kept from before the rule refused its URL
	}
	return s.view(c, partner, returnTo), nil
}

// view is c as answered, returnTo its return URL if the rule takes it
// ("" otherwise): a cart just saved passed the rule (parseCartDoc).
func (s *Service) view(c *Cart, p *domain.Partner, returnTo string) *CartView {
	return &CartView{Cart: c, FunnelURL: s.funnelURL(c, p), ExpiresAt: c.LastModified.Add(s.ttl), ReturnTo: returnTo}
}

// funnelURL is the partner's checkout funnel for the cart: on its own site
// when it has one, else under this service's address with the partner's UUID
// in the path.
func (s *Service) funnelURL(c *Cart, p *domain.Partner) string {
	base := "https://" + p.SiteDomain
	if p.SiteDomain == "" {
		base = s.publicBaseURL + domain.PartnerPathRoot + p.UUID.String()
	}
	return base + funnelPath + "?cart=" + c.ID.String() // a UUID needs no escaping
}

// etagMatches applies If-Match: "*" or a list of strong entity tags.
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

// Messages of an attribute id (a key of attribute_values).
const (
	MsgAttributeID     = "Attribute ids must be positive integers."
	MsgAttributeIDForm = "Attribute ids must be written without a sign or leading zeros."
)

// cartDoc is a validated cart document.
type cartDoc struct {
	id        *uuid.UUID
	returnURL string
	items     []CartItem
}

// parseCartDoc checks a cart against the contract and this service's
// limits. development is the return_url rule's (checkReturnURL).
func parseCartDoc(in CartInput, development bool) (*cartDoc, error) {
	v := in.Validator()
	if domain.HasFieldError(v, "non_field_errors") { // a body that is no object: no field to read
		return nil, v.Err()
	}
	doc := &cartDoc{items: []CartItem{}}
	if id, ok := in.ID.Get(); ok {
		doc.id = &id
	}
	doc.returnURL = returnURL(v, in.ReturnURL, development)
	switch items := in.Items.Value; {
	case domain.HasFieldError(v, "items"):
	case !in.Items.Set:
		v.Add(domain.VRequired, domain.MsgRequired, "items")
	case in.Items.Null:
		v.Add(domain.VNull, domain.MsgNull, "items")
	case len(items) > MaxCartItems:
		v.Add(domain.VMaxLength, fmt.Sprintf("Ensure this field has no more than %d elements.", MaxCartItems), "items")
	default:
		v.ListLength(len(items), "items")
		for i, it := range items {
			if item, ok := parseCartItem(v, it, "items", i); ok {
				doc.items = append(doc.items, item)
			}
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return doc, nil
}

func parseCartItem(v *domain.Validator, in ItemInput, path ...any) (CartItem, bool) {
	// at is the path of a field of the item, built only when an error is
	// looked for or recorded: a clean cart makes none.
	at := func(field ...any) []any { return append(append([]any{}, path...), field...) }
	if len(v.Fields) > 0 && domain.HasFieldError(v, at("non_field_errors")...) {
		return CartItem{}, false
	}
	before := len(v.Fields)
	item := CartItem{AttributeValues: map[int64]string{}}
	item.ProductID, _ = integer(v, in.ProductID, "product_id", true, 1, 1<<63-1, at)
	item.Quantity, _ = integer(v, in.Quantity, "quantity", true, 0, MaxCartQuantity, at)
	if id, ok := integer(v, in.VariantID, "variant_id", false, 1, 1<<63-1, at); ok {
		item.VariantID = &id
	}
	switch m := in.AttributeValues.Value; {
	case !in.AttributeValues.Set || len(v.Fields) > 0 && domain.HasFieldError(v, at("attribute_values")...):
	case in.AttributeValues.Null:
		v.Add(domain.VNull, domain.MsgNull, at("attribute_values")...)
	case len(m) > MaxAttributesPerItem:
		v.Add(domain.VMaxLength, fmt.Sprintf("Ensure this field has no more than %d elements.", MaxAttributesPerItem), at("attribute_values")...)
	default:
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys) // errors in a stable order
		for _, k := range keys {
			id, err := strconv.ParseInt(k, 10, 64)
			switch {
			case err != nil || id < 1:
				v.Add(domain.VInvalid, MsgAttributeID, at("attribute_values", k)...)
			case strconv.FormatInt(id, 10) != k:
				// "01" and "1" would be one attribute: the line is stored
				// as given, so only one way of writing an id is taken.
				v.Add(domain.VInvalid, MsgAttributeIDForm, at("attribute_values", k)...)
			case len(v.Fields) > 0 && domain.HasFieldError(v, at("attribute_values", k)...):
			case utf8.RuneCountInString(m[k]) > MaxAttributeValueLen:
				v.Add(domain.VMaxLength, fmt.Sprintf("Ensure this field has no more than %d characters.", MaxAttributeValueLen), at("attribute_values", k)...)
			default:
				item.AttributeValues[id] = m[k]
			}
		}
	}
	return item, len(v.Fields) == before && !errorUnder(v, path)
}

// errorUnder reports whether v holds an error below path (a refusal).
func errorUnder(v *domain.Validator, path []any) bool {
	if len(v.Fields) == 0 {
		return false
	}
	key := domain.PathKey(path) + "."
	for _, f := range v.Fields {
		if strings.HasPrefix(domain.PathKey(f.Path), key) {
			return true
		}
	}
	return false
}

// integer reads an integer field within [min, max]. ok is false when the
// field is absent, null, refused or out of range (the last recorded).
func integer(v *domain.Validator, o domain.Optional[int64], field string, required bool, min, max int64, at func(...any) []any) (n int64, ok bool) {
	switch {
	case len(v.Fields) > 0 && domain.HasFieldError(v, at(field)...):
		return 0, false
	case !o.Set || o.Null:
		switch {
		case !o.Set && required:
			v.Add(domain.VRequired, domain.MsgRequired, at(field)...)
		case o.Null && required:
			v.Add(domain.VNull, domain.MsgNull, at(field)...)
		}
		return 0, false
	}
	n = o.Value
	switch {
	case n < min:
		v.Add(domain.VMinValue, fmt.Sprintf("Ensure this value is greater than or equal to %d.", min), at(field)...)
		return n, false
	case n > max:
		v.Add(domain.VMaxValue, fmt.Sprintf("Ensure this value is less than or equal to %d.", max), at(field)...)
		return n, false
	}
	return n, true
}
