package httptransport

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// encodeResponse writes the JSON encoding/json writes, for answers it
// writes itself (data alone) and those it hands on; only the escaping of
// HTML characters may differ (encoding/json escapes <, > and &).
func TestEncodeResponseAsEncodingJSON(t *testing.T) {
	yes := true
	for name, resp := range map[string]*graphql.Response{
		"data":       {Data: json.RawMessage(`{"a":[1,{"b":"\u00e9 <i>&"}],"c":null}`)},
		"no data":    {},
		"errors":     {Data: json.RawMessage(`{"a":null}`), Errors: gqlerror.List{{Message: "m", Path: ast.Path{ast.PathName("a")}}}},
		"extensions": {Data: json.RawMessage(`{"a":1}`), Extensions: map[string]any{"cost": 3}},
		"label":      {Data: json.RawMessage(`{"a":1}`), Label: "l"},
		"path":       {Data: json.RawMessage(`{"a":1}`), Path: ast.Path{ast.PathName("a")}},
		"hasNext":    {Data: json.RawMessage(`{"a":1}`), HasNext: &yes},
	} {
		want, err := json.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeResponse(resp)
		if err != nil || !json.Valid(got) {
			t.Fatalf("%s: %s, %v", name, got, err)
		}
		var g, w any
		_ = json.Unmarshal(got, &g)
		_ = json.Unmarshal(want, &w)
		if !reflect.DeepEqual(g, w) || !bytes.HasPrefix(got, []byte(`{`)) {
			t.Errorf("%s: got %s, want %s", name, got, want)
		}
	}
}
