-- Public ids of outbound messages ("whmsg_" and 22 base62 characters, as lib/ids.ts generatePublicId
-- draws them), about five times cheaper: every written notification calls this, and the former body
-- (64 bytes as a set, filtered, sorted and aggregated) took almost half of the time of the statement
-- that writes messages.
--
-- 64 uniform bytes (SHA-512 of two random UUIDs) in base64 give 85 whole 6-bit characters; dropping "+"
-- and "/" keeps each remaining character uniform over the 62 others, without modulo bias. Fewer than 22
-- of the first 84 survive with a probability below 1e-70. encode() breaks base64 lines at 76 characters,
-- so the line break is dropped too. A single SELECT of one expression: the planner inlines it.
CREATE OR REPLACE FUNCTION outbound_public_id(prefix text) RETURNS text LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT prefix || left(translate(left(encode(sha512(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid())), 'base64'), 85), E'+/\n', ''), 22)
$$;
