package persistence

import (
	"io"

	"github.com/goccy/go-json"
	"github.com/uptrace/bun/extra/bunjson"
)

// Bun reads and writes json and jsonb columns (the localized texts of
// most rows) through github.com/goccy/go-json, a drop-in for the standard
// library's encoding/json that decodes several times faster: decoding
// those columns was the largest cost of scanning a page of boxes. (The
// faster segmentio/encoding was tried: it sizes every decoded map for 64
// keys, five times the memory of a page of partners.)
func init() { bunjson.SetProvider(goJSON{}) }

// goJSON is the bunjson.Provider on github.com/goccy/go-json.
type goJSON struct{}

func (goJSON) Marshal(v any) ([]byte, error)          { return json.Marshal(v) }
func (goJSON) Unmarshal(data []byte, v any) error     { return json.Unmarshal(data, v) }
func (goJSON) NewEncoder(w io.Writer) bunjson.Encoder { return json.NewEncoder(w) }
func (goJSON) NewDecoder(r io.Reader) bunjson.Decoder { return json.NewDecoder(r) }
