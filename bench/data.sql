-- Bench data on top of `salesplatform seed demo`: ten more active boxes of
-- the demo marketplace (partner 1), five validated offers each, every
-- offer's partner in the marketplace's network with two labels.
DO $$
DECLARE b bigint; p bigint;
BEGIN
  FOR i IN 1..10 LOOP
    INSERT INTO network_voucher_boxes (marketplace_id, name, short_description, long_description, is_active, price, ranking)
      VALUES (1, jsonb_build_object('fr', 'Coffret ' || i, 'en', 'Box ' || i), '{"fr": "Court"}', '{"fr": "Long texte"}', true, 49.90, 100 + i)
      RETURNING id INTO b;
    FOR j IN 1..5 LOOP
      INSERT INTO partners (name, status) VALUES ('Bench partner ' || i || '-' || j, 'a') RETURNING id INTO p;
      INSERT INTO network_partners (marketplace_id, partner_id) VALUES (1, p);
      INSERT INTO partner_labels (partner_id, name, logo_url)
        VALUES (p, 'Label A', 'https://cdn.example.com/a.png'), (p, 'Label B', 'https://cdn.example.com/b.png');
      INSERT INTO box_offers (box_id, partner_id, status) VALUES (b, p, 'VALIDATED');
    END LOOP;
  END LOOP;
END $$;
ANALYZE;
