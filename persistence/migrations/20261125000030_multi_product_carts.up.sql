-- Multi-product carts (domain/mpcart): a partner's cart of its
-- marketplace's network products (network giftcards by amount, network
-- voucher boxes), checked when it is made and kept as the contract's
-- `data` object until it lapses. Nothing refers to a cart yet: a lapsed one
-- is deleted by the next creations (a few each), without a job.
CREATE TABLE multi_product_carts (
    id             uuid        PRIMARY KEY,
    -- The partner the cart is made for (partner_uuid) and the marketplace
    -- whose settings and boxes its lines were checked against: the
    -- partner itself when it is a marketplace.
    partner_id     bigint      NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    marketplace_id bigint      NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    -- {"network_giftcards": [...], "network_vouchers": [...]}, amounts as
    -- numbers with two decimals.
    data           jsonb       NOT NULL CHECK (jsonb_typeof(data) = 'object'),
    created_at     timestamptz NOT NULL,
    expires_at     timestamptz NOT NULL,
    CHECK (expires_at > created_at)
);
CREATE INDEX multi_product_carts_partner_id_idx ON multi_product_carts (partner_id);
CREATE INDEX multi_product_carts_marketplace_id_idx ON multi_product_carts (marketplace_id);
-- The purge of lapsed carts.
CREATE INDEX multi_product_carts_expires_at_idx ON multi_product_carts (expires_at);
