DROP TABLE voucher_prototype_options;
DROP TABLE option_services;
DROP TABLE options;
DROP TABLE option_categories;
DROP TABLE voucher_prototype_images;
ALTER TABLE voucher_prototypes
    DROP COLUMN is_active, DROP COLUMN type, DROP COLUMN is_highlight,
    DROP COLUMN price_scope, DROP COLUMN max_capacity, DROP COLUMN min_capacity,
    DROP COLUMN stay_price, DROP COLUMN adults_price, DROP COLUMN children_price,
    DROP COLUMN baby_price, DROP COLUMN description, DROP COLUMN long_description,
    DROP COLUMN rent_conditions, DROP COLUMN how_to_book_html, DROP COLUMN pdf_description,
    DROP COLUMN environment_id, DROP COLUMN last_active_day, DROP COLUMN ranking,
    DROP COLUMN cover_image_id, DROP COLUMN created_on;
DROP TABLE environments;
