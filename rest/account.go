package rest

import (
	"net/http"

	"github.com/gorilla/mux"

	"salesplatform/domain/account"
	"salesplatform/rest/drf"
)

// registerAccountRoutes adds the token login and the caller's permissions.
func registerAccountRoutes(r *mux.Router, a *api) {
	handle(r, "/api-token-auth/", a.handleTokenCreate, http.MethodPost)
	handleWithToken(r, "/api/permissions/", a.handlePermissions, http.MethodGet, http.MethodHead)
}

type jsonTokenUser struct {
	ID        int64  `json:"id"`
	FirstName string `json:"first_name"`
	Username  string `json:"username"`
	Email     string `json:"email"`
}

type jsonToken struct {
	Token string        `json:"token"`
	UUID  string        `json:"uuid"`
	User  jsonTokenUser `json:"user"`
}

// handleTokenCreate is POST /api-token-auth/: a username and password, as
// JSON or a form, for an API token.
func (a *api) handleTokenCreate(w http.ResponseWriter, r *http.Request) {
	body, ok := decodeFlat(w, r)
	if !ok {
		return
	}
	var in account.LoginInput
	d := drf.New(body, &in.Refusals)
	in.Username, in.Password = d.String("username"), d.String("password")
	res, err := a.Accounts.Login(r.Context(), in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	u := res.User
	writeJSON(w, http.StatusOK, jsonToken{
		Token: res.Token,
		UUID:  res.UUID.String(),
		User:  jsonTokenUser{ID: u.ID, FirstName: u.FirstName, Username: u.Username, Email: u.Email},
	})
}

func (a *api) handlePermissions(w http.ResponseWriter, r *http.Request) {
	perms, err := a.Accounts.Permissions(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string][]string{"permissions": perms})
}
