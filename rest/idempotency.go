package rest

import (
	"context"
	"net/http"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
)

// Headers of idempotent requests (docs/API.md, "Idempotency").
const (
	idempotencyKeyHeader = "X-Idempotency-Key"
	replayedHeader       = "Idempotent-Replayed"
)

// idempotent wraps the handler of a POST that creates or moves value: the
// X-Idempotency-Key header, when sent, goes on the context for the
// service's guard (domain/idempotency), and an answer the service replayed
// says so with Idempotent-Replayed: true. A header that is not a key (or
// sent twice) is a 400 before the handler runs.
func idempotent(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		keys := r.Header.Values(idempotencyKeyHeader)
		if len(keys) == 0 {
			h(w, r)
			return
		}
		if len(keys) > 1 {
			writeError(w, r, &domain.Error{Code: domain.CodeInvalid, Message: "Send one " + idempotencyKeyHeader + " header, not several."})
			return
		}
		ctx, err := idempotency.WithKey(r.Context(), keys[0])
		if err != nil {
			writeError(w, r, err)
			return
		}
		h(&replayWriter{ResponseWriter: w, ctx: ctx}, r.WithContext(ctx))
	}
}

// replayWriter adds Idempotent-Replayed to the answer's headers when the
// service replayed it: the handler writes the status after the service
// returned.
type replayWriter struct {
	http.ResponseWriter
	ctx         context.Context
	wroteHeader bool
}

func (w *replayWriter) WriteHeader(status int) {
	if !w.wroteHeader && idempotency.Replayed(w.ctx) {
		w.Header().Set(replayedHeader, "true")
	}
	w.wroteHeader = true
	w.ResponseWriter.WriteHeader(status)
}

func (w *replayWriter) Write(b []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap gives http.ResponseController the writer underneath.
func (w *replayWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
