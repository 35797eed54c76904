ALTER TABLE network_giftcard_movements
    ALTER CONSTRAINT network_giftcard_movements_wallet_movement_id_fkey NOT DEFERRABLE;
