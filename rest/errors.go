package rest

import (
	"log/slog"
	"net/http"
	"strconv"

	"salesplatform/domain"
	"salesplatform/rest/middleware"
)

// statusOf maps each domain error code to its HTTP status, once.
var statusOf = map[domain.Code]int{
	domain.CodeInvalid:            http.StatusBadRequest,
	domain.CodeUnauthenticated:    http.StatusUnauthorized,
	domain.CodeForbidden:          http.StatusForbidden,
	domain.CodeNotFound:           http.StatusNotFound,
	domain.CodePreconditionFailed: http.StatusPreconditionFailed,
	domain.CodeConflict:           http.StatusConflict,
	domain.CodeUnprocessable:      http.StatusUnprocessableEntity,
	domain.CodeThrottled:          http.StatusTooManyRequests,
	domain.CodeTooLarge:           http.StatusRequestEntityTooLarge,
	domain.CodeUnavailable:        http.StatusServiceUnavailable,
}

// writeError writes err in the legacy (DRF) shape: field errors for invalid
// input, {"detail": ...} otherwise. Errors that are not domain errors are
// logged and hidden behind a 500.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	de := domain.AsError(err)
	status, known := 0, de != nil
	if known {
		status, known = statusOf[de.Code]
	}
	if !known {
		logger(r).Error("request failed", "error", err.Error())
		writeJSON(w, http.StatusInternalServerError, detail("A server error occurred."))
		return
	}
	switch de.Code {
	case domain.CodeUnavailable: // a fault on our side, though the client may retry
		logger(r).Error("dependency unavailable", "error", err.Error())
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(de.RetryAfter.Seconds()))))
	case domain.CodeInvalid:
		if len(de.Fields) > 0 {
			writeJSON(w, status, fieldErrorBody(de))
			return
		}
	case domain.CodeUnauthenticated:
		w.Header().Set("WWW-Authenticate", "Token")
	case domain.CodeThrottled:
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(de.RetryAfter.Seconds()))))
	case domain.CodeConflict:
		if de.RetryAfter > 0 { // another request's work in progress
			w.Header().Set("Retry-After", strconv.Itoa(max(1, int(de.RetryAfter.Seconds()))))
		}
	}
	writeJSON(w, status, detail(de.Message))
}

type detailBody struct {
	Detail string `json:"detail"`
}

func detail(msg string) detailBody { return detailBody{Detail: msg} }

// fieldErrorBody nests field errors as DRF does: a map per object, a list per
// list (one entry per element, {} for valid ones), a list of messages per
// field: {"items": [{}, {"quantity": ["A valid integer is required."]}]}.
func fieldErrorBody(e *domain.Error) map[string]any {
	root := map[string]any{}
	for _, f := range e.Fields {
		if len(f.Path) == 0 {
			addMessage(root, "non_field_errors", f.Message)
			continue
		}
		insertFieldError(root, f.Path, f.Message, e.ListLengths)
	}
	return root
}

// insertFieldError places msg at path below node. A path that clashes with an
// earlier shape (which the validators never produce) falls back to the
// nearest object's non_field_errors rather than failing.
func insertFieldError(node map[string]any, path []any, msg string, lengths map[string]int) {
	for i := 0; i < len(path); i++ {
		key, ok := path[i].(string)
		if !ok {
			addMessage(node, "non_field_errors", msg)
			return
		}
		if i == len(path)-1 {
			addMessage(node, key, msg)
			return
		}
		switch next := path[i+1].(type) {
		case int: // key holds a list; descend into element next
			list, _ := node[key].([]any)
			if list == nil {
				if _, taken := node[key]; taken {
					addMessage(node, "non_field_errors", msg)
					return
				}
				list = make([]any, max(lengths[domain.PathKey(path[:i+1])], next+1))
				for j := range list {
					list[j] = map[string]any{}
				}
				node[key] = list
			}
			if next >= len(list) {
				addMessage(node, "non_field_errors", msg)
				return
			}
			node = list[next].(map[string]any)
			i++ // the index is consumed
		default: // key holds an object
			child, _ := node[key].(map[string]any)
			if child == nil {
				if _, taken := node[key]; taken {
					addMessage(node, "non_field_errors", msg)
					return
				}
				child = map[string]any{}
				node[key] = child
			}
			node = child
		}
	}
}

func addMessage(node map[string]any, key, msg string) {
	msgs, _ := node[key].([]string)
	node[key] = append(msgs, msg)
}

func logger(r *http.Request) *slog.Logger {
	return middleware.LoggerFrom(r.Context())
}
