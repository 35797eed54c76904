package graph

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"salesplatform/domain"
	"salesplatform/domain/media"
	"salesplatform/graph/httptransport"
)

// queryCacheSize is how many parsed queries are kept.
const queryCacheSize = 1000

// CodeRequestEnded is the extensions.code of the fields left unresolved
// when the request's context ended during execution.
const CodeRequestEnded = "REQUEST_ENDED"

// NewHandler serves the graph at one endpoint (POST, and GET for queries)
// with introspection on, each request with its own dataloaders. Operations
// deeper than maxDepth, more complex than maxComplexity or with more than
// one __schema are refused before they run (limits.go); answers larger
// than httptransport.DefaultMaxResponseBytes are not sent. logFrom gives
// the request's logger, for errors that are masked.
//
// When the request's context ends (the client went away, a deadline of the
// server passed), the pipeline stops: the complexity walk looks at the
// context as it counts (ComplexityLimit); gqlgen's executor produces no
// response for a context already done when execution would start
// (executor.DispatchOperation's handler returns nil, and the transport then
// writes nothing); resolvers that read the database pass the context to
// every statement; and stopWhenDone resolves no further field, so that
// execution does not walk on through fields that never look at the context
// (introspection, values already loaded).
func NewHandler(r *Resolver, logFrom func(context.Context) *slog.Logger) http.Handler {
	schema := NewExecutableSchema(Config{Resolvers: r})
	srv := handler.New(connectionSchema{schema})
	srv.AddTransport(httptransport.GET{})
	// Uploads (uploadMedia): one file, the media limit and room for the
	// operations; before POST, which refuses non-JSON bodies.
	srv.AddTransport(httptransport.MultipartForm{MaxBodyBytes: media.MaxMediaBytes + 256<<10, MaxFiles: 1, Log: logFrom})
	srv.AddTransport(httptransport.POST{})
	queries := lru.New[*ast.QueryDocument](queryCacheSize)
	srv.SetQueryCache(queries)
	srv.SetValidationRulesFn(validationRules)
	srv.Use(extension.Introspection{})
	srv.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](100)})
	srv.Use(DocumentLimit{Cache: queries}) // after the persisted query is read
	srv.Use(TextInputs{})                  // no NUL, only UTF-8, in variables and literals
	srv.Use(DepthLimit{Max: maxDepth})
	srv.Use(&ComplexityLimit{Max: maxComplexity})
	srv.AroundFields(stopWhenDone)
	if !r.NoFastPath {
		srv.AroundRootFields(fastPath{schema: schema.(*executableSchema)}.rootField)
	}
	log := ctxLogger(logFrom)
	srv.SetErrorPresenter(presentInputErrors(presentError(log)))
	srv.SetRecoverFunc(recoverPanic(log))
	return withLoaders(r, srv)
}

// stopWhenDone resolves a field only while the request's context is not
// done; after, the field is an error (REQUEST_ENDED, not logged) and its
// selection is not walked.
func stopWhenDone(ctx context.Context, next graphql.Resolver) (any, error) {
	select {
	case <-ctx.Done():
		err := gqlerror.Errorf("the request ended before this field was resolved")
		errcode.Set(err, CodeRequestEnded)
		return nil, err
	default:
		return next(ctx)
	}
}

// presentInputErrors answers the errors gqlgen makes when an argument's
// value does not coerce (a custom scalar's Unmarshal refusing it: a UUID
// given 1, a Decimal given 1e400, an Int64 given "x") as BAD_USER_INPUT
// with the scalar's message. presentError would log them and mask them as
// internal errors, since they wrap a plain error. gqlgen reports them on
// the argument's path (the field's path, then the argument's name and the
// input fields' names and indexes), below the field being resolved, where
// no resolver's error is. A request error gqlgen has already coded (a
// variable's default that no number holds: GRAPHQL_VALIDATION_FAILED)
// keeps its code. Everything else goes to next.
func presentInputErrors(next graphql.ErrorPresenterFunc) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		var gqlErr *gqlerror.Error
		var de *domain.Error
		if !errors.As(err, &gqlErr) || gqlErr.Err == nil || errors.As(err, &de) {
			return next(ctx, err)
		}
		fc := graphql.GetFieldContext(ctx)
		code, coded := gqlErr.Extensions["code"].(string)
		switch {
		case fc == nil && coded:
		case fc != nil && below(gqlErr.Path, fc.Path()):
			code = "BAD_USER_INPUT"
		default:
			return next(ctx, err)
		}
		return &gqlerror.Error{
			Message:    gqlErr.Message,
			Path:       gqlErr.Path,
			Locations:  gqlErr.Locations,
			Extensions: map[string]any{"code": code},
		}
	}
}

// below tells whether path is strictly below field.
func below(path, field ast.Path) bool {
	if len(path) <= len(field) {
		return false
	}
	for i, p := range field {
		if path[i] != p {
			return false
		}
	}
	return true
}

// ctxLogger adapts a per-request slog logger to Logger.
type ctxLogger func(context.Context) *slog.Logger

func (l ctxLogger) Error(ctx context.Context, msg string, args ...any) {
	l(ctx).Error(msg, args...)
}
