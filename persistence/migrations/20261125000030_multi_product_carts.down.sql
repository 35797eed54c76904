DROP TABLE multi_product_carts;
