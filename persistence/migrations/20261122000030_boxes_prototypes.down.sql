ALTER TABLE giftcard_prototypes
    DROP COLUMN title,
    DROP COLUMN description,
    DROP COLUMN terms_of_use,
    DROP COLUMN customized_amount,
    DROP COLUMN minimum_amount,
    DROP COLUMN predefined_amounts,
    DROP COLUMN money_pot_activated,
    DROP COLUMN money_pot_logo,
    DROP COLUMN validity_period,
    DROP COLUMN validity_unit;

DROP TABLE voucher_prototype_themes;
DROP INDEX voucher_prototypes_universe_id_idx;
ALTER TABLE voucher_prototypes DROP COLUMN universe_id;

DROP INDEX box_offers_box_id_status_idx;
DROP TABLE network_voucher_box_images;
DROP TABLE network_voucher_box_universes;
DROP INDEX network_voucher_boxes_marketplace_ranking_idx;
ALTER TABLE network_voucher_boxes
    DROP COLUMN name,
    DROP COLUMN short_description,
    DROP COLUMN long_description,
    DROP COLUMN is_active,
    DROP COLUMN is_highlight,
    DROP COLUMN display_nb_offers,
    DROP COLUMN price,
    DROP COLUMN ranking,
    DROP COLUMN people_included,
    DROP COLUMN max_number_usages,
    DROP COLUMN max_days_after_first_usage;
