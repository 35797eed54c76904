package graph

// Look-ahead prefetching. A nested field's loader gathers its siblings'
// keys for loaderWait, then reads them: each nesting level of a query
// would wait that long, idle. Where a list resolver knows its items, it
// looks at what the query asks of them (gqlgen's field collection) and
// reads the next levels for all its items at once, priming their loaders:
// the items' resolvers then find their answers cached and nothing waits
// on a timer. The statements are the loaders' own batch reads, so their
// number still depends on the query's shape only. A prefetch that fails,
// or that cannot place its window without reading first, primes nothing:
// the loaders then read as usual, and report the error.

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vikstrous/dataloadgen"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
)

// step is one field of a look-ahead path, and the type whose selection
// it is in (which fragments' type conditions are matched against).
type step struct{ field, in string }

// lookahead returns the fields at path under the fields sel (the current
// field's, from gqlgen's field context, when sel is nil), through
// fragments: every alias, each with its arguments.
func lookahead(ctx context.Context, sel ast.SelectionSet, path ...step) []graphql.CollectedField {
	op := graphql.GetOperationContext(ctx)
	if sel == nil {
		fc := graphql.GetFieldContext(ctx)
		if fc == nil || fc.Field.Field == nil {
			return nil
		}
		sel = fc.Field.Selections
	}
	level := []ast.SelectionSet{sel}
	var found []graphql.CollectedField
	for i, s := range path {
		var next []ast.SelectionSet
		found = found[:0]
		for _, set := range level {
			for _, f := range graphql.CollectFields(op, set, satisfies(s.in)) {
				if f.Name == s.field {
					found = append(found, f)
					next = append(next, f.Selections)
				}
			}
		}
		if i < len(path)-1 {
			level = next
		}
	}
	return found
}

// satisfiesOf maps each object type to the type conditions a fragment
// may name and still apply to it: the type, its interfaces and its
// unions (as gqlgen's own field collection is given them).
var satisfiesOf = func() map[string][]string {
	out := map[string][]string{}
	for name, def := range parsedSchema.Types {
		if def.Kind != ast.Object {
			continue
		}
		names := []string{name}
		for _, d := range parsedSchema.GetImplements(def) {
			names = append(names, d.Name)
		}
		out[name] = names
	}
	return out
}()

// satisfies is satisfiesOf[typ]: the type alone for one it does not know.
func satisfies(typ string) []string {
	if names, ok := satisfiesOf[typ]; ok {
		return names
	}
	return []string{typ}
}

// argsOf reads a connection field's page arguments as its resolver
// receives them.
func argsOf(ctx context.Context, f graphql.CollectedField) pageArgs {
	args := f.ArgumentMap(graphql.GetOperationContext(ctx).Variables)
	strArg := func(name string) *string {
		if v, ok := args[name].(string); ok {
			return &v
		}
		return nil
	}
	return pageArgs{first: intArg(args["first"]), after: strArg("after"), last: intArg(args["last"]), before: strArg("before")}
}

// prime reads keys with fetch, a loader's batch function, and primes l
// with the answers.
func prime[K comparable, V any](ctx context.Context, l *dataloadgen.Loader[K, V], keys []K, fetch func(context.Context, []K) ([]V, []error)) []V {
	if len(keys) == 0 {
		return nil
	}
	values, errs := fetch(ctx, keys)
	if len(errs) > 0 || len(values) != len(keys) {
		return nil
	}
	for i, k := range keys {
		l.Prime(k, values[i])
	}
	return values
}

// primePages reads, for every parent in ids, the page of a nested list
// that the connection field f asks for, and primes l.
func primePages[T any](ctx context.Context, l *dataloadgen.Loader[pageKey, *domain.Page[T]], f graphql.CollectedField, ids []int64,
	fetch func(context.Context, []int64, domain.PageRequest) ([]*domain.Page[T], error)) []*domain.Page[T] {
	w, err := newWindow(argsOf(ctx, f))
	if err != nil || w.toEnd {
		return nil
	}
	keys := make([]pageKey, len(ids))
	for i, id := range ids {
		keys[i] = pageKey{id: id, page: w.req}
	}
	return prime(ctx, l, keys, byPage(fetch))
}

