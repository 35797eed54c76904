package e2e

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"salesplatform/domain/media"
)

// maxUploadsHeap is the documented bound (docs/SECURITY.md) on the heap
// that 100 uploads of the largest file at once add: each streams to a
// temporary file and from there to the blob store, holding copy buffers
// and its form values, never its file, in memory. Held whole, the files
// alone would take 1 GiB.
const maxUploadsHeap = 64 << 20

// heapPeak samples the heap's objects (live and not yet swept) until stop
// is called, and returns their peak above the heap when it started.
// Meanwhile the collector runs at 20% of growth rather than serve's 400%,
// so that the peak is what the uploads hold, not garbage left to a
// collection the process could delay by the size of its live heap.
func heapPeak() (stop func() uint64) {
	gcPercent := debug.SetGCPercent(20)
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	peak := base
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	return func() uint64 {
		close(done)
		wg.Wait()
		debug.SetGCPercent(gcPercent)
		return peak - base
	}
}

// parallelUploads sends n requests at once, each a multipart body of
// fields then the file data under fileField (shared, not copied), and
// returns their statuses.
func parallelUploads(t *testing.T, n int, url, token string, fields [][2]string, fileField string, data []byte, headers ...string) []int {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, f := range fields {
		gcMust(t, mw.WriteField(f[0], f[1]))
	}
	_, err := mw.CreateFormFile(fileField, "big.png")
	gcMust(t, err)
	head := b.String()
	b.Reset()
	gcMust(t, mw.Close())
	tail := b.String()

	client := &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	defer client.CloseIdleConnections()
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			body := io.MultiReader(strings.NewReader(head), bytes.NewReader(data), strings.NewReader(tail))
			req, err := http.NewRequest(http.MethodPost, url, body)
			if err != nil {
				t.Error(err)
				return
			}
			req.ContentLength = int64(len(head) + len(data) + len(tail))
			req.Header.Set("Content-Type", mw.FormDataContentType())
			req.Header.Set("Authorization", "Token "+token)
			for j := 0; j+1 < len(headers); j += 2 {
				req.Header.Set(headers[j], headers[j+1])
			}
			res, err := client.Do(req)
			if err != nil {
				t.Errorf("upload %d: %v", i, err)
				return
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			statuses[i] = res.StatusCode
		})
	}
	wg.Wait()
	return statuses
}

// 100 uploads of the largest image at once, over REST and then over the
// graph, each add little to the heap. Not parallel: it measures the
// process's heap, so no other test runs meanwhile.
func TestParallelUploadsMemory(t *testing.T) {
	// The per-address connection cap would refuse 36 of the 100 clients,
	// which all come from 127.0.0.1.
	f := newMediaFixture(t, "--max-conns-per-ip", "0")
	// A valid PNG padded to the limit: the checks read its header.
	data := append(slices.Clone(f.pngData), make([]byte, media.MaxMediaBytes-len(f.pngData))...)
	const n = 100

	stop := heapPeak()
	statuses := parallelUploads(t, n, f.URL+"/api/media/", f.shopTok, [][2]string{{"name", "big"}}, "file", data)
	peak := stop()
	if want := slices.Repeat([]int{http.StatusCreated}, n); !slices.Equal(statuses, want) {
		t.Errorf("REST statuses %v, want 201 each", statuses)
	}
	t.Logf("REST: %d uploads of %d bytes at once added %.1f MiB to the heap at most", n, len(data), float64(peak)/(1<<20))
	if peak > maxUploadsHeap {
		t.Errorf("REST: %d uploads at once added %d MiB to the heap, want at most %d MiB", n, peak>>20, maxUploadsHeap>>20)
	}

	ops := `{"query": "mutation($input: UploadMediaInput!) { uploadMedia(input: $input) { media { id } userErrors { message } } }", ` +
		`"variables": {"input": {"name": "big", "file": null}}}`
	stop = heapPeak()
	statuses = parallelUploads(t, n, f.URL+"/graphql", f.shopTok, [][2]string{{"operations", ops}, {"map", `{"f": ["variables.input.file"]}`}},
		"f", data, "GraphQL-Require-Preflight", "1")
	peak = stop()
	if want := slices.Repeat([]int{http.StatusOK}, n); !slices.Equal(statuses, want) {
		t.Errorf("graph statuses %v, want 200 each", statuses)
	}
	t.Logf("graph: %d uploads of %d bytes at once added %.1f MiB to the heap at most", n, len(data), float64(peak)/(1<<20))
	if peak > maxUploadsHeap {
		t.Errorf("graph: %d uploads at once added %d MiB to the heap, want at most %d MiB", n, peak>>20, maxUploadsHeap>>20)
	}
	if rows, blobs := f.stored(t); rows != 2*n || blobs != 2*n {
		t.Errorf("stored %d rows and %d blobs, want %d each", rows, blobs, 2*n)
	}
}
