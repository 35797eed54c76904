-- A payment's draw from a network giftcard, or its refund to one, writes
-- the card's ledger movement (the network area's, through its port) before
-- the wallet movement it names (the payments area's), in one transaction:
-- the reference is checked at the commit, so that neither commits alone.
ALTER TABLE network_giftcard_movements
    ALTER CONSTRAINT network_giftcard_movements_wallet_movement_id_fkey DEFERRABLE INITIALLY DEFERRED;
