-- Network partners: the partners where a marketplace's network giftcards
-- and network vouchers are accepted, made and updated by the marketplace
-- through the administration API, with their company record.

-- A partner's company record. partner_legal_information (migration 10)
-- already holds the catalogue's legal information: the same facts as the
-- administration's partner record, under other names for some
-- (legal_first_name and legal_last_name are the legal representative's;
-- address_line_1 and 2, postal_code, city and country the head office's;
-- agency_website the website). It gains what that record has beyond them,
-- so that a partner has one company record, which the catalogue shows and
-- the administration API writes. company_type and postal_code keep no
-- CHECK: the catalogue's management writes them as free texts; the
-- administration API checks its own inputs.
ALTER TABLE partner_legal_information
    ADD COLUMN commercial_name               text    NOT NULL DEFAULT '',
    ADD COLUMN short_name                    text    NOT NULL DEFAULT '',
    ADD COLUMN legal_representative_birthday date,
    ADD COLUMN ape                           text    NOT NULL DEFAULT '',
    ADD COLUMN agency_email                  text    NOT NULL DEFAULT '',
    ADD COLUMN hide_from_stats               boolean NOT NULL DEFAULT false,
    ADD COLUMN third_party_sales_only        boolean NOT NULL DEFAULT false,
    -- The partner that brought this one.
    ADD COLUMN referrer_id                   bigint  REFERENCES partners (id) ON DELETE SET NULL,
    ADD CONSTRAINT partner_legal_information_referrer_check CHECK (referrer_id <> partner_id);
CREATE INDEX partner_legal_information_siret_number_idx ON partner_legal_information (siret_number)
    WHERE siret_number <> '';
CREATE INDEX partner_legal_information_referrer_id_idx ON partner_legal_information (referrer_id);

-- The marketplace's own id of a partner of its network: uses of network
-- giftcards name the partner by it (an int64, so digits only, without
-- leading zeros, compared as text).
ALTER TABLE network_partners
    ADD COLUMN source_id text CHECK (source_id ~ '^[1-9][0-9]{0,18}$'),
    ADD CONSTRAINT network_partners_source_id_key UNIQUE (marketplace_id, source_id);
UPDATE network_partners SET source_id = partner_id::text;

-- A link made without a source id (the catalogue's management, the demo)
-- gets the partner's id, as the administration API gives by default, when
-- the network has no partner under that source id yet; else none.
CREATE FUNCTION network_partners_default_source_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM network_partners
                   WHERE marketplace_id = NEW.marketplace_id AND source_id = NEW.partner_id::text) THEN
        NEW.source_id := NEW.partner_id::text;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER network_partners_default_source_id BEFORE INSERT ON network_partners
    FOR EACH ROW WHEN (NEW.source_id IS NULL) EXECUTE FUNCTION network_partners_default_source_id();

-- The partners where a marketplace's network vouchers may be used: its
-- network voucher settings' partners, as network_giftcard_allowed_partners
-- are its network giftcard settings'.
CREATE TABLE network_voucher_allowed_partners (
    marketplace_id bigint NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    partner_id     bigint NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    PRIMARY KEY (marketplace_id, partner_id)
);
CREATE INDEX network_voucher_allowed_partners_partner_id_idx ON network_voucher_allowed_partners (partner_id);

-- A partner's tags (partner_tags), in the order given: at most 20
-- of at most 64 characters, each once.
CREATE TABLE partner_tags (
    partner_id bigint   NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    position   smallint NOT NULL CHECK (position BETWEEN 0 AND 19),
    tag        text     NOT NULL CHECK (tag <> '' AND char_length(tag) <= 64),
    PRIMARY KEY (partner_id, position),
    UNIQUE (partner_id, tag)
);
