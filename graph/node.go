package graph

// Global ids of the Node interface (docs/GRAPHQL.md).
//
// A Node's id is the unpadded base64url (RFC 4648 §5) of "TypeName:key":
// the GraphQL type's name, a colon, and the key its own lookup reads it
// by (the numeric record id, the UUID of a Partner or a Cart, the code of
// an AdminVoucher), written by graph/model (GlobalID), read back here. It
// is presentation only: the domain never sees a
// global id, each lookup decodes it into the key its service method takes.
// node(id:) and nodes(ids:) call the same lookups as the types' own root
// fields (box, adminVoucher, cart…), so tenancy and errors are theirs.

import (
	"context"
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/graph/model"
)

// maxNodes bounds the ids of one nodes(ids:).
const maxNodes = 100

// msgInvalidGlobalID answers an id that is not a global id of this graph.
const msgInvalidGlobalID = "Not a valid global id."

// keyKind is how a Node type's key is written.
type keyKind int

const (
	numericKey keyKind = iota // a positive record id, in decimal
	uuidKey                   // a canonical lower-case UUID
	codeKey                   // a code: printable, at most 255 characters
	pairKey                   // two record ids, "M:P" (a NetworkPartner's)
	kindKey                   // a kind and a record id, "voucher:12" (a Gift's: ids repeat across kinds)
)

// nodeType is one Node type: its key and its lookup; a type without a
// lookup (nothing in the domain reads its records alone) is a Node for
// its globally unique id, and node(id:) answers NOT_FOUND for it.
type nodeType struct {
	key    keyKind
	lookup func(r *Resolver, ctx context.Context, key string) (model.Node, error)
}

// nodeTypes are the types that implement Node, by GraphQL name.
var nodeTypes = map[string]nodeType{
	"CataloguePartner": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.cataloguePartner(ctx, k))
	}},
	"Event": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.event(ctx, k))
	}},
	"Workshop": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.workshop(ctx, k))
	}},
	"Box": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.box(ctx, k))
	}},
	"GiftcardPrototype": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.giftcardPrototype(ctx, k))
	}},
	"Media": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.mediaItem(ctx, k))
	}},
	"AdminVoucherPrototype": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.adminVoucherPrototype(ctx, k))
	}},
	"VoucherOption": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.adminOption(ctx, k))
	}},
	"OptionCategory": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.adminOptionCategory(ctx, k))
	}},
	"AdminVoucher": {codeKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.adminVoucher(ctx, k))
	}},
	"AdminGiftcard": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.adminGiftcard(ctx, k))
	}},
	"Cart": {uuidKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.cart(ctx, k))
	}},
	"BoxOffer": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.boxOffer(ctx, k))
	}},
	"User": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.user(ctx, k))
	}},
	"Partner": {uuidKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.adminPartner(ctx, mustUUID(k)))
	}},
	"NetworkGiftcard": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.networkGiftcard(ctx, k))
	}},
	"NetworkGiftcardUsage": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.networkGiftcardUsage(ctx, k))
	}},
	"NetworkGiftcardHold": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.networkGiftcardHold(ctx, k))
	}},
	"NetworkGiftcardMovement": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.networkGiftcardMovement(ctx, k))
	}},
	"NetworkPartner": {pairKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.networkPartner(ctx, k))
	}},
	"NetworkVoucherBox": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.networkVoucherBox(ctx, k))
	}},
	"NetworkVoucherBoxOffer": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.networkVoucherBoxOffer(ctx, k))
	}},
	"NetworkVoucher": {codeKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.networkVoucher(ctx, k))
	}},
	"NetworkVoucherUsage": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.networkVoucherUsage(ctx, k))
	}},
	"PaymentPartner": {uuidKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.paymentPartner(ctx, mustUUID(k)))
	}},
	"KycDocument": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.kycDocument(ctx, k))
	}},
	"Wallet": {uuidKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.wallet(ctx, mustUUID(k)))
	}},
	"MultiProductCart": {uuidKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.multiProductCart(ctx, k))
	}},
	"EcommerceOrder": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.ecommerceOrder(ctx, k))
	}},
	"Payment": {uuidKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.payment(ctx, mustUUID(k)))
	}},
	"PaymentRequest": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.paymentRequest(ctx, k))
	}},
	"EcommerceProduct": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.ecommerceProduct(ctx, k))
	}},
	"PayoutRequest": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.payoutRequest(ctx, k))
	}},
	"WebhookEndpoint": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.webhookEndpoint(ctx, k))
	}},
	"UniverseRecord": {numericKey, func(r *Resolver, ctx context.Context, k string) (model.Node, error) {
		return asNode(r.universeRecord(ctx, k))
	}},

	// Without a lookup (docs/GRAPHQL.md): embedded values, the rows of
	// lists that no read serves alone.
	"AdminVoucherCoupon":       {key: numericKey},
	"EcommerceAttribute":       {key: numericKey},
	"EcommerceVariant":         {key: numericKey},
	"ContactRequest":           {key: numericKey},
	"EventFormula":             {key: numericKey},
	"EventSlot":                {key: numericKey},
	"EventSlotListItem":        {key: numericKey},
	"Gift":                     {key: kindKey},
	"GiftPartner":              {key: numericKey},
	"GiftProduct":              {key: kindKey},
	"ManagedBox":               {key: numericKey},
	"ManagedBoxOffer":          {key: numericKey},
	"NetworkVoucherBoxImage":   {key: numericKey},
	"NetworkVoucherBoxProduct": {key: numericKey},
	"NetworkVoucherPriceRange": {key: numericKey},
	"PartnerAgency":            {key: numericKey},
	"PrototypeOptionLink":      {key: numericKey},
	"RelatedProductDetails":    {key: kindKey},
	"Theme":                    {key: numericKey},
	"Universe":                 {key: numericKey},
	"VoucherPrototype":         {key: numericKey},
	"WorkshopCategory":         {key: numericKey},
	"WorkshopLevel":            {key: numericKey},
	"WorkshopRecipe":           {key: numericKey},
	"WorkshopSession":          {key: numericKey},
	"WorkshopSkill":            {key: numericKey},
	"WorkshopTarget":           {key: numericKey},
	"WorkshopTheme":            {key: numericKey},
	"WebhookAttempt":           {key: numericKey},
}

