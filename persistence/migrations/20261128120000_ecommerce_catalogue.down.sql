DROP TABLE ecommerce_delivery_settings;
DROP TABLE ecommerce_attributes;
DROP TABLE ecommerce_variants;
DROP TABLE ecommerce_products;