// prefetchBoxes reads what the query asks of boxes, a page of the
// catalogue's boxes: their images, and their offers with the offers'
// partners. withPartners tells that the boxes were read with their
// offers' partners along (offerPartnersAlong): those prime the partner
// loader without reading.
func (r *Resolver) prefetchBoxes(ctx context.Context, boxes []*catalogue.BoxView, withPartners bool) {
	if len(boxes) == 0 {
		return
	}
	l := loadersFrom(ctx)
	ids := make([]int64, len(boxes))
	for i, b := range boxes {
		ids[i] = b.ID
	}
	box := []step{{"edges", "BoxConnection"}, {"node", "BoxEdge"}}
	if len(lookahead(ctx, nil, append(box, step{"images", "Box"})...)) > 0 {
		prime(ctx, l.boxImages, ids, byID(r.BoxCatalog.BoxImages))
	}
	for _, offers := range lookahead(ctx, nil, append(box, step{"offers", "Box"})...) {
		pages := primeOffersAlong(ctx, l.boxOffers, offers, boxes)
		if pages != nil && withPartners {
			for _, p := range pages {
				for _, o := range p.Items {
					l.partnerNames.Prime(o.PartnerID, o.Partner)
				}
			}
			continue
		}
		if pages == nil {
			pages = primePages(ctx, l.boxOffers, offers, ids, r.BoxCatalog.BoxOffers)
		}
		partnerFields := lookahead(ctx, offers.Selections, step{"edges", "BoxOfferConnection"}, step{"node", "BoxOfferEdge"}, step{"partner", "BoxOffer"})
		if len(pages) == 0 || len(partnerFields) == 0 {
			continue
		}
		seen := map[int64]bool{}
		var partners []int64
		for _, p := range pages {
			for _, o := range p.Items {
				if !seen[o.PartnerID] {
					seen[o.PartnerID] = true
					partners = append(partners, o.PartnerID)
				}
			}
		}
		// Each alias reads through the loader its own selection picks.
		primed := map[*dataloadgen.Loader[int64, *catalogue.PartnerListing]]bool{}
		for _, f := range partnerFields {
			pl := partnerLoader(ctx, f)
			if !primed[pl] {
				primed[pl] = true
				fetch := r.PartnerCatalog.PartnersByID
				if pl == l.partnerNames {
					fetch = r.PartnerCatalog.PartnerNamesByID
				}
				prime(ctx, pl, partners, byID(fetch))
			}
		}
	}
}

// partnerNameFields are the CataloguePartner fields a listing read without
// its profile answers.
var partnerNameFields = map[string]bool{"__typename": true, "id": true, "legacyId": true, "name": true, "labels": true}

// partnerLoader is the loader of the catalogue partner that field (a
// partner field: BoxOffer.partner, GiftcardPrototype.partner) reads: the
// one without profiles when its selection asks for nothing a profile
// holds, the one with them otherwise.
func partnerLoader(ctx context.Context, field graphql.CollectedField) *dataloadgen.Loader[int64, *catalogue.PartnerListing] {
	// Read from the field's own (merged) selections each time: fields of
	// different aliases may share one *ast.Field (a fragment used twice).
	l := loadersFrom(ctx)
	for _, f := range graphql.CollectFields(graphql.GetOperationContext(ctx), field.Selections, satisfies("CataloguePartner")) {
		if !partnerNameFields[f.Name] {
			return l.partners
		}
	}
	return l.partnerNames
}

// boxTexts are the descriptions the query asks of the boxes of the boxes
// connection being resolved.
func boxTexts(ctx context.Context) catalogue.BoxTexts {
	var texts catalogue.BoxTexts
	for _, f := range lookahead(ctx, nil, step{"edges", "BoxConnection"}, step{"node", "BoxEdge"}) {
		for _, g := range graphql.CollectFields(graphql.GetOperationContext(ctx), f.Selections, satisfies("Box")) {
			switch g.Name {
			case "shortDescription":
				texts |= catalogue.BoxShortDescription
			case "longDescription":
				texts |= catalogue.BoxLongDescription
			}
		}
	}
	return texts
}

// boxOffersAlong is the window of the boxes' offers the boxes connection
// being resolved should read along with its boxes (catalogue.BoxList.Offers):
// the one window every offers field of the query asks for, when there is
// one and it is known without reading first (not a window that ends at the
// end of a box's list). Nil otherwise: the offers are then read after the
// boxes, by the read-ahead or the loaders.
func boxOffersAlong(ctx context.Context) *domain.PageRequest {
	var along *domain.PageRequest
	for _, f := range lookahead(ctx, nil, step{"edges", "BoxConnection"}, step{"node", "BoxEdge"}, step{"offers", "Box"}) {
		w, err := newWindow(argsOf(ctx, f))
		if err != nil || w.toEnd || (along != nil && *along != w.req) {
			return nil
		}
		along = &w.req
	}
	return along
}

// offerPartnersAlong tells whether the boxes connection being resolved
// should read its offers' partners along with its boxes
// (catalogue.BoxList.OfferPartners): when the query asks for partners of
// the offers and every such field reads them without profile (the
// listing the boxes' statement reads).
func offerPartnersAlong(ctx context.Context) bool {
	names, asked := loadersFrom(ctx).partnerNames, false
	for _, offers := range lookahead(ctx, nil, step{"edges", "BoxConnection"}, step{"node", "BoxEdge"}, step{"offers", "Box"}) {
		for _, f := range lookahead(ctx, offers.Selections, step{"edges", "BoxOfferConnection"}, step{"node", "BoxOfferEdge"}, step{"partner", "BoxOffer"}) {
			if partnerLoader(ctx, f) != names {
				return false
			}
			asked = true
		}
	}
	return asked
}

// primeOffersAlong primes l with the offers the boxes were read with, when
// they are the window the offers field f asks for, and returns them; nil
// when they are not.
func primeOffersAlong(ctx context.Context, l *dataloadgen.Loader[pageKey, *domain.Page[*catalogue.BoxOffer]], f graphql.CollectedField,
	boxes []*catalogue.BoxView) []*domain.Page[*catalogue.BoxOffer] {
	w, err := newWindow(argsOf(ctx, f))
	if err != nil || w.toEnd {
		return nil
	}
	pages := make([]*domain.Page[*catalogue.BoxOffer], len(boxes))
	for i, b := range boxes {
		if b.Offers == nil || b.Offers.Request != w.req {
			return nil
		}
		pages[i] = b.Offers
	}
	for i, b := range boxes {
		l.Prime(pageKey{id: b.ID, page: w.req}, pages[i])
	}
	return pages
}
