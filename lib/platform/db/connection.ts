import pg from "pg";

/*
 * Several statements of one request on one pooled connection. Each `pool.query` queues for a free
 * connection on its own, so under load a request of four statements waits in that queue four times,
 * behind every other request's statements; the requests with the most statements then make the tail of
 * the reply times (docs/architecture.md, "Hot paths"). Taking one connection for them waits once.
 * Only for statements run back to back: never hold a connection across reading a client's body or a
 * call to another service, where a slow peer would keep it from everyone.
 */

/**
 * Runs `work` on one connection taken from `client` when it is a pool, or on `client` itself when it
 * is already one connection (a transaction's, a test's). A connection whose statement failed is
 * closed rather than reused, since the failure may have left it in an unknown state.
 */
export function onOneConnection<T>(client: pg.Pool, work: (connection: pg.PoolClient) => Promise<T>): Promise<T>;
/** `client` typed by what `work` needs of it (a `query`), which a pooled connection has too. */
export function onOneConnection<C extends { query: unknown }, T>(
  client: C,
  work: (connection: C) => Promise<T>,
): Promise<T>;
export async function onOneConnection<T>(client: unknown, work: (connection: never) => Promise<T>): Promise<T> {
  if (!(client instanceof pg.Pool)) return work(client as never);
  const connection = await client.connect();
  try {
    const result = await work(connection as never);
    connection.release();
    return result;
  } catch (error) {
    connection.release(error instanceof Error ? error : true);
    throw error;
  }
}