// asNode is a lookup's answer as a Node: nil (never a typed nil) when it
// found nothing.
func asNode[T any](v *T, err error) (model.Node, error) {
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, domain.ErrNotFound
	}
	return any(v).(model.Node), nil
}

// globalID is the global id of the typ record with key.
func globalID(typ, key string) string { return model.GlobalID(typ, key) }

// numericGlobalID is the global id of the typ record with id.
func numericGlobalID(typ string, id int64) string { return model.NumericGlobalID(typ, id) }

// decodeGlobalID returns the type and key a global id names; ok is false
// for anything but the canonical global id of a Node type with a key of
// its kind.
func decodeGlobalID(id string) (typ, key string, ok bool) {
	raw, err := base64.RawURLEncoding.Strict().DecodeString(id)
	if err != nil || !utf8.Valid(raw) || base64.RawURLEncoding.EncodeToString(raw) != id { // the decoder skips newlines
		return "", "", false
	}
	typ, key, found := strings.Cut(string(raw), ":")
	nt, known := nodeTypes[typ]
	if !found || !known || !validKey(nt.key, key) {
		return "", "", false
	}
	return typ, key, true
}

func validKey(kind keyKind, key string) bool {
	switch kind {
	case numericKey:
		n, err := strconv.ParseInt(key, 10, 64)
		return err == nil && n > 0 && strconv.FormatInt(n, 10) == key
	case uuidKey:
		u, err := uuid.Parse(key)
		return err == nil && u.String() == key
	case pairKey:
		_, ok := parsePartnerKey(key)
		return ok
	case kindKey:
		kind, id, found := strings.Cut(key, ":")
		return found && kind != "" && strings.Trim(kind, "abcdefghijklmnopqrstuvwxyz_") == "" && validKey(numericKey, id)
	default:
		if key == "" || len(key) > 255 {
			return false
		}
		for _, c := range key {
			if c < ' ' || c == 0x7f {
				return false
			}
		}
		return true
	}
}

// lookupKey reads the id argument of typ's own lookup: the key of a global
// id of typ; for a global id of another type, NOT_FOUND (it names no typ);
// anything else is returned as it is, the record id the argument took
// before global ids (deprecated), which the lookup reads as it always has.
func lookupKey(typ, id string) (string, error) {
	t, key, ok := decodeGlobalID(id)
	if !ok {
		return id, nil
	}
	if t != typ {
		return "", domain.ErrNotFound
	}
	return key, nil
}

