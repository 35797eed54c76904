package rest

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/mux"

	"salesplatform/domain"
	"salesplatform/domain/payments"
)

// The payment hub's wallets: this service's reads (the contract shows the
// wallet movement record, not the operation that returns it).
func registerPaymentWalletRoutes(r *mux.Router, a *api) {
	handleWithToken(r, "/api/payment_hub/wallets/{wallet_uuid}/", a.handleWallet, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/payment_hub/wallets/{wallet_uuid}/movements/", a.handleWalletMovements, http.MethodGet, http.MethodHead)
}

// jsonWallet is a wallet: its kind says whose value it holds.
type jsonWallet struct {
	UUID            string      `json:"uuid"`
	Kind            string      `json:"kind"`
	Currency        string      `json:"currency"`
	Balance         json.Number `json:"balance"`
	Partner         *int64      `json:"partner"`
	PartnerUUID     *string     `json:"partner_uuid"`
	NetworkGiftcard *int64      `json:"network_giftcard"`
	CreatedOn       *time.Time  `json:"created_on"`
}

func toJSONWallet(w *payments.WalletRecord) jsonWallet {
	out := jsonWallet{UUID: w.UUID.String(), Kind: w.Kind, Currency: w.Currency, Balance: jsonMoneyNumber(w.Balance),
		Partner: w.PartnerID}
	if w.PartnerUUID != nil {
		s := w.PartnerUUID.String()
		out.PartnerUUID = &s
	}
	if w.Card != nil {
		out.NetworkGiftcard = &w.Card.ID
	}
	if !w.CreatedAt.IsZero() { // a card's wallet is opened by its first movement
		t := w.CreatedAt.UTC()
		out.CreatedOn = &t
	}
	return out
}

// jsonWalletMovement is the contract's wallet movement record.
type jsonWalletMovement struct {
	CreatedOn          time.Time   `json:"created_on"`
	Amount             json.Number `json:"amount"`
	Currency           string      `json:"currency"`
	Status             string      `json:"status"`
	Type               string      `json:"type"`
	PaymentUUID        *uuid.UUID  `json:"payment_uuid"`
	DebitedWalletUUID  uuid.UUID   `json:"debited_wallet_uuid"`
	CreditedWalletUUID uuid.UUID   `json:"credited_wallet_uuid"`
}

func toJSONWalletMovement(m *payments.Movement) jsonWalletMovement {
	return jsonWalletMovement{CreatedOn: m.CreatedOn.UTC(), Amount: jsonMoneyNumber(m.Amount), Currency: m.Currency,
		Status: m.Status, Type: m.Type, PaymentUUID: m.PaymentUUID, DebitedWalletUUID: m.Debited, CreditedWalletUUID: m.Credited}
}

// walletUUID reads the path's wallet uuid: anything else names no wallet.
func walletUUID(r *http.Request) (uuid.UUID, error) {
	id, err := uuid.Parse(mux.Vars(r)["wallet_uuid"])
	if err != nil {
		return uuid.Nil, domain.ErrNotFound
	}
	return id, nil
}

// handleWallet is GET /api/payment_hub/wallets/{wallet_uuid}/.
func (a *api) handleWallet(w http.ResponseWriter, r *http.Request) {
	id, err := walletUUID(r)
	if err == nil {
		var wallet *payments.WalletRecord
		if wallet, err = a.Wallets.Wallet(r.Context(), id); err == nil {
			writeJSON(w, http.StatusOK, toJSONWallet(wallet))
			return
		}
	}
	writeError(w, r, err)
}

// handleWalletMovements is GET
// /api/payment_hub/wallets/{wallet_uuid}/movements/: a Page, oldest first.
func (a *api) handleWalletMovements(w http.ResponseWriter, r *http.Request) {
	id, err := walletUUID(r)
	var req domain.PageRequest
	if err == nil {
		req, err = pageRequest(r)
	}
	if err == nil {
		var page *domain.Page[*payments.Movement]
		if page, err = a.Wallets.Movements(r.Context(), id, req); err == nil {
			writeJSON(w, http.StatusOK, toAdminPage(r, page, toJSONWalletMovement))
			return
		}
	}
	writeError(w, r, err)
}
