import type pg from "pg";
import { occurrencesBetween } from "@/lib/events/occurrences";
import type { Recurrence } from "@/lib/events/schema";

/*
 * The chat benchmark's knowledge: `count` events in one account, spread from 60 days ago over the
 * following ~16 months (one every 7 minutes at 100,000), with titles, locations and descriptions drawn
 * from realistic word lists, so a topic like "jazz" or "pottery" matches a few percent of the events
 * and goes through the trigram indexes rather than matching everything or nothing.
 * One event in five is a recurring series (daily, weekly, monthly and yearly in turn), and one series in
 * ten has two of its coming occurrences removed (exceptions), as a venue's calendar of classes would.
 */

const KINDS = [
  "Jazz Night",
  "Wine tasting",
  "Pottery workshop",
  "Yoga class",
  "Book club",
  "Salsa evening",
  "Open mic",
  "Photography walk",
  "Cooking class",
  "Craft beer tasting",
  "Film screening",
  "Poetry slam",
  "Chess meetup",
  "Street food market",
  "Choir concert",
  "Flea market",
  "Life drawing",
  "Techno party",
  "Stand-up comedy",
  "Garden tour",
  "Blues session",
  "Cheese tasting",
  "Knitting circle",
  "Swing dance",
  "History talk",
  "Science café",
  "Board game night",
  "Piano recital",
  "Vinyl fair",
  "Quiz night",
];
const QUALIFIERS = [
  "Summer",
  "Late",
  "Sunday",
  "Beginners'",
  "Family",
  "Midnight",
  "Acoustic",
  "Vintage",
  "Community",
  "Advanced",
  "Autumn",
  "Rooftop",
  "Riverside",
  "Candlelight",
  "Spring",
];
const PLACES = [
  "Old Mill, Kreuzberg",
  "Town Hall, Mitte",
  "Riverside Park, Friedrichshain",
  "Studio 5, Neukölln",
  "Library, Prenzlauer Berg",
  "Markthalle, Kreuzberg",
  "Community Centre, Wedding",
  "Harbour Warehouse, Moabit",
  "Gallery Nord, Pankow",
  "Boathouse, Treptow",
  "Café Müller, Schöneberg",
  "Cellar Bar, Charlottenburg",
];
const DESCRIPTIONS = [
  "Bring a friend and enjoy the evening with local artists.",
  "Tickets at the door; drinks and snacks available.",
  "Suitable for all ages, no experience needed.",
  "Limited places, please arrive ten minutes early.",
  "A relaxed evening with music, food and good company.",
  "Our monthly favourite, hosted by the neighbourhood association.",
];
const PRICES = ["Free", "€5", "€10", "€12.50", "€15", "€20", "0", "Pay what you can"];

const literal = (values: string[]) => `ARRAY[${values.map((value) => `'${value.replaceAll("'", "''")}'`).join(", ")}]`;

export async function seedChatEvents(client: pg.Client | pg.Pool, accountId: string, count: number): Promise<void> {
  await client.query(
    `INSERT INTO events (account_id, title, starts_at, starts_at_offset, ends_at, location, description, price, url,
      status, recurring)
     SELECT $1::uuid,
       q[1 + (n / 30) % array_length(q, 1)] || ' ' || k[1 + n % array_length(k, 1)],
       starts, '+01:00', starts + interval '2 hours',
       p[1 + (n / 7) % array_length(p, 1)],
       d[1 + (n * 3) % array_length(d, 1)],
       c[1 + (n * 11) % array_length(c, 1)],
       'https://example.test/events/' || n,
       CASE WHEN n % 50 = 0 THEN 'cancelled'::"EventStatus" ELSE 'upcoming'::"EventStatus" END,
       CASE WHEN (n / 7) % 5 = 0 THEN (ARRAY['daily', 'weekly', 'monthly', 'yearly'])[1 + (n / 35) % 4] ELSE '' END
     FROM generate_series(1, $2::int) AS n,
       LATERAL (SELECT date_trunc('minute', now()) - interval '60 days' + n * interval '7 minutes' AS starts) AS s,
       (SELECT ${literal(KINDS)} AS k, ${literal(QUALIFIERS)} AS q, ${literal(PLACES)} AS p, ${literal(DESCRIPTIONS)}
         AS d, ${literal(PRICES)} AS c) AS lists`,
    [accountId, count],
  );
}

/** Removes two coming occurrences of one series in ten, computed as the product computes them. */
export async function seedChatExceptions(
  client: pg.Client | pg.Pool,
  accountId: string,
  timeZone: string,
): Promise<number> {
  const { rows } = await client.query<{ id: string; starts_at: Date; ends_at: Date | null; recurring: Recurrence }>(
    "SELECT id, starts_at, ends_at, recurring FROM events WHERE account_id = $1 AND recurring <> '' ORDER BY id",
    [accountId],
  );
  const now = new Date();
  const horizon = new Date(now.getTime() + 400 * 86_400_000);
  const exceptions: Array<[string, string]> = [];
  rows.forEach((row, index) => {
    if (index % 10 !== 0) return;
    const coming = occurrencesBetween(
      { startsAt: row.starts_at, endsAt: row.ends_at, recurring: row.recurring, timeZone },
      now,
      horizon,
      2,
    );
    for (const occurrence of coming) exceptions.push([row.id, occurrence.startsAt.toISOString()]);
  });
  await client.query(
    `INSERT INTO event_exceptions (account_id, event_id, occurs_at, kind)
     SELECT $1::uuid, x.id, x.at, 'cancelled' FROM unnest($2::uuid[], $3::timestamptz[]) AS x(id, at)
       ON CONFLICT DO NOTHING`,
    [accountId, exceptions.map((pair) => pair[0]), exceptions.map((pair) => pair[1])],
  );
  return exceptions.length;
}
