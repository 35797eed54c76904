package rest

import (
	"net/http"
	"strconv"

	"github.com/google/uuid"
	"github.com/gorilla/mux"

	"salesplatform/domain"
)

// Path variables of the legacy routes.

// pathUUID reads the path's UUID variable name: a malformed one names no
// record (404).
func pathUUID(r *http.Request, name string) (uuid.UUID, error) {
	id, err := uuid.Parse(mux.Vars(r)[name])
	if err != nil {
		return uuid.Nil, domain.ErrNotFound
	}
	return id, nil
}

// pathID reads the path id; 0, which names nothing, when it is no int64.
func pathID(r *http.Request) int64 {
	id, err := strconv.ParseInt(mux.Vars(r)["id"], 10, 64)
	if err != nil {
		return 0 // too large: names nothing
	}
	return id
}

// mediaID reads the path id: an id that is not an int64 names no media.
func mediaID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(mux.Vars(r)["id"], 10, 64)
	if err != nil || id <= 0 {
		return 0, domain.ErrNotFound
	}
	return id, nil
}
