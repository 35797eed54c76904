-- Bench data for the 100-box rows, on top of data.sql: boxes 11 to 100 of
-- the same kind (active, of the demo marketplace, five validated offers
-- each, every offer's partner in the network with two labels), ranked after
-- data.sql's. bench/compare.sh loads it only before the first row that asks
-- for more than 10 boxes, so the smaller rows run on the data as before.
DO $$
DECLARE b bigint; p bigint;
BEGIN
  FOR i IN 11..100 LOOP
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
