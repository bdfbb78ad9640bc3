/** PostgreSQL's unique_violation: another writer committed the same key first. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "23505";
}
