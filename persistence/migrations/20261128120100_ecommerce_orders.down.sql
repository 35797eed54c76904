DROP TABLE order_payments;
DROP TABLE ecommerce_order_lines;
DROP TABLE ecommerce_orders;
DROP TABLE orders;
