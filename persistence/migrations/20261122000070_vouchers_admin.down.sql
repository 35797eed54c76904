DROP INDEX giftcards_created_on_idx;
ALTER TABLE giftcards DROP COLUMN gifter_first_name, DROP COLUMN gifter_last_name;
DROP TABLE voucher_state_changes;
DROP TABLE voucher_options;
DROP INDEX vouchers_creation_date_idx;
ALTER TABLE vouchers
    DROP COLUMN summary, DROP COLUMN origin, DROP COLUMN origin_url, DROP COLUMN type,
    DROP COLUMN api_version, DROP COLUMN language, DROP COLUMN imported_from,
    DROP COLUMN payment_type, DROP COLUMN nb_nights, DROP COLUMN nb_babies,
    DROP COLUMN nb_children, DROP COLUMN nb_adults, DROP COLUMN reception_mode,
    DROP COLUMN expedition_status, DROP COLUMN expedition_date, DROP COLUMN cover_letter_url,
    DROP COLUMN printable_pdf_file, DROP COLUMN gifter_id, DROP COLUMN gifter_civility,
    DROP COLUMN gifter_email, DROP COLUMN gifter_address, DROP COLUMN gifter_zipcode,
    DROP COLUMN gifter_city, DROP COLUMN gifter_country, DROP COLUMN gifter_wired_phone,
    DROP COLUMN gifter_mobile_phone, DROP COLUMN self_gifted, DROP COLUMN from_gifter,
    DROP COLUMN giftee_id, DROP COLUMN giftee_email, DROP COLUMN giftee_phone_number,
    DROP COLUMN recipient_address, DROP COLUMN to_giftee, DROP COLUMN message,
    DROP COLUMN purchase_price, DROP COLUMN rent_price, DROP COLUMN bought_rent_price,
    DROP COLUMN activation_date, DROP COLUMN usage_date, DROP COLUMN is_group_payment,
    DROP COLUMN is_extendable, DROP COLUMN is_refundable, DROP COLUMN coupon_id,
    DROP COLUMN version;
DROP TABLE coupons;
DROP TABLE customers;
