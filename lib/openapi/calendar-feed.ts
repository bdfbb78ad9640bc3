import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { errorResponse, internalError, unavailable } from "./common";

/*
 * The account's events as an iCalendar feed (docs/calendar-feeds.md): a secret URL, no API key. The route
 * directory is [token]; the segment it receives is the token followed by `.ics`.
 */

export const CALENDAR_FEED_PATH = "/api/v1/events/calendar/{token}";

const cacheHeaders = {
  ETag: z.string().meta({
    description: "The feed's version; send it back in If-None-Match.",
    example: '"p2Vn0c8Qh7mWq1ZfX4rT9yKbL6sJ3dAe"',
  }),
  "Cache-Control": z.literal("private, no-cache"),
};

export const calendarFeedPaths: ZodOpenApiPathsObject = {
  [CALENDAR_FEED_PATH]: {
    get: {
      operationId: "getCalendarFeed",
      tags: ["Calendar feed"],
      summary: "The account's events as iCalendar (secret URL)",
      description:
        "RFC 5545: one VEVENT per event with a stable UID, STATUS CONFIRMED or CANCELLED; " +
        "one-off events in UTC, recurring series in the " +
        "account's time zone (TZID with its VTIMEZONE) with RRULE and an EXDATE for every removed occurrence. " +
        "The URL is shown in " +
        "Knowledge → Events → Calendar feeds; rotating it there makes the old one answer 404 at once. " +
        "Send `If-None-Match` with the " +
        "last ETag: a 304 costs no work. See docs/calendar-feeds.md.",
      security: [],
      "x-required-scope": null,
      requestParams: {
        path: z.object({
          token: z.string().meta({
            description: "The feed's secret token followed by `.ics`.",
            example: "q9Lr0mVx3bN7tYc2KdF8hJ5sW1pZ6aE4gU0iO3nR7kM.ics",
          }),
        }),
        header: z.object({
          "If-None-Match": z.string().optional().meta({ description: "An ETag of an earlier answer." }),
        }),
      },
      responses: {
        200: {
          description: "The calendar.",
          headers: z.object(cacheHeaders),
          content: { "text/calendar": { schema: z.string() } },
        },
        304: { description: "Unchanged since the ETag sent in If-None-Match.", headers: z.object(cacheHeaders) },
        404: errorResponse(
          "No feed has this token (a wrong one, or one rotated away): the same answer as any unknown API path.",
          ["not_found"],
        ),
        500: internalError(),
        503: unavailable(),
      },
    },
  },
};
