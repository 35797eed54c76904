package rest

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"salesplatform/domain"
	"salesplatform/domain/network"
	"salesplatform/rest/drf"
)

// The administration API's network giftcards.
func registerNetworkGiftcardRoutes(r *mux.Router, a *api) {
	handleWithToken(r, "/api/networkgiftcards/", idempotent(a.handleNetworkGiftcardCreate), http.MethodPost)
	handleWithToken(r, "/api/networkgiftcards/{code}/", a.handleNetworkGiftcardDeprecated, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/networkgiftcards_by_code/{code}/", a.handleNetworkGiftcardByCode, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/networkgiftcards_by_email/{email}/", a.handleNetworkGiftcardsByEmail, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/networkgiftcards_by_code/{code}/usages/", a.handleNetworkGiftcardUsages, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/networkgiftcards_by_code/{code}/use/", idempotent(a.handleNetworkGiftcardUse(false)), http.MethodPost)
	handleWithToken(r, "/api/networkgiftcards_by_code/{code}/use_with_service_id/", idempotent(a.handleNetworkGiftcardUse(true)), http.MethodPost)
	handleWithToken(r, "/api/networkgiftcard_usages/{id}/cancel/", idempotent(a.handleNetworkGiftcardUsageCancel), http.MethodPost)
	// This service's: holds, staff adjustments and the ledger.
	handleWithToken(r, "/api/networkgiftcards_by_code/{code}/holds/", idempotent(a.handleNetworkGiftcardHoldCreate), http.MethodPost)
	handleWithToken(r, "/api/networkgiftcards_by_code/{code}/holds/", a.handleNetworkGiftcardHolds, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/networkgiftcards_by_code/{code}/holds/{reservation:.+}/capture/", idempotent(a.handleNetworkGiftcardCapture), http.MethodPost)
	handleWithToken(r, "/api/networkgiftcards_by_code/{code}/holds/{reservation:.+}/release/", idempotent(a.handleNetworkGiftcardRelease), http.MethodPost)
	handleWithToken(r, "/api/networkgiftcards_by_code/{code}/adjust/", idempotent(a.handleNetworkGiftcardAdjust), http.MethodPost)
	handleWithToken(r, "/api/networkgiftcards_by_code/{code}/movements/", a.handleNetworkGiftcardMovements, http.MethodGet, http.MethodHead)
}

// jsonNetworkGiftcard is the full record.
type jsonNetworkGiftcard struct {
	ID              int64             `json:"id"`
	Code            string            `json:"code"`
	Status          string            `json:"status"`
	Value           json.Number       `json:"value"`
	RemainingValue  json.Number       `json:"remaining_value"`
	CreationDate    time.Time         `json:"creation_date"`
	ActivationDate  *time.Time        `json:"activation_date"`
	ExpirationDate  *time.Time        `json:"expiration_date"`
	IsActive        bool              `json:"is_active"`
	IsSplittable    bool              `json:"is_splittable"`
	Gifter          network.Customer  `json:"gifter"`
	Giftee          *network.Customer `json:"giftee"`
	FromGifter      string            `json:"from_gifter"`
	MarketplaceUUID string            `json:"marketplace_uuid"`
}

func toJSONNetworkGiftcard(g *network.Giftcard) jsonNetworkGiftcard {
	loc := g.Location()
	return jsonNetworkGiftcard{ID: g.ID, Code: g.Code, Status: g.Status, Value: jsonMoneyNumber(g.Value),
		RemainingValue: jsonMoneyNumber(g.RemainingValue), CreationDate: g.CreationDate.In(loc),
		ActivationDate: jsonTimeIn(g.ActivationDate, loc), ExpirationDate: jsonTimeIn(g.ExpirationDate, loc),
		IsActive: g.IsActive, IsSplittable: g.IsSplittable, Gifter: g.Gifter, Giftee: g.Giftee,
		FromGifter: g.FromGifter, MarketplaceUUID: g.MarketplaceUUID.String()}
}

// jsonNetworkGiftcardByCode is the by-code and by-email record.
type jsonNetworkGiftcardByCode struct {
	ID                int64       `json:"id"`
	UUID              string      `json:"uuid"`
	Code              string      `json:"code"`
	Status            string      `json:"status"`
	CreationDate      time.Time   `json:"creation_date"`
	ExpirationDate    *time.Time  `json:"expiration_date"`
	Value             json.Number `json:"value"`
	RemainingValue    json.Number `json:"remaining_value"`
	OrderUUID         *string     `json:"order_uuid"`
	OrderCreationDate *time.Time  `json:"order_creation_date"`
	Description       string      `json:"description"`
	ShortDescription  string      `json:"short_description"`
	Theme             string      `json:"theme"`
}

func toJSONNetworkGiftcardByCode(g *network.Giftcard) jsonNetworkGiftcardByCode {
	loc := g.Location()
	out := jsonNetworkGiftcardByCode{ID: g.ID, UUID: g.UUID.String(), Code: g.Code, Status: g.Status,
		CreationDate: g.CreationDate.In(loc), ExpirationDate: jsonTimeIn(g.ExpirationDate, loc),
		Value: jsonMoneyNumber(g.Value), RemainingValue: jsonMoneyNumber(g.RemainingValue),
		OrderCreationDate: jsonTimeIn(g.OrderCreationDate, loc), Description: g.Description,
		ShortDescription: g.ShortDescription, Theme: g.Theme}
	if g.OrderUUID != nil {
		s := g.OrderUUID.String()
		out.OrderUUID = &s
	}
	return out
}

// jsonNetworkGiftcardUsage is the usage; partner_source_id is null
// when the partner has no numeric source id in the card's marketplace's
// network.
type jsonNetworkGiftcardUsage struct {
	ID               int64       `json:"id"`
	NetworkGiftcard  int64       `json:"network_giftcard"`
	Partner          int64       `json:"partner"`
	Value            json.Number `json:"value"`
	IsActive         bool        `json:"is_active"`
	Comment          string      `json:"comment"`
	ReservationID    string      `json:"reservation_id"`
	PartnerSourceID  *int64      `json:"partner_source_id"`
	FreezePayoutDate *time.Time  `json:"freeze_payout_date"`
}

func toJSONNetworkGiftcardUsage(u *network.Usage) jsonNetworkGiftcardUsage {
	out := jsonNetworkGiftcardUsage{ID: u.ID, NetworkGiftcard: u.CardID, Partner: u.PartnerID,
		Value: jsonMoneyNumber(u.Value), IsActive: u.IsActive, Comment: u.Comment, ReservationID: u.ReservationID,
		FreezePayoutDate: jsonTimeIn(u.FreezePayoutDate, u.Location()), PartnerSourceID: sourceIDNumber(u.PartnerSourceID)}
	return out
}

// handleNetworkGiftcardCreate is POST /api/networkgiftcards/: 201 and the
// full record.
func (a *api) handleNetworkGiftcardCreate(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	g, err := a.NetworkGiftcards.CreateGiftcard(r.Context(), decodeGiftcardInput(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, toJSONNetworkGiftcard(g))
}

// deprecatedFindByCode is when the find by code by its old path was
// deprecated, as RFC 9745's Deprecation header writes a date: this
// service's first day.
const deprecatedFindByCode = "@1795478400" // 2026-11-24T00:00:00Z

// handleNetworkGiftcardDeprecated is GET /api/networkgiftcards/{code}/,
// the deprecated find by code: the full record, and headers naming its
// successor (RFC 9745's Deprecation, RFC 8288's Link).
func (a *api) handleNetworkGiftcardDeprecated(w http.ResponseWriter, r *http.Request) {
	code := mux.Vars(r)["code"]
	w.Header().Set("Deprecation", deprecatedFindByCode)
	w.Header().Set("Link", `</api/networkgiftcards_by_code/`+url.PathEscape(code)+`/>; rel="successor-version"`)
	g, err := a.NetworkGiftcards.GiftcardByCode(r.Context(), code)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONNetworkGiftcard(g))
}

// handleNetworkGiftcardByCode is GET /api/networkgiftcards_by_code/{code}/.
func (a *api) handleNetworkGiftcardByCode(w http.ResponseWriter, r *http.Request) {
	g, err := a.NetworkGiftcards.GiftcardByCode(r.Context(), mux.Vars(r)["code"])
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONNetworkGiftcardByCode(g))
}

