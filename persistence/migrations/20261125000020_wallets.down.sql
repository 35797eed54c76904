-- The cards keep their remaining values; their ledgers lose the payments'
-- movements, as the holds' rollback drops theirs.
ALTER TABLE network_giftcard_movements DROP CONSTRAINT network_giftcard_movements_sign_check;
ALTER TABLE network_giftcard_movements DROP CONSTRAINT network_giftcard_movements_wallet_check;
ALTER TABLE network_giftcard_movements DROP COLUMN wallet_movement_id;
DELETE FROM network_giftcard_movements WHERE kind IN ('payment', 'refund');
ALTER TABLE network_giftcard_movements DROP CONSTRAINT network_giftcard_movements_kind_check;
ALTER TABLE network_giftcard_movements ADD CONSTRAINT network_giftcard_movements_kind_check
    CHECK (kind IN ('issue', 'use', 'cancel', 'hold', 'release', 'adjust'));
DROP TABLE wallet_movements;
DROP TABLE wallets;
ALTER TABLE network_giftcards DROP CONSTRAINT network_giftcards_id_uuid_key;
