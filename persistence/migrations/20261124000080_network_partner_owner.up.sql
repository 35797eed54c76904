-- A network partner created through a marketplace's network (POST
-- /api/network_partners/) is that marketplace's to manage: its own
-- settings (status, statistics, referrer) change only through it. A
-- partner put in a network otherwise (a shop of its own, a partner of
-- several networks) keeps them; the network may change only its links.
ALTER TABLE network_partners ADD COLUMN created_here boolean NOT NULL DEFAULT false;
