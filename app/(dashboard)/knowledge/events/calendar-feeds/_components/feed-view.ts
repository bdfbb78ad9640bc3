import type { FeedState, SyncResult } from "@/lib/calendar-feeds/model";

/* A followed calendar as the page hands it to its client components: every date already formatted. */

export type SyncEntry = {
  id: string;
  when: string;
  whenFull: string;
  result: SyncResult;
  summary: string;
  error: string | null;
};

export type FeedRowView = {
  id: string;
  name: string;
  url: string;
  every: string;
  state: FeedState;
  error: string | null;
  failures: number;
  eventCount: number;
  lastSync: SyncEntry | null;
  nextSync: string;
  syncs: SyncEntry[];
};
