package blobstore_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"salesplatform/domain"
	"salesplatform/persistence/blobstore"
)

// testContract proves a domain.BlobStore: put then open gives the bytes
// back, a missing key is ErrNotFound, delete is idempotent, a short reader
// leaves no blob, and keys that are not plain names are refused.
func testContract(t *testing.T, s domain.BlobStore) {
	ctx := context.Background()
	t.Run("PutOpenDelete", func(t *testing.T) {
		key := uuid.NewString()
		data := bytes.Repeat([]byte("png!"), 5000)
		if err := s.Put(ctx, key, "image/png", bytes.NewReader(data), int64(len(data))); err != nil {
			t.Fatal(err)
		}
		r, err := s.Open(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		_ = r.Close()
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("read back %d bytes (err %v), want %d", len(got), err, len(data))
		}
		if err := s.Delete(ctx, key); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Open(ctx, key); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("Open after Delete: %v, want ErrNotFound", err)
		}
		if err := s.Delete(ctx, key); err != nil {
			t.Fatalf("second Delete: %v", err)
		}
	})
	t.Run("Missing", func(t *testing.T) {
		if _, err := s.Open(ctx, uuid.NewString()); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("Open of an unknown key: %v, want ErrNotFound", err)
		}
	})
	t.Run("ShortReader", func(t *testing.T) {
		key := uuid.NewString()
		if err := s.Put(ctx, key, "image/png", strings.NewReader("abc"), 10); err == nil {
			t.Fatal("Put of 3 bytes announced as 10 succeeded")
		}
		if _, err := s.Open(ctx, key); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("Open after a failed Put: %v, want ErrNotFound", err)
		}
	})
	t.Run("BadKeys", func(t *testing.T) {
		for _, key := range []string{"", "../escape", "a/b", ".hidden", strings.Repeat("k", 200)} {
			if err := s.Put(ctx, key, "image/png", strings.NewReader("x"), 1); err == nil {
				t.Errorf("Put(%q) succeeded", key)
			}
			if _, err := s.Open(ctx, key); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("Open(%q) = %v, want ErrNotFound", key, err)
			}
		}
	})
}

func TestLocal(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "media")
	testContract(t, blobstore.NewLocal(dir))
	// No temporary file is left behind.
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("file %s left in the blob directory", e.Name())
	}
}

func TestS3(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("media"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	s, err := blobstore.NewS3(blobstore.S3Config{
		Endpoint: strings.TrimPrefix(srv.URL, "http://"), Bucket: "media",
		AccessKeyID: "test", SecretAccessKey: "test-secret", Region: "us-east-1", Insecure: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CheckBucket(context.Background()); err != nil {
		t.Fatal(err)
	}
	testContract(t, s)

	missing, err := blobstore.NewS3(blobstore.S3Config{
		Endpoint: strings.TrimPrefix(srv.URL, "http://"), Bucket: "nope",
		AccessKeyID: "test", SecretAccessKey: "test-secret", Region: "us-east-1", Insecure: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := missing.CheckBucket(context.Background()); err == nil {
		t.Error("CheckBucket of a missing bucket succeeded")
	}
}
