package catalogue

import (
	"context"
	"fmt"

	"salesplatform/domain"
)

// NetworkChange puts a partner in a marketplace's network or takes it out.
type NetworkChange struct {
	// MarketplaceID names the marketplace, for staff; a marketplace caller
	// changes its own network.
	MarketplaceID *int64
	PartnerID     int64
	Remove        bool
}

// ChangeNetwork adds a partner to the network of the caller's marketplace
// (staff: of in.MarketplaceID) or removes it, and returns the network's
// partner ids, ascending. Adding a partner already in it, or removing one
// that is not, changes nothing.
// Errors: those of marketplacePartner; CodeInvalid on "networkPartnerId"
// for an unknown partner or the marketplace itself.
func (s *PartnerCatalogService) ChangeNetwork(ctx context.Context, in NetworkChange) ([]int64, error) {
	m, err := marketplacePartner(ctx, s.partners, in.MarketplaceID)
	if err != nil {
		return nil, err
	}
	var v domain.Validator
	switch _, err := s.partners.FindPartnerByID(ctx, in.PartnerID); {
	case domain.IsCode(err, domain.CodeNotFound):
		v.Add(domain.VNotFound, fmt.Sprintf(MsgNoSuchRecord, in.PartnerID), "networkPartnerId")
	case err != nil:
		return nil, err
	case in.PartnerID == m.ID:
		v.Add(domain.VInvalid, "A marketplace is not a partner of its own network.", "networkPartnerId")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if in.Remove {
		err = s.store.RemoveNetworkPartner(ctx, m.ID, in.PartnerID)
	} else {
		err = s.store.AddNetworkPartner(ctx, m.ID, in.PartnerID)
	}
	if err != nil {
		return nil, err
	}
	return s.store.FindNetworkPartnerIDs(ctx, m.ID)
}
