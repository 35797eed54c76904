ALTER TABLE network_partners DROP COLUMN created_here;
