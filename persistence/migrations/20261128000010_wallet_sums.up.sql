-- Wallet balances and movements hold sums, not single amounts: the
-- platform's accounts (payin, payin_clearing, commission, payouts) add up
-- every tenant's payments for all time, and a payout moves a partner's
-- period at once. NUMERIC(38,2) keeps 36 digits before the point, where
-- one payment is at most 1,000,000.00 (payments.MaxAmount): see
-- docs/DECISIONS.md, "Wallets". Raising a numeric's precision at the same
-- scale rewrites no row (the checks are verified again: about 0.5 s a
-- million movements, under the table's exclusive lock).
ALTER TABLE wallets ALTER COLUMN balance TYPE numeric(38,2);
ALTER TABLE wallet_movements ALTER COLUMN amount TYPE numeric(38,2);
ALTER TABLE payout_requests
    ALTER COLUMN amount TYPE numeric(38,2),
    ALTER COLUMN usages_amount TYPE numeric(38,2);
-- The payments still in progress, least recently looked at first: the
-- payouts job asks the provider about those left so for a while
-- (PaymentService.SettleStalePayments).
CREATE INDEX payments_in_progress_idx ON payments (modified_on, id) WHERE status = 'ip';
