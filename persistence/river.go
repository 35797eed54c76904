package persistence

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
)

// ErrJobsCancelled is a stop that had to cancel jobs still being worked:
// River retries them on the next worker.
var ErrJobsCancelled = errors.New("jobs still being worked at the stop were cancelled, to be retried")

// StopRiver stops a River client of the outbox's queues (the mails', the
// webhook deliveries'): it stops fetching jobs and waits for those being
// worked until ctx ends, then cancels them and waits at most grace for
// them to return. It returns once no job is being worked.
func StopRiver(ctx context.Context, c *river.Client[pgx.Tx], grace time.Duration) error {
	err := c.Stop(ctx)
	if err == nil {
		return nil
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), grace)
	defer cancel()
	if cerr := c.StopAndCancel(cctx); cerr != nil {
		return fmt.Errorf("stop: %w", cerr)
	}
	return fmt.Errorf("%w: %w", ErrJobsCancelled, err)
}
