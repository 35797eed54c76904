package graph

import (
	"strconv"

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
