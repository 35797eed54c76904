package rest

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"slices"
)

// Bounds of what an upload holds in memory (docs/SECURITY.md): the file
// goes to a temporary file as it streams, so an upload in flight holds
// its form values, one part's headers and copy buffers, whatever its size.
const (
	// maxFieldBytes bounds a form value kept (a name, a comment).
	maxFieldBytes = 64 << 10
	// maxPartHeaderBytes bounds the boundary and headers read before a
	// part's content: Go's multipart reader would hold up to 10 MiB of
	// them.
	maxPartHeaderBytes = 16 << 10
)

// upload is a multipart/form-data body read as it streams: the first
// value of each field asked for, and the first file of the field "file"
// in a temporary file (already unlinked: nothing is left behind, even by
// a crash).
type upload struct {
	values map[string]string
	file   *os.File
	// files counts the file parts of every field: one file per request.
	files int
}

// readUpload reads r's multipart body, at most maxBody bytes, keeping the
// fields named and the file. On a refused body it writes the answer (413
// past maxBody, 400 when it is no multipart form) and returns nil; else
// the caller closes the upload.
func readUpload(w http.ResponseWriter, r *http.Request, maxBody int64, fields ...string) *upload {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	u := &upload{values: map[string]string{}}
	err := u.read(r, fields)
	if err == nil {
		return u
	}
	u.Close()
	var tooBig *http.MaxBytesError
	var spool *spoolError
	switch {
	case errors.As(err, &tooBig):
		writeJSON(w, http.StatusRequestEntityTooLarge,
			detail(fmt.Sprintf("Request body too large: the limit is %d bytes.", maxBody)))
	case errors.As(err, &spool):
		writeError(w, r, spool.err)
	default:
		writeJSON(w, http.StatusBadRequest, detail("Multipart form parse error - "+err.Error()))
	}
	return nil
}

// value is the field's first value; nil when it was not sent.
func (u *upload) value(field string) *string {
	if v, ok := u.values[field]; ok {
		return &v
	}
	return nil
}

// File is the uploaded file, at its start; nil when none was sent.
func (u *upload) File() io.ReadSeeker {
	if u.file == nil {
		return nil
	}
	return u.file
}

// Close frees the temporary file.
func (u *upload) Close() {
	if u.file != nil {
		_ = u.file.Close()
	}
}

func (u *upload) read(r *http.Request, fields []string) error {
	_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || params["boundary"] == "" {
		return http.ErrMissingBoundary
	}
	body := &headerGuard{r: r.Body}
	mr := multipart.NewReader(body, params["boundary"])
	for {
		body.n, body.counting = 0, true
		part, err := mr.NextPart()
		body.counting = false
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
				if err := u.spool(part); err != nil {
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

// spool copies the file part to an unlinked temporary file, rewound.
func (u *upload) spool(part io.Reader) error {
	f, err := os.CreateTemp("", "salesplatform-upload-*")
	if err != nil {
		return &spoolError{fmt.Errorf("create a temporary file for an upload: %w", err)}
	}
	u.file = f
	if err := os.Remove(f.Name()); err != nil {
		return &spoolError{fmt.Errorf("unlink the upload's temporary file: %w", err)}
	}
	w := &spoolWriter{f: f}
	if _, err := io.Copy(w, part); err != nil {
		if w.err != nil {
			return &spoolError{fmt.Errorf("write an upload's temporary file: %w", w.err)}
		}
		return err // the body's
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return &spoolError{fmt.Errorf("rewind an upload's temporary file: %w", err)}
	}
	return nil
}

// spoolError is the server's failure to keep an upload (500), not the
// client's body.
type spoolError struct{ err error }

func (e *spoolError) Error() string { return e.err.Error() }

// spoolWriter tells the temporary file's write errors from the body's
// read errors.
type spoolWriter struct {
	f   *os.File
	err error
}

func (w *spoolWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if err != nil {
		w.err = err
	}
	return n, err
}

// headerGuard fails the body's reads past maxPartHeaderBytes while
// counting: while the multipart reader looks for the next part, reading a
// boundary and headers.
type headerGuard struct {
	r        io.Reader
	counting bool
	n        int
}

var errPartHeaderTooLarge = fmt.Errorf("a part's headers are longer than %d bytes", maxPartHeaderBytes)

func (g *headerGuard) Read(p []byte) (int, error) {
	if !g.counting {
		return g.r.Read(p)
	}
	if g.n >= maxPartHeaderBytes {
		return 0, errPartHeaderTooLarge
	}
	n, err := g.r.Read(p[:min(len(p), maxPartHeaderBytes-g.n)])
	g.n += n
	return n, err
}
