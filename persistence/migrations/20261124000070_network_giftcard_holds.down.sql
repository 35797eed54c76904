ALTER TABLE network_giftcard_movements DROP COLUMN hold_id;
DELETE FROM network_giftcard_movements WHERE kind IN ('hold', 'release', 'adjust');
ALTER TABLE network_giftcard_movements DROP CONSTRAINT network_giftcard_movements_kind_check;
ALTER TABLE network_giftcard_movements ADD CONSTRAINT network_giftcard_movements_kind_check
    CHECK (kind IN ('issue', 'use', 'cancel'));
DROP TABLE network_giftcard_holds;
