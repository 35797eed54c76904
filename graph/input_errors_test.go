package graph

import "testing"

// A service's field name finds the input field it stands for.
func TestMatchName(t *testing.T) {
	fields := []string{"maxCapacity", "universeId", "imageIds", "prototypeIds", "name", "returnUrl", "services", "items", "partnerId", "partnerUuid"}
	for seg, want := range map[string]string{
		"maxCapacity":        "maxCapacity", // the input's own name
		"max_capacity":       "maxCapacity", // REST's snake_case
		"universe":           "universeId",  // a REST relation is the input's id
		"images":             "imageIds",    // a REST list of relations is the input's ids
		"voucher_prototypes": "prototypeIds",
		"name_fr":            "name", // a REST per-language text is the input's list of texts
		"return_url":         "returnUrl",
		"services_info":      "services",
		"partner_uuid":       "partnerUuid",
		"partner":            "partnerId",
		"nothing":            "",
	} {
		if got := matchName(seg, fields); got != want {
			t.Errorf("matchName(%q) = %q, want %q", seg, got, want)
		}
	}
}
