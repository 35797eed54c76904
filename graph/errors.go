package graph

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"salesplatform/domain"
	"salesplatform/graph/model"
)

// codeOf maps each domain error code to its extensions.code, once.
var codeOf = map[domain.Code]string{
	domain.CodeInvalid:            "BAD_USER_INPUT",
	domain.CodeUnauthenticated:    "UNAUTHENTICATED",
	domain.CodeForbidden:          "FORBIDDEN",
	domain.CodeNotFound:           "NOT_FOUND",
	domain.CodePreconditionFailed: "PRECONDITION_FAILED",
	domain.CodeConflict:           "CONFLICT",
	domain.CodeUnprocessable:      "UNPROCESSABLE",
	domain.CodeThrottled:          "THROTTLED",
	domain.CodeTooLarge:           "TOO_LARGE",
	domain.CodeUnavailable:        "SERVICE_UNAVAILABLE",
}

// Logger is what the error presenter logs masked errors with.
type Logger interface {
	Error(ctx context.Context, msg string, args ...any)
}

// presentError lets domain errors through with their code, keeps gqlgen's
// own request errors (argument coercion, validation), and logs and masks
// everything else.
func presentError(log Logger) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		gqlErr := graphql.DefaultErrorPresenter(ctx, err)
		if errors.Is(ctx.Err(), context.Canceled) {
			// The client went away: what failed with it (a statement
			// cancelled mid-flight) is not a fault, and nobody reads it.
			gqlErr.Message = "the request ended before this field was resolved"
			setCode(gqlErr, CodeRequestEnded)
			return gqlErr
		}
		if de := domain.AsError(err); de != nil {
			if code, ok := codeOf[de.Code]; ok {
				if de.Code == domain.CodeUnavailable { // a fault on our side, though the client may retry
					log.Error(ctx, "dependency unavailable", "error", err.Error(), "path", gqlErr.Path.String())
				}
				gqlErr.Message = de.Message
				setCode(gqlErr, code)
				if len(de.Fields) > 0 {
					// An argument broke a rule: say which, as a mutation's
					// userErrors do.
					ue, _ := userErrors(de)
					gqlErr.Message = fieldErrorsMessage(ue)
					gqlErr.Extensions["fields"] = ue
				}
				if de.Code == domain.CodeThrottled || de.Code == domain.CodeUnavailable || de.RetryAfter > 0 {
					gqlErr.Extensions["retryAfter"] = int(de.RetryAfter.Seconds())
				}
				return gqlErr
			}
		}
		var ge *gqlerror.Error
		if errors.As(err, &ge) && ge.Err == nil {
			if _, has := gqlErr.Extensions["code"]; !has {
				setCode(gqlErr, "BAD_USER_INPUT")
			}
			return gqlErr
		}
		log.Error(ctx, "graphql resolver failed", "error", err.Error(), "path", gqlErr.Path.String())
		gqlErr.Message = "Internal server error."
		setCode(gqlErr, "INTERNAL_SERVER_ERROR")
		return gqlErr
	}
}

// recoverPanic turns a resolver panic into a masked internal error.
func recoverPanic(log Logger) graphql.RecoverFunc {
	return func(ctx context.Context, p any) error {
		log.Error(ctx, "graphql resolver panicked", "panic", fmt.Sprint(p))
		return errors.New("panic in resolver")
	}
}

func setCode(e *gqlerror.Error, code string) {
	if e.Extensions == nil {
		e.Extensions = map[string]any{}
	}
	e.Extensions["code"] = code
}

// userErrors splits a service error: input errors become the payload's user
// errors, anything else is returned as a GraphQL error.
func userErrors(err error) ([]*model.UserError, error) {
	var de *domain.Error
	if !errors.As(err, &de) || de.Code != domain.CodeInvalid {
		return nil, err
	}
	out := make([]*model.UserError, len(de.Fields))
	for i, f := range de.Fields {
		path := make([]string, 0, len(f.Path))
		for _, p := range f.Path {
			if p != "non_field_errors" {
				path = append(path, fmt.Sprint(p))
			}
		}
		out[i] = &model.UserError{Field: path, Code: f.Code, Message: f.Message}
	}
	return out, nil
}

// renameArgument reports an input error of the service's parameter from
// (the REST query parameter) under the GraphQL argument to.
func renameArgument(err error, from, to string) error {
	var de *domain.Error
	if !errors.As(err, &de) || de.Code != domain.CodeInvalid {
		return err
	}
	for i, f := range de.Fields {
		if len(f.Path) > 0 && f.Path[0] == from {
			path := append([]any{to}, f.Path[1:]...)
			de.Fields[i].Path = path
		}
	}
	return err
}

// found turns a reference a loader did not find into CodeNotFound: the
// record went away between the parent's read and its own.
func found[T any](v *T, err error) error {
	if err == nil && v == nil {
		return domain.ErrNotFound
	}
	return err
}

// fieldErrorsMessage writes input errors as one message: "ids: Enter a
// whole number.".
func fieldErrorsMessage(ue []*model.UserError) string {
	parts := make([]string, len(ue))
	for i, e := range ue {
		parts[i] = e.Message
		if len(e.Field) > 0 {
			parts[i] = strings.Join(e.Field, ".") + ": " + e.Message
		}
	}
	return strings.Join(parts, " ")
}
