package blobstore

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"salesplatform/domain"
)

// S3Config names an S3-compatible bucket (AWS S3, MinIO, Ceph, Garage, …).
type S3Config struct {
	// Endpoint is host[:port], without scheme.
	Endpoint        string
	Bucket          string
	AccessKeyID     string
	SecretAccessKey string
	Region          string
	// Insecure talks plain HTTP instead of HTTPS.
	Insecure bool
}

// S3 keeps each blob as an object named by its key. A PUT is atomic in S3:
// the object is complete or absent.
type S3 struct {
	client *minio.Client
	bucket string
}

var _ domain.BlobStore = (*S3)(nil)

// NewS3 returns the store. It makes no request; CheckBucket does.
func NewS3(cfg S3Config) (*S3, error) {
	if cfg.Endpoint == "" || cfg.Bucket == "" {
		return nil, errors.New("S3 needs an endpoint and a bucket")
	}
	client, err := minio.New(cfg.Endpoint, &minio.Options{
		Creds:  credentials.NewStaticV4(cfg.AccessKeyID, cfg.SecretAccessKey, ""),
		Secure: !cfg.Insecure,
		Region: cfg.Region,
	})
	if err != nil {
		return nil, fmt.Errorf("S3 endpoint %q: %w", cfg.Endpoint, err)
	}
	return &S3{client: client, bucket: cfg.Bucket}, nil
}

// CheckBucket fails unless the bucket exists and the credentials reach it.
func (s *S3) CheckBucket(ctx context.Context) error {
	ok, err := s.client.BucketExists(ctx, s.bucket)
	if err != nil {
		return fmt.Errorf("S3 bucket %q: %w", s.bucket, err)
	}
	if !ok {
		return fmt.Errorf("S3 bucket %q does not exist", s.bucket)
	}
	return nil
}

// Put uploads the object with its content type.
func (s *S3) Put(ctx context.Context, key, contentType string, r io.Reader, size int64) error {
	if err := checkKey(key); err != nil {
		return err
	}
	_, err := s.client.PutObject(ctx, s.bucket, key, r, size, minio.PutObjectOptions{ContentType: contentType})
	if err != nil {
		return fmt.Errorf("put blob %s: %w", key, err)
	}
	return nil
}

// Open returns the object's body; domain.ErrNotFound when there is none.
func (s *S3) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	if checkKey(key) != nil {
		return nil, domain.ErrNotFound
	}
	obj, err := s.client.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, fmt.Errorf("get blob %s: %w", key, err)
	}
	// GetObject is lazy: Stat makes the request and reports a missing key.
	if _, err := obj.Stat(); err != nil {
		_ = obj.Close()
		if minio.ToErrorResponse(err).Code == minio.NoSuchKey {
			return nil, domain.ErrNotFound
		}
		return nil, fmt.Errorf("get blob %s: %w", key, err)
	}
	return obj, nil
}

// Delete removes the object; S3 answers success for a missing one.
func (s *S3) Delete(ctx context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if err := s.client.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{}); err != nil {
		return fmt.Errorf("delete blob %s: %w", key, err)
	}
	return nil
}
