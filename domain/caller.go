package domain

import (
	"context"
	"slices"
)

// Caller is who makes a request: a user and, for partner accounts, the partner
// whose data they may see. Services read it from the context; tenancy is
// decided from it and nowhere else.
type Caller struct {
	User        *User
	Partner     *Partner // nil for staff accounts without a partner
	Permissions []string
	// TokenID is the API token the request was authenticated with; 0 for a
	// caller made without one (the commands, the demo loader). Idempotency
	// keys are scoped by it.
	TokenID int64
}

// HasPermission reports whether the caller holds the named permission.
// Staff hold every permission.
func (c *Caller) HasPermission(name string) bool {
	return c.User.IsStaff || slices.Contains(c.Permissions, name)
}

type authKey struct{}

type authResult struct {
	caller *Caller
	err    error
}

// WithCaller returns a context carrying an authenticated caller.
func WithCaller(ctx context.Context, c *Caller) context.Context {
	return context.WithValue(ctx, authKey{}, authResult{caller: c})
}

// WithAuthError returns a context recording that the request carried
// credentials that were rejected, so that any operation needing a caller
// reports that error rather than "not provided".
func WithAuthError(ctx context.Context, err error) context.Context {
	return context.WithValue(ctx, authKey{}, authResult{err: err})
}

// CallerFrom returns the caller of the request. It fails closed: with no
// caller in the context it returns a CodeUnauthenticated error.
func CallerFrom(ctx context.Context) (*Caller, error) {
	r, _ := ctx.Value(authKey{}).(authResult)
	if r.err != nil {
		return nil, r.err
	}
	if r.caller == nil {
		return nil, &Error{Code: CodeUnauthenticated, Message: MsgNotAuthenticated}
	}
	return r.caller, nil
}

// PartnerFrom returns the caller's partner: the tenant of every partner-scoped
// operation. A caller without a partner is forbidden.
func PartnerFrom(ctx context.Context) (*Partner, error) {
	c, err := CallerFrom(ctx)
	if err != nil {
		return nil, err
	}
	if c.Partner == nil {
		return nil, &Error{Code: CodeForbidden, Message: MsgPermissionDenied}
	}
	return c.Partner, nil
}

type clientKey struct{}

// WithClientAddr records the network address the request came from; login
// throttling counts failures per address.
func WithClientAddr(ctx context.Context, addr string) context.Context {
	return context.WithValue(ctx, clientKey{}, addr)
}

func ClientAddr(ctx context.Context) string {
	addr, _ := ctx.Value(clientKey{}).(string)
	return addr
}
