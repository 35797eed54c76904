package domain

import "context"

// UnitOfWork hands an area's stores to its service. S is the area's Stores
// struct: every store the service needs. Stores returns stores that run
// each statement on its own, for reads; RunInTx binds them all to one
// transaction, committed when fn returns nil and rolled back otherwise,
// and returns fn's error or the commit's.
//
// The service owns the transaction: a write that touches several rows, and
// every check that guards it, runs inside one RunInTx, through tx, never
// through Stores (which would read beside the transaction, on another
// connection). Store methods never open a transaction of their own. The
// one exception is a write that is a single statement whose guard re-checks
// everything a concurrent request could change, as a conditional update
// does. Its checks may read before it, through Stores, and it may run
// alone (network's useAlone, docs/DECISIONS.md "Network giftcards").
type UnitOfWork[S any] interface {
	Stores() S
	RunInTx(ctx context.Context, fn func(ctx context.Context, tx S) error) error
}
