package persistence

import (
	"io"

	"github.com/segmentio/encoding/json"
	"github.com/uptrace/bun/extra/bunjson"
)

// Bun reads and writes json and jsonb columns (the localized texts of
// most rows) through segmentio's encoding/json, a drop-in for the
// standard library's that decodes several times faster: decoding those
// columns was the largest cost of scanning a page of boxes.
func init() { bunjson.SetProvider(segmentJSON{}) }

// segmentJSON is the bunjson.Provider on github.com/segmentio/encoding/json.
type segmentJSON struct{}

func (segmentJSON) Marshal(v any) ([]byte, error)      { return json.Marshal(v) }
func (segmentJSON) Unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
func (segmentJSON) NewEncoder(w io.Writer) bunjson.Encoder {
	return json.NewEncoder(w)
}
func (segmentJSON) NewDecoder(r io.Reader) bunjson.Decoder {
	return json.NewDecoder(r)
}
