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
	return &model.User{ID: strconv.FormatInt(u.ID, 10), UUID: u.UUID, Username: u.Username, Email: u.Email,
		FirstName: u.FirstName, LastName: u.LastName, IsStaff: u.IsStaff}
}

func toGraphPartner(p *domain.Partner) *model.Partner {
	if p == nil {
		return nil
	}
	gp := &model.Partner{ID: strconv.FormatInt(p.ID, 10), UUID: p.UUID, Name: p.Name,
		IsMarketplace: p.IsMarketplace, Status: p.Status}
	if p.SiteDomain != "" {
		gp.SiteDomain = &p.SiteDomain
	}
	return gp
}

// Partner references in inputs. One way names a partner: partnerId, an ID
// that takes the Partner's global id (Partner.id, viewer.partner.id). The
// numeric record id the catalogue's partnerId took before global ids is
// still read there (deprecated), and the inputs that had partnerUuid keep
// it, deprecated. A global id of another type names no partner: NOT_FOUND,
// as the lookups answer it.

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
	case typ != "Partner":
		return nil, domain.ErrNotFound
	}
	p, err := r.Accounts.AdminPartner(ctx, mustUUID(key))
	if err != nil {
		return nil, err
	}
	return &p.ID, nil
}

// partnerUUID reads a partnerId for the services that name partners by
// UUID (media, voucher prototypes and options), or, when it is omitted,
// the deprecated partnerUuid. The service checks that the caller may name
// the partner, as it checks partnerUuid.
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
