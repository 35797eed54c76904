-- Fails, and changes nothing, while a value is wider than the old types.
DROP INDEX payments_in_progress_idx;
ALTER TABLE payout_requests
    ALTER COLUMN amount TYPE numeric(14,2),
    ALTER COLUMN usages_amount TYPE numeric(14,2);
ALTER TABLE wallet_movements ALTER COLUMN amount TYPE numeric(12,2);
ALTER TABLE wallets ALTER COLUMN balance TYPE numeric(16,2);
