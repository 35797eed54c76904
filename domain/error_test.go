package domain

import (
	"errors"
	"testing"
)

func TestDescribe(t *testing.T) {
	t.Parallel()
	fields := &Error{Code: CodeInvalid, Message: "Invalid input.", Fields: []FieldError{
		{Path: []any{"username"}, Message: "A user with that username already exists."},
		{Path: []any{"items", 0, "quantity"}, Message: "Ensure this value is less than or equal to 100000."},
	}}
	want := "username: A user with that username already exists.; items.0.quantity: Ensure this value is less than or equal to 100000."
	if got := Describe(fields); got == nil || got.Error() != want {
		t.Errorf("Describe(field errors) = %v, want %q", got, want)
	}
	plain := Errorf(CodeNotFound, "Not found.")
	other := errors.New("connection refused")
	for _, err := range []error{plain, other, nil} {
		if got := Describe(err); got != err {
			t.Errorf("Describe(%v) = %v, want it unchanged", err, got)
		}
	}
}