// recordID reads the id of a typ record that a mutation's input names:
// typ's global id, or the numeric id the input took before global ids
// (deprecated).
// Errors: NOT_FOUND for a global id of another type or a string that is
// not a record id, as the lookups answer.
func recordID(typ, id string) (int64, error) {
	key, err := lookupKey(typ, id)
	if err != nil {
		return 0, err
	}
	return parseID(key)
}

// recordIDOf is recordID for a record that several types show (a slot is
// an EventSlot and an EventSlotListItem, a universe a Universe and a
// UniverseRecord): a global id of any of types, or the numeric id
// (deprecated).
func recordIDOf(id string, types ...string) (int64, error) {
	if t, key, ok := decodeGlobalID(id); ok {
		if !slices.Contains(types, t) {
			return 0, domain.ErrNotFound
		}
		id = key
	}
	return parseID(id)
}

// keyOf is filterKey for a record that several types show: the key of a
// global id of any of types; anything else as it is.
func keyOf(id string, types ...string) string {
	if t, key, ok := decodeGlobalID(id); ok && slices.Contains(types, t) {
		return key
	}
	return id
}

// refRecordID reads the id of a related typ record an input refers to, as
// recordID does, except that an id naming no record is 0, which the
// service reports as a field error (DOES_NOT_EXIST) like any missing one.
func refRecordID(typ, id string) int64 {
	return lenientID(filterKey(typ, id))
}

// globalKey reads an argument that takes only global ids, of typ: its key.
// Errors: CodeInvalid on arg for a string that is not a global id,
// CodeNotFound for a global id of another type.
func globalKey(arg, typ, id string) (string, error) {
	t, key, ok := decodeGlobalID(id)
	if !ok {
		return "", argumentError(arg, "invalid", msgInvalidGlobalID)
	}
	if t != typ {
		return "", domain.ErrNotFound
	}
	return key, nil
}

// resolveNode is node(id:): the record id names, by its type's lookup.
func (r *Resolver) resolveNode(ctx context.Context, arg, id string) (model.Node, error) {
	typ, key, ok := decodeGlobalID(id)
	if !ok {
		return nil, argumentError(arg, "invalid", msgInvalidGlobalID)
	}
	lookup := nodeTypes[typ].lookup
	if lookup == nil {
		return nil, domain.ErrNotFound
	}
	return lookup(r, ctx, key)
}

// resolveNodes is nodes(ids:): each id as node reads it, in order; an id
// that fails is null, with its error at its index.
func (r *Resolver) resolveNodes(ctx context.Context, ids []string) ([]model.Node, error) {
	if len(ids) > maxNodes {
		return nil, argumentError("ids", "max_length", "Ensure this field has no more than "+strconv.Itoa(maxNodes)+" elements.")
	}
	out := make([]model.Node, len(ids))
	for i, id := range ids {
		n, err := r.resolveNode(ctx, "ids", id)
		if err != nil {
			graphql.AddError(graphql.WithPathContext(ctx, graphql.NewPathWithIndex(i)), err)
			continue
		}
		out[i] = n
	}
	return out, nil
}

// converted turns a lookup's result into its graph type, passing the
// lookup's error through: converted(toGraphBox)(r.BoxCatalog.Box(ctx, key)).
func converted[T, M any](to func(T) M) func(T, error) (M, error) {
	return func(v T, err error) (M, error) {
		if err != nil {
			var zero M
			return zero, err
		}
		return to(v), nil
	}
}

// The lookups of the Node types, shared by node(id:) and each type's own
// root field. key is the type's key as global ids carry it (or, from a
// root field, the record id it took before).

func (r *Resolver) cataloguePartner(ctx context.Context, key string) (*model.CataloguePartner, error) {
	return converted(toGraphCataloguePartner)(r.PartnerCatalog.Partner(ctx, key))
}

func (r *Resolver) event(ctx context.Context, key string) (*model.Event, error) {
	return converted(toGraphEvent)(r.EventCatalog.Event(ctx, key))
}

