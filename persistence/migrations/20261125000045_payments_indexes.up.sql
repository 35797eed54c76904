-- The payments list by status: a partner's (or a referrer's partners')
-- payments of one or a few statuses are counted off this index alone,
-- rather than from every row of the partner in the table, and a status
-- with a period reads only that period's entries.
-- See docs/PERFORMANCE.md, "Payments".
CREATE INDEX payments_partner_status_created_idx ON payments (partner_id, status, created_on DESC, id DESC);
-- The refunds the provider left pending, which the payouts job asks for
-- again: few among many.
CREATE INDEX payment_refunds_pending_idx ON payment_refunds (id) WHERE status = 'pending';
