DROP TABLE box_offers;
DROP TABLE network_voucher_boxes;
DROP TABLE giftcard_prototypes;
DROP TABLE voucher_prototypes;
DROP TABLE themes;
DROP TABLE universes;
ALTER TABLE partners DROP COLUMN time_zone, DROP COLUMN currency;
