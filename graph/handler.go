package graph

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/vektah/gqlparser/v2/ast"

	"salesplatform/domain"
	"salesplatform/graph/httptransport"
)

// queryCacheSize is how many parsed queries are kept.
const queryCacheSize = 1000

// NewHandler serves the graph at one endpoint (POST, and GET for queries)
// with introspection on, each request with its own dataloaders. Operations
// deeper than maxDepth or more complex than maxComplexity are refused
// before they run (limits.go). logFrom gives the request's logger, for
// errors that are masked.
func NewHandler(r *Resolver, logFrom func(context.Context) *slog.Logger) http.Handler {
	srv := handler.New(connectionSchema{NewExecutableSchema(Config{Resolvers: r})})
	srv.AddTransport(httptransport.GET{})
	// Uploads (uploadMedia): one file, the media limit and room for the
	// operations; before POST, which refuses non-JSON bodies.
	srv.AddTransport(httptransport.MultipartForm{MaxBodyBytes: domain.MaxMediaBytes + 256<<10, MaxFiles: 1})
	srv.AddTransport(httptransport.POST{})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](queryCacheSize))
	srv.Use(extension.Introspection{})
	srv.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](100)})
	srv.Use(DepthLimit{Max: maxDepth})
	srv.Use(extension.FixedComplexityLimit(maxComplexity))
	log := ctxLogger(logFrom)
	srv.SetErrorPresenter(presentError(log))
	srv.SetRecoverFunc(recoverPanic(log))
	return withLoaders(r, srv)
}

// ctxLogger adapts a per-request slog logger to Logger.
type ctxLogger func(context.Context) *slog.Logger

func (l ctxLogger) Error(ctx context.Context, msg string, args ...any) {
	l(ctx).Error(msg, args...)
}
