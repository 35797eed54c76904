package graph

import (
	"strconv"
	"strings"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
)

// partnerQuery reads the partners' ids filter: nil is none, an empty list
// selects no partner. An id that is not a number is refused as REST
// refuses it, answered once the caller is known (the schema takes ids as
// text).
func partnerQuery(ids []string) catalogue.PartnerQuery {
	var q catalogue.PartnerQuery
	if ids == nil {
		return q
	}
	q.IDs = []int64{}
	for _, id := range ids {
		key := strings.TrimSpace(filterKey("CataloguePartner", id))
		if key == "" {
			continue
		}
		n, err := strconv.ParseInt(key, 10, 64)
		if err != nil {
			q.Refuse(domain.VInvalid, catalogue.MsgPartnerIDInvalid, "id")
			q.IDs = nil
			break
		}
		q.IDs = append(q.IDs, n)
	}
	return q
}
