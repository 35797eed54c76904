// Package blobstore implements domain.BlobStore: Local (files under a
// directory, the default) and S3 (an S3-compatible bucket, so that several
// instances share media). One contract suite proves both.
package blobstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"

	"salesplatform/domain"
)

// validKey is what keys look like: the service generates them (UUIDs), so
// anything else — a path separator, "..", an empty key — is refused
// before it reaches a file system or a bucket.
var validKey = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$`)

func checkKey(key string) error {
	if !validKey.MatchString(key) {
		return fmt.Errorf("blob key %q is not a valid key", key)
	}
	return nil
}

// Local keeps each blob in a file named by its key under Dir. A blob is
// written to a temporary file in Dir and renamed into place, so a reader
// never sees a partial blob.
type Local struct {
	Dir string
}

var _ domain.BlobStore = (*Local)(nil)

// NewLocal returns the store; dir is created on the first Put.
func NewLocal(dir string) *Local { return &Local{Dir: dir} }

// Put writes the blob; the content type is kept by the caller (the media
// row), not in the file.
func (l *Local) Put(ctx context.Context, key, _ string, r io.Reader, size int64) (err error) {
	if err := checkKey(key); err != nil {
		return err
	}
	if err := os.MkdirAll(l.Dir, 0o750); err != nil {
		return fmt.Errorf("blob directory: %w", err)
	}
	tmp, err := os.CreateTemp(l.Dir, ".tmp-"+key+"-*")
	if err != nil {
		return fmt.Errorf("blob temp file: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	n, err := io.Copy(tmp, io.LimitReader(r, size+1))
	switch {
	case err != nil:
		return fmt.Errorf("write blob %s: %w", key, err)
	case n != size:
		return fmt.Errorf("write blob %s: got %d bytes, want %d", key, n, size)
	case ctx.Err() != nil:
		return ctx.Err()
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("sync blob %s: %w", key, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("close blob %s: %w", key, err)
	}
	if err = os.Rename(tmp.Name(), filepath.Join(l.Dir, key)); err != nil {
		return fmt.Errorf("rename blob %s: %w", key, err)
	}
	return nil
}

// Open returns the blob's file; domain.ErrNotFound when there is none.
func (l *Local) Open(_ context.Context, key string) (io.ReadCloser, error) {
	if checkKey(key) != nil {
		return nil, domain.ErrNotFound
	}
	f, err := os.Open(filepath.Join(l.Dir, key))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, domain.ErrNotFound
	}
	return f, err
}

// Delete removes the blob's file, if any.
func (l *Local) Delete(_ context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	err := os.Remove(filepath.Join(l.Dir, key))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