// handleNetworkGiftcardsByEmail is GET
// /api/networkgiftcards_by_email/{email}/: an array of by-code records,
// paged as the other plain arrays (page, page_size; X-Total-Count).
func (a *api) handleNetworkGiftcardsByEmail(w http.ResponseWriter, r *http.Request) {
	req, err := arrayPage(r)
	if err == nil {
		var page *domain.Page[*network.Giftcard]
		if page, err = a.NetworkGiftcards.GiftcardsByEmail(r.Context(), mux.Vars(r)["email"], req); err == nil {
			writeArrayPage(w, r, page, toJSONNetworkGiftcardByCode)
			return
		}
	}
	writeError(w, r, err)
}

// handleNetworkGiftcardUsages is GET
// /api/networkgiftcards_by_code/{code}/usages/: an array of usages, paged
// as the other plain arrays.
func (a *api) handleNetworkGiftcardUsages(w http.ResponseWriter, r *http.Request) {
	req, err := arrayPage(r)
	if err == nil {
		var page *domain.Page[*network.Usage]
		if page, err = a.NetworkGiftcards.Usages(r.Context(), mux.Vars(r)["code"], req); err == nil {
			writeArrayPage(w, r, page, toJSONNetworkGiftcardUsage)
			return
		}
	}
	writeError(w, r, err)
}

