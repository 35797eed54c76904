DROP TABLE partner_tags;
DROP TABLE network_voucher_allowed_partners;
DROP TRIGGER network_partners_default_source_id ON network_partners;
DROP FUNCTION network_partners_default_source_id();
ALTER TABLE network_partners DROP COLUMN source_id;
DROP INDEX partner_legal_information_referrer_id_idx;
DROP INDEX partner_legal_information_siret_number_idx;
ALTER TABLE partner_legal_information
    DROP CONSTRAINT partner_legal_information_referrer_check,
    DROP COLUMN referrer_id,
    DROP COLUMN third_party_sales_only,
    DROP COLUMN hide_from_stats,
    DROP COLUMN agency_email,
    DROP COLUMN ape,
    DROP COLUMN legal_representative_birthday,
    DROP COLUMN short_name,
    DROP COLUMN commercial_name;
