package rest

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"

	"salesplatform/rest/upload"
)

// Bounds of what an upload holds in memory (docs/SECURITY.md): the file
// goes to a temporary file as it streams, so an upload in flight holds
// its form values, one part's headers and copy buffers, whatever its size.
// maxFieldBytes bounds a form value kept (a name, a comment); package
// upload bounds a part's headers.
const maxFieldBytes = 64 << 10

// uploadForm is a multipart/form-data body read as it streams: the first
// value of each field asked for, and the first file of the field "file"
// in a temporary file (already unlinked: nothing is left behind, even by
// a crash).
type uploadForm struct {
	values map[string]string
	file   *os.File
	// files counts the file parts of every field: one file per request.
	files int
}

// readUpload reads r's multipart body, at most maxBody bytes, keeping the
// fields named and the file. On a refused body it writes the answer (413
// past maxBody, 400 when it is no multipart form) and returns nil; else
// the caller closes the upload.
func readUpload(w http.ResponseWriter, r *http.Request, maxBody int64, fields ...string) *uploadForm {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	u := &uploadForm{values: map[string]string{}}
	err := u.read(r, fields)
	if err == nil {
		if herr := u.textError(); herr != nil {
			u.Close()
			herr.write(w)
			return nil
		}
		return u
	}
	u.Close()
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeJSON(w, http.StatusRequestEntityTooLarge,
			detail(fmt.Sprintf("Request body too large: the limit is %d bytes.", maxBody)))
	case errors.As(err, new(*upload.SpoolError)):
		writeError(w, r, err)
	default:
		writeJSON(w, http.StatusBadRequest, detail("Multipart form parse error - "+err.Error()))
	}
	return nil
}

// value is the field's first value; nil when it was not sent.
func (u *uploadForm) value(field string) *string {
	if v, ok := u.values[field]; ok {
		return &v
	}
	return nil
}

// fields is the form's values as a body that rest/drf reads.
func (u *uploadForm) fields() map[string]any {
	out := make(map[string]any, len(u.values))
	for k, v := range u.values {
		out[k] = v
	}
	return out
}

// File is the uploaded file, at its start; nil when none was sent.
func (u *uploadForm) File() io.ReadSeeker {
	if u.file == nil {
		return nil
	}
	return u.file
}

// textError refuses values that are not text, as a body's (textError).
func (u *uploadForm) textError() *httpError {
	m := make(map[string]any, len(u.values))
	for k, v := range u.values {
		m[k] = v
	}
	return textError(m)
}

// Close frees the temporary file.
func (u *uploadForm) Close() {
	if u.file != nil {
		_ = u.file.Close()
	}
}

func (u *uploadForm) read(r *http.Request, fields []string) error {
	parts, err := upload.NewParts(r)
	if err != nil {
		return err
	}
	for {
		part, err := parts.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := part.FormName()
		switch {
		case name == "":
		case part.FileName() != "":
			u.files++
			if name == "file" && u.file == nil {
				f, _, err := upload.Spool(part)
				if u.file = f; err != nil {
					return err
				}
				continue
			}
		case slices.Contains(fields, name):
			if _, seen := u.values[name]; seen {
				break
			}
			v, err := io.ReadAll(io.LimitReader(part, maxFieldBytes+1))
			if err != nil {
				return err
			}
			if len(v) > maxFieldBytes {
				return fmt.Errorf("the field %q is longer than %d bytes", name, maxFieldBytes)
			}
			u.values[name] = string(v)
			continue
		}
		if _, err := io.Copy(io.Discard, part); err != nil {
			return err
		}
	}
}
