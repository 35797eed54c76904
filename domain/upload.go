package domain

import (
	"context"
	"io"
)

// UploadHead reads what the checks of an uploaded file need: its size and
// its first 512 bytes (all http.DetectContentType reads), and rewinds it.
// An upload is read where it lies (a temporary file, docs/SECURITY.md),
// never whole into memory.
func UploadHead(f io.ReadSeeker) (size int64, head []byte, err error) {
	if size, err = f.Seek(0, io.SeekEnd); err != nil {
		return 0, nil, err
	}
	if _, err = f.Seek(0, io.SeekStart); err != nil {
		return 0, nil, err
	}
	head = make([]byte, min(size, 512))
	if _, err = io.ReadFull(f, head); err != nil {
		return 0, nil, err
	}
	_, err = f.Seek(0, io.SeekStart)
	return size, head, err
}

// BlobStore keeps the bytes of uploads (media, KYC documents) under opaque
// keys. Implementations: local files and an S3-compatible bucket
// (persistence/blobstore).
type BlobStore interface {
	// Put stores size bytes from r under key, replacing nothing: keys are
	// fresh. The blob is complete or absent, never partial.
	Put(ctx context.Context, key, contentType string, r io.Reader, size int64) error
	// Open returns the blob's bytes; ErrNotFound when there is none.
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	// Delete removes the blob; deleting an absent blob is not an error.
	Delete(ctx context.Context, key string) error
}
