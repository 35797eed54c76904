// Package upload reads multipart bodies as streams, for the uploads of both
// surfaces (rest's media and KYC documents, graph/httptransport's
// uploadMedia and uploadKycDocument): the boundary and headers of each
// part are bounded while the reader looks for them, and a file part is
// copied to an unlinked temporary file, never held in memory
// (docs/SECURITY.md, "Uploads in flight"). It imports nothing of the
// service's.
package upload

import (
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
)

// MaxPartHeaderBytes bounds the boundary and headers read before a part:
// Go's multipart reader would otherwise hold up to 10 MiB of them.
const MaxPartHeaderBytes = 16 << 10

// Parts reads the parts of a multipart/form-data body one at a time.
type Parts struct {
	guard *headerGuard
	mr    *multipart.Reader
}

// NewParts reads r's body, whose Content-Type must name a boundary
// (http.ErrMissingBoundary otherwise).
func NewParts(r *http.Request) (*Parts, error) {
	_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || params["boundary"] == "" {
		return nil, http.ErrMissingBoundary
	}
	g := &headerGuard{r: r.Body}
	return &Parts{guard: g, mr: multipart.NewReader(g, params["boundary"])}, nil
}

// Next returns the next part, io.EOF after the last; its boundary and
// headers may take at most MaxPartHeaderBytes.
func (p *Parts) Next() (*multipart.Part, error) {
	p.guard.n, p.guard.counting = 0, true
	defer func() { p.guard.counting = false }()
	return p.mr.NextPart()
}

// SpoolError is the server's failure to keep an upload (a 500), not a
// fault of the client's body.
type SpoolError struct{ Err error }

func (e *SpoolError) Error() string { return "keep an uploaded file: " + e.Err.Error() }

func (e *SpoolError) Unwrap() error { return e.Err }

// Spool copies part to an unlinked temporary file (in TMPDIR), rewound,
// and returns it with its size; the caller closes it, which frees the
// space. The temporary file's failures are *SpoolError; the body's
// read errors are returned as they are. On an error the file, if any,
// is returned too, for the caller to close.
func Spool(part io.Reader) (*os.File, int64, error) {
	f, err := os.CreateTemp("", "salesplatform-upload-*")
	if err != nil {
		return nil, 0, &SpoolError{fmt.Errorf("create a temporary file: %w", err)}
	}
	if err := os.Remove(f.Name()); err != nil {
		return f, 0, &SpoolError{fmt.Errorf("unlink the temporary file: %w", err)}
	}
	w := &spoolWriter{f: f}
	size, err := io.Copy(w, part)
	switch {
	case w.err != nil:
		return f, size, &SpoolError{fmt.Errorf("write the temporary file: %w", w.err)}
	case err != nil:
		return f, size, err // the body's
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return f, size, &SpoolError{fmt.Errorf("rewind the temporary file: %w", err)}
	}
	return f, size, nil
}

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

// errPartHeaderTooLarge refuses a part whose boundary and headers pass
// MaxPartHeaderBytes.
var errPartHeaderTooLarge = fmt.Errorf("a part's headers are longer than %d bytes", MaxPartHeaderBytes)

// headerGuard fails the body's reads past MaxPartHeaderBytes while
// counting: while the multipart reader looks for the next part.
type headerGuard struct {
	r        io.Reader
	counting bool
	n        int
}

func (g *headerGuard) Read(p []byte) (int, error) {
	if !g.counting {
		return g.r.Read(p)
	}
	if g.n >= MaxPartHeaderBytes {
		return 0, errPartHeaderTooLarge
	}
	n, err := g.r.Read(p[:min(len(p), MaxPartHeaderBytes-g.n)])
	g.n += n
	return n, err
}