func (r *Resolver) workshop(ctx context.Context, key string) (*model.Workshop, error) {
	return converted(toGraphWorkshop)(r.WorkshopCatalog.Workshop(ctx, key))
}

func (r *Resolver) box(ctx context.Context, key string) (*model.Box, error) {
	return converted(toGraphBox)(r.BoxCatalog.Box(ctx, key))
}

func (r *Resolver) boxOffer(ctx context.Context, key string) (*model.BoxOffer, error) {
	return converted(toGraphBoxOffer)(r.BoxCatalog.BoxOffer(ctx, key))
}

func (r *Resolver) user(ctx context.Context, key string) (*model.User, error) {
	id, err := parseID(key)
	if err != nil {
		return nil, err
	}
	return converted(toGraphUser)(r.Accounts.User(ctx, id))
}

func (r *Resolver) giftcardPrototype(ctx context.Context, key string) (*model.GiftcardPrototype, error) {
	return converted(toGraphGiftcardPrototype)(r.PrototypeCatalog.GiftcardPrototype(ctx, key))
}

func (r *Resolver) mediaItem(ctx context.Context, key string) (*model.Media, error) {
	n, err := parseID(key)
	if err != nil {
		return nil, err
	}
	return converted(r.toGraphMedia)(r.MediaLibrary.Get(ctx, n))
}

func (r *Resolver) adminVoucherPrototype(ctx context.Context, key string) (*model.AdminVoucherPrototype, error) {
	n, err := parseID(key)
	if err != nil {
		return nil, err
	}
	return converted(toGraphAdminPrototype)(r.AdminPrototypes.VoucherPrototype(ctx, n))
}

func (r *Resolver) adminOption(ctx context.Context, key string) (*model.VoucherOption, error) {
	n, err := parseID(key)
	if err != nil {
		return nil, err
	}
	o, err := loadersFrom(ctx).options.Load(ctx, n)
	if err == nil && o == nil {
		err = domain.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return toGraphVoucherOption(o), nil
}

func (r *Resolver) adminOptionCategory(ctx context.Context, key string) (*model.OptionCategory, error) {
	n, err := parseID(key)
	if err != nil {
		return nil, err
	}
	c, err := loadersFrom(ctx).optionCategories.Load(ctx, n)
	if err == nil && c == nil {
		err = domain.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return toGraphOptionCategory(c), nil
}

func (r *Resolver) adminVoucher(ctx context.Context, code string) (*model.AdminVoucher, error) {
	return converted(toGraphAdminVoucher)(r.VoucherAdmin.Voucher(ctx, code))
}

// adminGiftcard reads key as adminGiftcard(id:) always has: an id that is
// not an integer names no giftcard.
func (r *Resolver) adminGiftcard(ctx context.Context, key string) (*model.AdminGiftcard, error) {
	return converted(toGraphAdminGiftcard)(r.VoucherAdmin.Giftcard(ctx, lenientID(key)))
}

// universeRecord reads a universe (a shared list) as the catalogue's boxes
// show theirs: open to whoever reads the catalogue.
func (r *Resolver) universeRecord(ctx context.Context, key string) (*model.UniverseRecord, error) {
	id, err := parseID(key)
	if err != nil {
		return nil, err
	}
	us, err := r.BoxCatalog.UniversesByID(ctx, []int64{id})
	if err != nil {
		return nil, err
	}
	if len(us) != 1 || us[0] == nil {
		return nil, domain.ErrNotFound
	}
	return toGraphUniverseRecord(us[0]), nil
}

func (r *Resolver) cart(ctx context.Context, key string) (*model.Cart, error) {
	return converted(toGraphCart)(r.Carts.Cart(ctx, key))
}

func (r *Resolver) adminPartner(ctx context.Context, id uuid.UUID) (*model.Partner, error) {
	return converted(toGraphPartner)(r.Accounts.AdminPartner(ctx, id))
}

// mustUUID reads a key decodeGlobalID checked as a UUID.
func mustUUID(key string) uuid.UUID { return uuid.MustParse(key) }

// filterKey reads an id a list's filter argument takes: a global id of typ
// as its key; anything else as it is: the record id the argument took
// before global ids (deprecated), or a string the service refuses as it
// always has.
func filterKey(typ, id string) string {
	if t, key, ok := decodeGlobalID(id); ok && t == typ {
		return key
	}
	return id
}
