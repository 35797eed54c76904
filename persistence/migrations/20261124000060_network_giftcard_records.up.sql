-- The network giftcard's full record (administration API 2.8): who bought
-- it for whom, its own currency and language, and what the by-code record
-- shows. Codes are unique and found case-insensitively.

ALTER TABLE network_giftcards
    ADD COLUMN uuid                uuid        NOT NULL DEFAULT gen_random_uuid() UNIQUE,
    -- The marketplace's currency when the card was made; it never changes.
    ADD COLUMN currency            text        NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
    -- The language of its mails.
    ADD COLUMN language            text        NOT NULL DEFAULT 'fr'
                                   CHECK (language IN ('en', 'fr', 'es', 'it', 'de', 'nl', 'ca', 'pt')),
    -- A card that is not splittable is spent in one usage of its whole value.
    ADD COLUMN is_splittable       boolean     NOT NULL DEFAULT true,
    ADD COLUMN gifter_first_name   text        NOT NULL DEFAULT '' CHECK (char_length(gifter_first_name) <= 150),
    ADD COLUMN gifter_last_name    text        NOT NULL DEFAULT '' CHECK (char_length(gifter_last_name) <= 150),
    ADD COLUMN gifter_email        text        NOT NULL DEFAULT '' CHECK (char_length(gifter_email) <= 254),
    -- No giftee: the card is the gifter's own.
    ADD COLUMN has_giftee          boolean     NOT NULL DEFAULT false,
    ADD COLUMN giftee_first_name   text        NOT NULL DEFAULT '' CHECK (char_length(giftee_first_name) <= 150),
    ADD COLUMN giftee_last_name    text        NOT NULL DEFAULT '' CHECK (char_length(giftee_last_name) <= 150),
    ADD COLUMN giftee_email        text        NOT NULL DEFAULT '' CHECK (char_length(giftee_email) <= 254),
    ADD COLUMN from_gifter         text        NOT NULL DEFAULT '' CHECK (char_length(from_gifter) <= 1000),
    ADD COLUMN theme               text        NOT NULL DEFAULT '' CHECK (char_length(theme) <= 64),
    -- The order that sold it; none for a card made through the API.
    ADD COLUMN order_uuid          uuid,
    ADD COLUMN order_creation_date timestamptz;

UPDATE network_giftcards g SET currency = p.currency FROM partners p WHERE p.id = g.marketplace_id;

-- Lookups by code fold case; so does uniqueness, for every gift code.
CREATE UNIQUE INDEX gift_codes_lower_code_idx ON gift_codes (lower(code));
CREATE UNIQUE INDEX network_giftcards_lower_code_idx ON network_giftcards (lower(code));
CREATE INDEX network_giftcards_gifter_email_idx ON network_giftcards (lower(gifter_email)) WHERE gifter_email <> '';
CREATE INDEX network_giftcards_giftee_email_idx ON network_giftcards (lower(giftee_email)) WHERE giftee_email <> '';
CREATE INDEX network_giftcard_usages_partner_idx ON network_giftcard_usages (partner_id);
