package graph

// What the fast path (fastpath.go) answers: the catalogue's boxes, with the
// fields of the types below them that the read-ahead (prefetch.go) loads or
// that need nothing loaded. Each writer reads its value as gqlgen's
// generated field does, through the same resolver or method.

import (
	"github.com/99designs/gqlgen/graphql"

	"salesplatform/graph/model"
	"salesplatform/graph/scalar"
)

// fastRoots are the root fields the fast path answers, by "Type.field".
var fastRoots = map[string]fastRoot{
	"Query.boxes": func(x *fastExec, n *planField) {
		args, err := x.ec.field_Query_boxes_args(x.ctx, n.field.ArgumentMap(x.oc.Variables))
		if err != nil {
			x.fail(err)
			return
		}
		ctx := x.resolverContext(n, "Query", args)
		c, err := x.ec.Resolvers.Query().Boxes(ctx, args["orderBy"].([]*model.BoxOrder),
			args["first"].(*int), args["after"].(*string), args["last"].(*int), args["before"].(*string))
		if err != nil {
			x.fail(err)
			return
		}
		object(x, n, c)
	},
}

// fastTypes are the fields the fast path writes, by type and field.
var fastTypes = map[string]map[string]fastField{
	"BoxConnection": {
		"edges":      on(func(x *fastExec, n *planField, c *model.BoxConnection) { list(x, n, c.Edges) }),
		"pageInfo":   on(func(x *fastExec, n *planField, c *model.BoxConnection) { object(x, n, c.PageInfo) }),
		"totalCount": on(func(x *fastExec, n *planField, c *model.BoxConnection) { x.scalar(n, graphql.MarshalInt(c.TotalCount)) }),
	},
	"BoxEdge": {
		"cursor": on(func(x *fastExec, n *planField, e *model.BoxEdge) { x.scalar(n, graphql.MarshalString(e.Cursor)) }),
		"node":   on(func(x *fastExec, n *planField, e *model.BoxEdge) { object(x, n, e.Node) }),
	},
	"Box": {
		"id":               on(func(x *fastExec, n *planField, b *model.Box) { x.scalar(n, graphql.MarshalID(b.GlobalID())) }),
		"legacyId":         on(func(x *fastExec, n *planField, b *model.Box) { x.scalar(n, scalar.MarshalInt64ID(b.ID)) }),
		"name":             on(func(x *fastExec, n *planField, b *model.Box) { object(x, n, b.Name) }),
		"shortDescription": on(func(x *fastExec, n *planField, b *model.Box) { object(x, n, b.ShortDescription) }),
		"longDescription":  on(func(x *fastExec, n *planField, b *model.Box) { object(x, n, b.LongDescription) }),
		"isHighlight":      on(func(x *fastExec, n *planField, b *model.Box) { x.scalar(n, graphql.MarshalBoolean(b.IsHighlight)) }),
		"displayNbOffers":  on(func(x *fastExec, n *planField, b *model.Box) { x.scalar(n, graphql.MarshalBoolean(b.DisplayNbOffers)) }),
		"nbOffers":         on(func(x *fastExec, n *planField, b *model.Box) { x.scalar(n, graphql.MarshalInt(b.NbOffers)) }),
		"price":            on(func(x *fastExec, n *planField, b *model.Box) { object(x, n, b.Price) }),
		"ranking":          on(func(x *fastExec, n *planField, b *model.Box) { x.scalar(n, graphql.MarshalInt(b.Ranking)) }),
		"peopleIncluded":   on(func(x *fastExec, n *planField, b *model.Box) { x.scalar(n, graphql.MarshalInt(b.PeopleIncluded)) }),
		"maxNumberUsages":  on(func(x *fastExec, n *planField, b *model.Box) { x.scalar(n, graphql.MarshalInt(b.MaxNumberUsages)) }),
		"maxDaysAfterFirstUsage": on(func(x *fastExec, n *planField, b *model.Box) {
			x.scalar(n, graphql.MarshalInt(b.MaxDaysAfterFirstUsage))
		}),
		"universeIds": on(func(x *fastExec, n *planField, b *model.Box) { scalars(x, n, b.UniverseIDs, scalar.MarshalInt64ID) }),
		// Read ahead by the boxes' resolver (prefetchBoxes).
		"images": on(func(x *fastExec, n *planField, b *model.Box) {
			images, err := x.ec.Resolvers.Box().Images(x.resolverContext(n, "Box", nil), b)
			if err != nil {
				x.fail(err)
				return
			}
			scalars(x, n, images, graphql.MarshalString)
		}),
		"offers": {
			write: func(x *fastExec, n *planField, parent any) {
				args, err := x.ec.field_Box_offers_args(x.ctx, n.field.ArgumentMap(x.oc.Variables))
				if err != nil {
					x.fail(err)
					return
				}
				c, err := x.ec.Resolvers.Box().Offers(x.resolverContext(n, "Box", args), parent.(*model.Box),
					args["first"].(*int), args["after"].(*string), args["last"].(*int), args["before"].(*string))
				if err != nil {
					x.fail(err)
					return
				}
				object(x, n, c)
			},
			// Only the windows the read-ahead reads: one that ends at the
			// end of a box's offers is read by the loaders, with a wait.
			check: func(x *fastExec, f graphql.CollectedField) bool {
				w, err := newWindow(argsOf(x.ctx, f))
				return err == nil && !w.toEnd
			},
		},
	},
	"BoxOfferConnection": {
		"edges":    on(func(x *fastExec, n *planField, c *model.BoxOfferConnection) { list(x, n, c.Edges) }),
		"pageInfo": on(func(x *fastExec, n *planField, c *model.BoxOfferConnection) { object(x, n, c.PageInfo) }),
		"totalCount": on(func(x *fastExec, n *planField, c *model.BoxOfferConnection) {
			x.scalar(n, graphql.MarshalInt(c.TotalCount))
		}),
	},
	"BoxOfferEdge": {
		"cursor": on(func(x *fastExec, n *planField, e *model.BoxOfferEdge) { x.scalar(n, graphql.MarshalString(e.Cursor)) }),
		"node":   on(func(x *fastExec, n *planField, e *model.BoxOfferEdge) { object(x, n, e.Node) }),
	},
	"BoxOffer": {
		"id":        on(func(x *fastExec, n *planField, o *model.BoxOffer) { x.scalar(n, graphql.MarshalID(o.GlobalID())) }),
		"legacyId":  on(func(x *fastExec, n *planField, o *model.BoxOffer) { x.scalar(n, scalar.MarshalInt64ID(o.ID)) }),
		"partnerId": on(func(x *fastExec, n *planField, o *model.BoxOffer) { x.scalar(n, scalar.MarshalInt64ID(o.PartnerID)) }),
		// Read ahead by the boxes' resolver (prefetchBoxes).
		"partner": on(func(x *fastExec, n *planField, o *model.BoxOffer) {
			p, err := x.ec.Resolvers.BoxOffer().Partner(x.resolverContext(n, "BoxOffer", nil), o)
			if err != nil {
				x.fail(err)
				return
			}
			object(x, n, p)
		}),
	},
	"CataloguePartner": {
		"id":                    on(func(x *fastExec, n *planField, p *model.CataloguePartner) { x.scalar(n, graphql.MarshalID(p.GlobalID)) }),
		"legacyId":              on(func(x *fastExec, n *planField, p *model.CataloguePartner) { x.scalar(n, graphql.MarshalID(p.ID)) }),
		"name":                  on(func(x *fastExec, n *planField, p *model.CataloguePartner) { x.scalar(n, graphql.MarshalString(p.Name)) }),
		"description":           on(func(x *fastExec, n *planField, p *model.CataloguePartner) { object(x, n, p.Description) }),
		"managers":              on(func(x *fastExec, n *planField, p *model.CataloguePartner) { object(x, n, p.Managers) }),
		"nearby":                on(func(x *fastExec, n *planField, p *model.CataloguePartner) { object(x, n, p.Nearby) }),
		"practicalInformation":  on(func(x *fastExec, n *planField, p *model.CataloguePartner) { object(x, n, p.PracticalInformation) }),
		"access":                on(func(x *fastExec, n *planField, p *model.CataloguePartner) { object(x, n, p.Access) }),
		"commercialDescription": on(func(x *fastExec, n *planField, p *model.CataloguePartner) { object(x, n, p.CommercialDescription) }),
		"region": on(func(x *fastExec, n *planField, p *model.CataloguePartner) {
			x.scalar(n, graphql.MarshalString(p.Region))
		}),
		"department": on(func(x *fastExec, n *planField, p *model.CataloguePartner) {
			x.scalar(n, graphql.MarshalString(p.Department))
		}),
		"city":   on(func(x *fastExec, n *planField, p *model.CataloguePartner) { x.scalar(n, graphql.MarshalString(p.City)) }),
		"labels": on(func(x *fastExec, n *planField, p *model.CataloguePartner) { list(x, n, p.Labels) }),
	},
	"PartnerLabel": {
		"name": on(func(x *fastExec, n *planField, l *model.PartnerLabel) { x.scalar(n, graphql.MarshalString(l.Name)) }),
		"logo": on(func(x *fastExec, n *planField, l *model.PartnerLabel) { x.scalar(n, graphql.MarshalString(l.Logo)) }),
	},
	"PageInfo": {
		"hasNextPage": on(func(x *fastExec, n *planField, p *model.PageInfo) { x.scalar(n, graphql.MarshalBoolean(p.HasNextPage)) }),
		"hasPreviousPage": on(func(x *fastExec, n *planField, p *model.PageInfo) {
			x.scalar(n, graphql.MarshalBoolean(p.HasPreviousPage))
		}),
		"startCursor": on(func(x *fastExec, n *planField, p *model.PageInfo) { optionalString(x, n, p.StartCursor) }),
		"endCursor":   on(func(x *fastExec, n *planField, p *model.PageInfo) { optionalString(x, n, p.EndCursor) }),
	},
	"Money": {
		"amount":       on(func(x *fastExec, n *planField, m *model.Money) { x.scalar(n, scalar.MarshalDecimal(m.Amount)) }),
		"currencyCode": on(func(x *fastExec, n *planField, m *model.Money) { x.scalar(n, m.CurrencyCode()) }),
		"currency":     on(func(x *fastExec, n *planField, m *model.Money) { x.scalar(n, graphql.MarshalString(m.Currency)) }),
		"formatted":    on(func(x *fastExec, n *planField, m *model.Money) { object(x, n, m.Formatted()) }),
	},
	"Localized": {
		"fr": on(func(x *fastExec, n *planField, l *model.Localized) { optionalString(x, n, l.Fr()) }),
		"en": on(func(x *fastExec, n *planField, l *model.Localized) { optionalString(x, n, l.En()) }),
		"es": on(func(x *fastExec, n *planField, l *model.Localized) { optionalString(x, n, l.Es()) }),
		"it": on(func(x *fastExec, n *planField, l *model.Localized) { optionalString(x, n, l.It()) }),
		"de": on(func(x *fastExec, n *planField, l *model.Localized) { optionalString(x, n, l.De()) }),
		"nl": on(func(x *fastExec, n *planField, l *model.Localized) { optionalString(x, n, l.Nl()) }),
		"ca": on(func(x *fastExec, n *planField, l *model.Localized) { optionalString(x, n, l.Ca()) }),
		"pt": on(func(x *fastExec, n *planField, l *model.Localized) { optionalString(x, n, l.Pt()) }),
	},
}

// optionalString writes a nullable String.
func optionalString(x *fastExec, n *planField, s *string) {
	if s == nil {
		x.null(n)
		return
	}
	x.scalar(n, graphql.MarshalString(*s))
}
