package rest

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"salesplatform/domain/vouchers"
)

// jsonGiftcard is the giftcard record; expires_on is null when the
// giftcard does not expire.
type jsonGiftcard struct {
	ID              int64      `json:"id"`
	Code            string     `json:"code"`
	Status          string     `json:"status"`
	CreatedOn       time.Time  `json:"created_on"`
	ExpiresOn       *time.Time `json:"expires_on"`
	Value           string     `json:"value"`
	RemainingValue  string     `json:"remaining_value"`
	GifterFirstName string     `json:"gifter_first_name"`
	GifterLastName  string     `json:"gifter_last_name"`
}

func toJSONGiftcard(g *vouchers.AdminGiftcard) jsonGiftcard {
	loc := g.Location()
	return jsonGiftcard{ID: g.ID, Code: g.Code, Status: g.Status, CreatedOn: g.CreatedOn.In(loc),
		ExpiresOn: jsonTimeIn(g.ExpiresOn, loc), Value: g.Value.StringFixed(2),
		RemainingValue: g.RemainingValue.StringFixed(2), GifterFirstName: g.GifterFirstName, GifterLastName: g.GifterLastName}
}

// handleGiftcardList is GET /api/giftcards/: a Page of giftcards.
func (a *api) handleGiftcardList(w http.ResponseWriter, r *http.Request) {
	page, err := pageRequest(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	q := r.URL.Query()
	gs, err := a.VoucherAdmin.Giftcards(r.Context(), vouchers.GiftcardListInput{CreatedOnGte: q.Get("created_on__gte"),
		CreatedOnLte: q.Get("created_on__lte"), CreatedOnRange: q.Get("created_on__range"), Ordering: q.Get("ordering")}, page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toAdminPage(r, gs, toJSONGiftcard))
}

// handleGiftcardGet is GET /api/giftcards/{id}/; an id that is not a
// positive integer names no giftcard.
func (a *api) handleGiftcardGet(w http.ResponseWriter, r *http.Request) {
	id, perr := strconv.ParseInt(mux.Vars(r)["id"], 10, 64)
	if perr != nil || id <= 0 {
		id = 0
	}
	g, err := a.VoucherAdmin.Giftcard(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONGiftcard(g))
}

// handleGiftcardByCode is GET /api/giftcards_by_code/{code}/.
func (a *api) handleGiftcardByCode(w http.ResponseWriter, r *http.Request) {
	g, err := a.VoucherAdmin.GiftcardByCode(r.Context(), mux.Vars(r)["code"])
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONGiftcard(g))
}
