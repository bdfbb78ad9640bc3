-- Every delivery is written twice: created by the fan-out relay, then updated when its attempt is
-- recorded (lib/outbound/record.ts). Packed full, a page had no room for the updated row, so three updates
-- in four went to another page with a new entry in each of the table's four indexes. Half-full pages keep
-- the updated row on its page (a HOT update, no index entries): in the outbound benchmark, every update
-- became HOT and the database's work per delivery fell by about a sixth. The table takes about twice
-- the space (about 100 bytes a row, swept after 30 days). Pages written from now on are left half-full.
ALTER TABLE "outbound_deliveries" SET (fillfactor = 50);