// handleNetworkGiftcardUse is POST /api/networkgiftcards_by_code/{code}/use/
// (the partner by partner_source_id) and .../use_with_service_id/ (by
// partner_id, byID): 200 and the usage.
func (a *api) handleNetworkGiftcardUse(byID bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		doc, ok := decodeDoc(w, r)
		if !ok {
			return
		}
		u, err := a.NetworkGiftcards.Use(r.Context(), decodeUseInput(mux.Vars(r)["code"], doc, byID))
		if err != nil {
			writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, toJSONNetworkGiftcardUsage(u))
	}
}

// handleNetworkGiftcardUsageCancel is POST
// /api/networkgiftcard_usages/{id}/cancel/ with an optional comment: 200
// and the usage.
func (a *api) handleNetworkGiftcardUsageCancel(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeOptionalDoc(w, r)
	if !ok {
		return
	}
	u, err := a.NetworkGiftcards.CancelUsage(r.Context(), decodeCancelUsageInput(pathID(r), doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONNetworkGiftcardUsage(u))
}

// decodeOptionalDoc is decodeDoc for a body that may be left out: without
// one, no content type is needed (as DRF, which parses a body only when
// there is one).
func decodeOptionalDoc(w http.ResponseWriter, r *http.Request) (drf.Object, bool) {
	if r.ContentLength == 0 && r.Header.Get("Content-Type") == "" {
		return drf.Object{}, true
	}
	return decodeDoc(w, r)
}

// jsonNetworkGiftcardHold is a hold on a card.
type jsonNetworkGiftcardHold struct {
	ID              int64       `json:"id"`
	NetworkGiftcard int64       `json:"network_giftcard"`
	Partner         int64       `json:"partner"`
	PartnerSourceID *int64      `json:"partner_source_id"`
	ReservationID   string      `json:"reservation_id"`
	Amount          json.Number `json:"amount"`
	Status          string      `json:"status"`
	ExpiresAt       time.Time   `json:"expires_at"`
	CreatedAt       time.Time   `json:"created_at"`
	EndedAt         *time.Time  `json:"ended_at"`
	Usage           *int64      `json:"usage"`
}

func toJSONNetworkGiftcardHold(h *network.Hold) jsonNetworkGiftcardHold {
	loc := h.Location()
	return jsonNetworkGiftcardHold{ID: h.ID, NetworkGiftcard: h.CardID, Partner: h.PartnerID,
		PartnerSourceID: sourceIDNumber(h.PartnerSourceID), ReservationID: h.ReservationID,
		Amount: jsonMoneyNumber(h.Amount), Status: h.Status, ExpiresAt: h.ExpiresAt.In(loc),
		CreatedAt: h.CreatedAt.In(loc), EndedAt: jsonTimeIn(h.EndedAt, loc), Usage: h.UsageID}
}

// sourceIDNumber is a partner's source id as the integer the API shows,
// nil when it has none.
func sourceIDNumber(s string) *int64 {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return &n
	}
	return nil
}

