// Package graph is the GraphQL surface: gqlgen resolvers that decode their
// arguments, call one domain service method and encode the result. No rule
// lives here; see package domain.
package graph

import (
	"time"

	"salesplatform/domain/services"
)

// Resolver holds the domain services the resolvers call: the same ones the
// REST handlers call.
type Resolver struct {
	services.Services
	// LoaderWait is how long a loader gathers keys before it reads them
	// that no look-ahead prefetched; zero is loaderWait.
	LoaderWait time.Duration
	// NoFastPath leaves every field to gqlgen's executor (fastpath.go):
	// not a setting, for the test that compares the two.
	NoFastPath bool
}
