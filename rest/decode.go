package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	gojson "github.com/goccy/go-json"

	"salesplatform/domain"
	"salesplatform/rest/drf"
)

// MaxBodyBytes bounds every request body; larger ones get 413.
const MaxBodyBytes = 256 << 10

// httpError is a transport-level refusal (415, 413, 400 parse error) written
// in the {"detail"} shape.
type httpError struct {
	status int
	msg    string
	// fields, when set, is written instead of msg: a DRF field-error map.
	fields *domain.Error
}

func (e *httpError) Error() string { return e.msg }

func (e *httpError) write(w http.ResponseWriter) {
	if e.fields != nil {
		writeJSON(w, e.status, fieldErrorBody(e.fields))
		return
	}
	writeJSON(w, e.status, detail(e.msg))
}

// textError refuses, as DRF's CharField does ("Null characters are not
// allowed."), a body whose keys or string values are not text
// (domain.TextProblem): every such value is a field error at its field,
// or at the list holding it. nil when all are text.
func textError(v any) *httpError {
	var val domain.Validator
	var walk func(v any, path []any, inList bool)
	walk = func(v any, path []any, inList bool) {
		switch x := v.(type) {
		case string:
			if msg := domain.TextProblem(x); msg != "" {
				val.Add(domain.VInvalid, msg, path...)
			}
		case []any:
			for _, e := range x {
				walk(e, path, true)
			}
		case map[string]any:
			// A key's path is built only for an error or a nested value.
			at := func(k string) []any {
				if inList {
					return path
				}
				return append(path[:len(path):len(path)], k)
			}
			for k, e := range x {
				if msg := domain.TextProblem(k); msg != "" {
					val.Add(domain.VInvalid, msg, at(k)...)
					continue
				}
				switch e := e.(type) {
				case string:
					if msg := domain.TextProblem(e); msg != "" {
						val.Add(domain.VInvalid, msg, at(k)...)
					}
				case []any, map[string]any:
					walk(e, at(k), inList)
				}
			}
		}
	}
	walk(v, nil, false)
	if de := domain.AsError(val.Err()); de != nil {
		return &httpError{status: http.StatusBadRequest, msg: de.Error(), fields: de}
	}
	return nil
}

// readBody reads the body within MaxBodyBytes.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, *httpError) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return nil, &httpError{status: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf("Request body too large: the limit is %d bytes.", MaxBodyBytes)}
	}
	if err != nil {
		return nil, &httpError{status: http.StatusBadRequest, msg: "Could not read the request body."}
	}
	return b, nil
}

// mediaType returns the request's media type without parameters.
func mediaType(r *http.Request) string {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return mt
}

func isJSON(mt string) bool {
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

func unsupported(r *http.Request) *httpError {
	return &httpError{status: http.StatusUnsupportedMediaType, msg: fmt.Sprintf("Unsupported media type %q in request.", r.Header.Get("Content-Type"))}
}

// decodeJSON reads a JSON body into a generic value with numbers kept as
// json.Number, so the domain sees exactly what was sent. An empty body is an
// empty object, as DRF treats it.
func decodeJSON(w http.ResponseWriter, r *http.Request) (any, *httpError) {
	if !isJSON(mediaType(r)) {
		return nil, unsupported(r)
	}
	b, herr := readBody(w, r)
	if herr != nil {
		return nil, herr
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return map[string]any{}, nil
	}
	// The decoder would read U+FFFD for bytes that are not UTF-8 and for
	// an escaped lone surrogate, and the value would be stored altered.
	if msg := domain.JSONTextProblem(b); msg != "" {
		return nil, &httpError{status: http.StatusBadRequest, msg: "JSON parse error - " + msg}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, &httpError{status: http.StatusBadRequest, msg: "JSON parse error - " + err.Error()}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &httpError{status: http.StatusBadRequest, msg: "JSON parse error - extra data after the JSON value"}
	}
	if herr := textError(v); herr != nil {
		return nil, herr
	}
	return v, nil
}

// decodeDoc reads a JSON object body; it answers anything else itself and
// reports false.
func decodeDoc(w http.ResponseWriter, r *http.Request) (drf.Object, bool) {
	v, herr := decodeJSON(w, r)
	if herr != nil {
		herr.write(w)
		return nil, false
	}
	doc, err := asObject(v)
	if err != nil {
		writeError(w, r, err)
		return nil, false
	}
	return doc, true
}

// decodeFlat reads a body without nested fields: a JSON object, or a form
// (url-encoded or multipart) as DRF's parsers accept. It answers anything
// else itself and reports false.
func decodeFlat(w http.ResponseWriter, r *http.Request) (drf.Object, bool) {
	doc, herr := decodeForm(w, r)
	if herr != nil {
		herr.write(w)
		return nil, false
	}
	if doc == nil {
		return decodeDoc(w, r)
	}
	return doc, true
}

// decodeForm reads a form body; nil without an error when the body is JSON.
func decodeForm(w http.ResponseWriter, r *http.Request) (drf.Object, *httpError) {
	switch mt := mediaType(r); {
	case isJSON(mt):
		return nil, nil
	case mt == "application/x-www-form-urlencoded":
		b, herr := readBody(w, r)
		if herr != nil {
			return nil, herr
		}
		vals, err := url.ParseQuery(string(b))
		if err != nil {
			return nil, &httpError{status: http.StatusBadRequest, msg: "Malformed form data."}
		}
		return formValues(vals)
	case mt == "multipart/form-data":
		r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
		if err := r.ParseMultipartForm(MaxBodyBytes); err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return nil, &httpError{status: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf("Request body too large: the limit is %d bytes.", MaxBodyBytes)}
			}
			return nil, &httpError{status: http.StatusBadRequest, msg: "Malformed multipart data."}
		}
		return formValues(r.MultipartForm.Value)
	default:
		return nil, unsupported(r)
	}
}

// formValues is the last value of each field of a form, each of them
// text (textError).
func formValues(vals map[string][]string) (drf.Object, *httpError) {
	m := make(map[string]any, len(vals))
	for k, v := range vals {
		if len(v) > 0 {
			m[k] = v[len(v)-1] // a field given twice: its last value, as Django's QueryDict
		}
	}
	if herr := textError(m); herr != nil {
		return nil, herr
	}
	return m, nil
}

// writeJSON answers v as JSON. It encodes with github.com/goccy/go-json,
// which writes encoding/json's bytes (TestWriteJSONAsEncodingJSON) at about
// half the allocations: the legacy voucher record is a map of about a
// hundred keys.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = gojson.NewEncoder(w).Encode(v)
}

// asObject is a decoded JSON body as the object every body must be.
// Errors: CodeInvalid on non_field_errors for any other JSON value, as
// DRF's serializers answer.
func asObject(body any) (drf.Object, error) {
	if obj, ok := body.(map[string]any); ok {
		return obj, nil
	}
	var v domain.Validator
	v.Add(domain.VInvalid, fmt.Sprintf(drf.MsgNotAnObject, domain.JSONTypeName(body)), "non_field_errors")
	return nil, v.Err()
}
