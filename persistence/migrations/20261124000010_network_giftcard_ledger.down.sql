DROP TABLE network_giftcard_movements;
DROP TABLE network_giftcard_usages;
ALTER TABLE network_giftcards DROP COLUMN is_active;
