-- Payout requests (domain/payments/payouts.go): a partner's paid payments
-- and network giftcard usages of a period, gathered by the payouts job.

-- The network's payout ids name payout requests from now on. No payout
-- request was ever built before this migration: any id there is a
-- stand-in, cleared (its usage may be cancelled again). The down
-- migration cannot bring the stand-ins back.
UPDATE network_giftcard_usages SET payout_id = NULL
    WHERE payout_id IS NOT NULL AND payout_id NOT IN (SELECT id FROM payout_requests);
UPDATE network_giftcard_movements SET payout_id = NULL
    WHERE payout_id IS NOT NULL AND payout_id NOT IN (SELECT id FROM payout_requests);
ALTER TABLE network_giftcard_usages ADD CONSTRAINT network_giftcard_usages_payout_fkey
    FOREIGN KEY (payout_id) REFERENCES payout_requests (id) ON DELETE RESTRICT;
ALTER TABLE network_giftcard_movements ADD CONSTRAINT network_giftcard_movements_payout_fkey
    FOREIGN KEY (payout_id) REFERENCES payout_requests (id) ON DELETE RESTRICT;
CREATE INDEX network_giftcard_usages_payout_idx ON network_giftcard_usages (payout_id, id) WHERE payout_id IS NOT NULL;
-- The usages a partner's next payout gathers.
CREATE INDEX network_giftcard_usages_due_idx ON network_giftcard_usages (partner_id)
    WHERE payout_id IS NULL AND is_active;
-- A payout puts its usages' use movements in it too (by usage).
CREATE INDEX network_giftcard_movements_usage_idx ON network_giftcard_movements (usage_id) WHERE usage_id IS NOT NULL;

-- amount is what moves from the payee's wallet (its payments' net amounts
-- less their refunds); usages_amount the value of its network giftcard
-- usages, which the card's marketplace owes the partner outside the
-- hub's wallets.
ALTER TABLE payout_requests
    ADD COLUMN usages_amount numeric(14,2) NOT NULL DEFAULT 0 CHECK (usages_amount >= 0),
    ADD CONSTRAINT payout_requests_dates_check CHECK ((status = 'to be validated') = (validation_date IS NULL)
        AND (status = 'paid') = (paid_date IS NOT NULL));
CREATE INDEX payout_requests_partner_idx ON payout_requests (partner_id, creation_date DESC, id DESC);

-- The payout request that accounted for a refund: the payment's own when
-- the refund came before it (its net amount was counted less the refund),
-- else the next one, which deducts it.
ALTER TABLE payment_refunds ADD COLUMN payout_request_id bigint REFERENCES payout_requests (id) ON DELETE RESTRICT;
-- The succeeded refunds no payout accounted for yet: few at any time (a
-- failed refund is never accounted for, so it is left out).
CREATE INDEX payment_refunds_unaccounted_idx ON payment_refunds (payment_id)
    WHERE payout_request_id IS NULL AND status = 'succeeded';

-- The payments a payee's next payout gathers.
CREATE INDEX payments_due_idx ON payments ((coalesce(invoicing_marketplace_id, partner_id)))
    WHERE payout_request_id IS NULL AND status = 'ok';
