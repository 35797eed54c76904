package rest

import "testing"

// A media rename body that is no object is refused as a whole.
func TestDecodeRenameInputNotAnObject(t *testing.T) {
	in := decodeRenameInput([]any{"name"})
	if got := refusals(in.Refusals); len(got) != 1 || got["non_field_errors"] != "Invalid data. Expected a dictionary, but got list." {
		t.Errorf("refusals %v", got)
	}
}
