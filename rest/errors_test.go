package rest

import (
	"encoding/json"
	"testing"

	"salesplatform/domain"
)

func TestFieldErrorBody(t *testing.T) {
	e := &domain.Error{Code: domain.CodeInvalid, Fields: []domain.FieldError{
		{Path: []any{"id"}, Message: "Cart not found."},
		{Path: []any{"items", 1, "quantity"}, Message: "A valid integer is required."},
		{Path: []any{"items", 1, "quantity"}, Message: "second message"},
		{Path: []any{"items", 2, "attribute_values", "12"}, Message: "Not a valid string."},
		{Path: []any{"items", 2, "non_field_errors"}, Message: "x"},
		{Path: nil, Message: "across fields"},
		// A clash with an earlier shape falls back instead of panicking.
		{Path: []any{"id", "deeper"}, Message: "clash"},
	}, ListLengths: map[string]int{"items": 4}}

	got, err := json.Marshal(fieldErrorBody(e))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":["Cart not found."],"items":[{},{"quantity":["A valid integer is required.","second message"]},` +
		`{"attribute_values":{"12":["Not a valid string."]},"non_field_errors":["x"]},{}],"non_field_errors":["across fields","clash"]}`
	if string(got) != want {
		t.Errorf("body =\n%s\nwant\n%s", got, want)
	}
}
