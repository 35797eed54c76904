DROP INDEX network_giftcard_usages_partner_idx;
DROP INDEX network_giftcards_giftee_email_idx;
DROP INDEX network_giftcards_gifter_email_idx;
DROP INDEX network_giftcards_lower_code_idx;
DROP INDEX gift_codes_lower_code_idx;
ALTER TABLE network_giftcards
    DROP COLUMN uuid, DROP COLUMN currency, DROP COLUMN language, DROP COLUMN is_splittable,
    DROP COLUMN gifter_first_name, DROP COLUMN gifter_last_name, DROP COLUMN gifter_email,
    DROP COLUMN has_giftee, DROP COLUMN giftee_first_name, DROP COLUMN giftee_last_name, DROP COLUMN giftee_email,
    DROP COLUMN from_gifter, DROP COLUMN theme, DROP COLUMN order_uuid, DROP COLUMN order_creation_date;
