package graph

import (
	"context"
	"strconv"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/graph/model"
)

func toGraphUser(u *domain.User) *model.User {
	return &model.User{ID: strconv.FormatInt(u.ID, 10), GlobalID: numericGlobalID("User", u.ID), UUID: u.UUID, Username: u.Username, Email: u.Email,
		FirstName: u.FirstName, LastName: u.LastName, IsStaff: u.IsStaff}
}

func toGraphPartner(p *domain.Partner) *model.Partner {
	if p == nil {
		return nil
	}
	gp := &model.Partner{ID: strconv.FormatInt(p.ID, 10), GlobalID: globalID("Partner", p.UUID.String()), UUID: p.UUID, Name: p.Name,
		IsMarketplace: p.IsMarketplace, Status: p.Status}
	if p.SiteDomain != "" {
		gp.SiteDomain = &p.SiteDomain
	}
	return gp
}

// Partner references in inputs. One way names a partner: partnerId, an ID
// that takes the Partner's global id (Partner.id, viewer.partner.id) or its
// CataloguePartner's (the same partner's public face), or the partner's
// numeric record id, which the outputs' partnerId fields answer and the
// catalogue's partnerId took before global ids (deprecated). The inputs
// that had partnerUuid keep it, deprecated. A global id of another type
// names no partner: NOT_FOUND, as the lookups answer it.

// partnerRecordID reads a partnerId for the services that name partners
// by record id (the catalogue's): a Partner's global id is read as
// partner(id:) reads it; the deprecated record id goes to the service as
// it always has, which decides whether the caller may name it.
// Errors: NOT_FOUND for a partner the caller does not see, a global id of
// another type, or a string that is neither (as record ids always were).
func (r *Resolver) partnerRecordID(ctx context.Context, ref *string) (*int64, error) {
	if ref == nil {
		return nil, nil
	}
	typ, key, ok := decodeGlobalID(*ref)
	switch {
	case !ok:
		n, err := parseID(*ref)
		return &n, err
	case typ == "CataloguePartner":
		n, err := parseID(key)
		return &n, err
	case typ != "Partner":
		return nil, domain.ErrNotFound
	}
	p, err := r.Accounts.AdminPartner(ctx, mustUUID(key))
	if err != nil {
		return nil, err
	}
	return &p.ID, nil
}

// partnerRef reads a partnerId for the services that name partners by
// UUID (media, voucher prototypes and options), or, when it is omitted,
// the deprecated partnerUuid. A Partner's global id carries the UUID, and
// the service checks that the caller may name it, as it checks
// partnerUuid; a CataloguePartner's or a record id is looked up as
// adminPartner reads it.
// Errors: NOT_FOUND for a partner the caller does not see or a global id
// of another type.
func (r *Resolver) partnerRef(ctx context.Context, o graphql.Omittable[*string], deprecated *uuid.UUID) (*uuid.UUID, error) {
	ref := opt(o)
	if ref == nil {
		return deprecated, nil
	}
	if typ, _, ok := decodeGlobalID(*ref); ok && typ == "Partner" {
		return partnerUUID(o, nil)
	}
	id, err := r.partnerRecordID(ctx, ref)
	if err != nil {
		return nil, err
	}
	ps, err := r.Accounts.AdminPartnersByID(ctx, []int64{*id})
	if err != nil {
		return nil, err
	}
	if ps[0] == nil {
		return nil, domain.ErrNotFound
	}
	return &ps[0].UUID, nil
}

// partnerUUID reads a partnerId that takes only a Partner's global id
// (createContactRequest, open to anonymous callers, who can look up no
// partner), or, when it is omitted, the deprecated UUID.
// Errors: BAD_USER_INPUT on partnerId for a string that is not a global
// id; NOT_FOUND for a global id of another type.
func partnerUUID(o graphql.Omittable[*string], deprecated *uuid.UUID) (*uuid.UUID, error) {
	ref := opt(o)
	if ref == nil {
		return deprecated, nil
	}
	key, err := globalKey("partnerId", "Partner", *ref)
	if err != nil {
		return nil, err
	}
	id := mustUUID(key)
	return &id, nil
}

// partnerErrors reports the service's errors on key, the partner field of
// its REST body, under the input field that names the partner: the
// deprecated one (deprecatedName) when the client named it so, else
// partnerId.
func partnerErrors[T any](err error, key string, partnerID graphql.Omittable[*string], deprecated graphql.Omittable[*T], deprecatedName string) error {
	if opt(partnerID) == nil && opt(deprecated) != nil {
		return renameArgument(err, key, deprecatedName)
	}
	return renameArgument(err, key, "partnerId")
}
