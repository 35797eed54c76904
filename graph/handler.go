package graph

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/vektah/gqlparser/v2/ast"

	"salesplatform/graph/httptransport"
)

// Request limits: a query deeper or more complex than this is refused
// before it runs.
const (
	maxComplexity  = 1000
	queryCacheSize = 1000
)

// NewHandler serves the graph at one endpoint (POST, and GET for queries)
// with introspection on. logFrom gives the request's logger, for errors that
// are masked.
func NewHandler(r *Resolver, logFrom func(context.Context) *slog.Logger) http.Handler {
	srv := handler.New(NewExecutableSchema(Config{Resolvers: r}))
	srv.AddTransport(httptransport.GET{})
	srv.AddTransport(httptransport.POST{})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](queryCacheSize))
	srv.Use(extension.Introspection{})
	srv.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](100)})
	srv.Use(extension.FixedComplexityLimit(maxComplexity))
	log := ctxLogger(logFrom)
	srv.SetErrorPresenter(presentError(log))
	srv.SetRecoverFunc(recoverPanic(log))
	return srv
}

// ctxLogger adapts a per-request slog logger to Logger.
type ctxLogger func(context.Context) *slog.Logger

func (l ctxLogger) Error(ctx context.Context, msg string, args ...any) {
	l(ctx).Error(msg, args...)
}
