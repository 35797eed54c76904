DROP TABLE network_voucher_movements;
DROP TABLE network_voucher_usages;

DROP INDEX network_vouchers_giftee_email_idx;
DROP INDEX network_vouchers_gifter_email_idx;
DROP INDEX network_vouchers_code_lower_idx;
ALTER TABLE network_vouchers
    DROP CONSTRAINT network_vouchers_usage_dates_check,
    DROP COLUMN uuid,
    DROP COLUMN language,
    DROP COLUMN gifter_first_name,
    DROP COLUMN gifter_last_name,
    DROP COLUMN gifter_email,
    DROP COLUMN giftee_first_name,
    DROP COLUMN giftee_last_name,
    DROP COLUMN giftee_email,
    DROP COLUMN first_usage_date,
    DROP COLUMN last_usage_date;

DROP INDEX box_offers_product_id_idx;
ALTER TABLE box_offers
    DROP COLUMN name,
    DROP COLUMN description,
    DROP COLUMN terms_of_use,
    DROP COLUMN edition_date,
    DROP COLUMN rejection_date,
    DROP COLUMN is_active,
    DROP COLUMN ranking,
    DROP COLUMN product_id;

DROP INDEX network_voucher_box_images_media_id_idx;
ALTER TABLE network_voucher_box_images DROP COLUMN media_id, DROP COLUMN cover;

DROP TABLE network_voucher_box_products;

DROP INDEX network_voucher_boxes_price_range_id_idx;
ALTER TABLE network_voucher_boxes
    DROP COLUMN creation_date,
    DROP COLUMN weight,
    DROP COLUMN price_scope,
    DROP COLUMN nb_mpo_orders,
    DROP COLUMN price_range_id,
    DROP COLUMN management_fees,
    DROP COLUMN commission_rate;

DROP TABLE network_voucher_price_ranges;
