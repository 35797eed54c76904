// Package domain holds the sales platform's types, rules and services, and the
// interfaces of the stores those services need. It imports no other package of
// this module: graph, rest and persistence depend on it, never the reverse.
//
// Every rule lives here once. A REST handler and its GraphQL twin decode their
// input into a domain input, call one service method and encode the result, so
// validation, tenancy (the caller travels in the context, see Caller) and state
// changes cannot differ between the two surfaces.
package domain