// jsonNetworkGiftcardMovement is a movement of a card's ledger.
type jsonNetworkGiftcardMovement struct {
	ID              int64       `json:"id"`
	NetworkGiftcard int64       `json:"network_giftcard"`
	Kind            string      `json:"kind"`
	Amount          json.Number `json:"amount"`
	BalanceAfter    json.Number `json:"balance_after"`
	Usage           *int64      `json:"usage"`
	Hold            *int64      `json:"hold"`
	Partner         *int64      `json:"partner"`
	Actor           *int64      `json:"actor"`
	ReservationID   string      `json:"reservation_id"`
	Comment         string      `json:"comment"`
	Payout          *int64      `json:"payout"`
	CreatedAt       time.Time   `json:"created_at"`
}

func toJSONNetworkGiftcardMovement(m *network.Movement) jsonNetworkGiftcardMovement {
	return jsonNetworkGiftcardMovement{ID: m.ID, NetworkGiftcard: m.CardID, Kind: m.Kind, Amount: jsonMoneyNumber(m.Amount),
		BalanceAfter: jsonMoneyNumber(m.BalanceAfter), Usage: m.UsageID, Hold: m.HoldID, Partner: m.PartnerID,
		Actor: m.ActorID, ReservationID: m.ReservationID, Comment: m.Comment, Payout: m.PayoutID, CreatedAt: m.CreatedAt}
}

// handleNetworkGiftcardHoldCreate is POST
// /api/networkgiftcards_by_code/{code}/holds/: 201 and the hold.
func (a *api) handleNetworkGiftcardHoldCreate(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	h, err := a.NetworkGiftcards.Hold(r.Context(), decodeHoldInput(mux.Vars(r)["code"], doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, toJSONNetworkGiftcardHold(h))
}

// handleNetworkGiftcardHolds is GET
// /api/networkgiftcards_by_code/{code}/holds/: an array, newest first.
func (a *api) handleNetworkGiftcardHolds(w http.ResponseWriter, r *http.Request) {
	req, err := arrayPage(r)
	if err == nil {
		var page *domain.Page[*network.Hold]
		if page, err = a.NetworkGiftcards.Holds(r.Context(), mux.Vars(r)["code"], req); err == nil {
			writeArrayPage(w, r, page, toJSONNetworkGiftcardHold)
			return
		}
	}
	writeError(w, r, err)
}

// handleNetworkGiftcardCapture is POST
// /api/networkgiftcards_by_code/{code}/holds/{reservation}/capture/: 200
// and the usage the hold became.
func (a *api) handleNetworkGiftcardCapture(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeOptionalDoc(w, r)
	if !ok {
		return
	}
	vars := mux.Vars(r)
	u, err := a.NetworkGiftcards.Capture(r.Context(), decodeCaptureInput(vars["code"], vars["reservation"], doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONNetworkGiftcardUsage(u))
}

// handleNetworkGiftcardRelease is POST
// /api/networkgiftcards_by_code/{code}/holds/{reservation}/release/: 200
// and the hold.
func (a *api) handleNetworkGiftcardRelease(w http.ResponseWriter, r *http.Request) {
	if _, ok := decodeOptionalDoc(w, r); !ok {
		return
	}
	vars := mux.Vars(r)
	h, err := a.NetworkGiftcards.Release(r.Context(), vars["code"], vars["reservation"])
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONNetworkGiftcardHold(h))
}

// handleNetworkGiftcardAdjust is POST
// /api/networkgiftcards_by_code/{code}/adjust/, staff only: 201 and the
// ledger movement.
func (a *api) handleNetworkGiftcardAdjust(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	m, err := a.NetworkGiftcards.Adjust(r.Context(), decodeAdjustInput(mux.Vars(r)["code"], doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, toJSONNetworkGiftcardMovement(m))
}

// handleNetworkGiftcardMovements is GET
// /api/networkgiftcards_by_code/{code}/movements/: the ledger, oldest
// first, as an array.
func (a *api) handleNetworkGiftcardMovements(w http.ResponseWriter, r *http.Request) {
	req, err := arrayPage(r)
	if err == nil {
		var page *domain.Page[*network.Movement]
		if page, err = a.NetworkGiftcards.Movements(r.Context(), mux.Vars(r)["code"], req); err == nil {
			writeArrayPage(w, r, page, toJSONNetworkGiftcardMovement)
			return
		}
	}
	writeError(w, r, err)
}
