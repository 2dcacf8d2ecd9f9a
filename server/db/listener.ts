// A dedicated PostgreSQL session that LISTENs on one channel, for work that must know when it
// stops hearing: a pooled connection can be swapped or closed under a LISTEN without notice.
// Its kysely instance runs on the same session, so a query that succeeds proves the session is
// still the one listening.
import { Kysely, PostgresDialect, type PostgresPool } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

export interface Listener {
  db: Kysely<Database>;
  close(): Promise<void>;
}

export interface ListenerEvents {
  message(payload: string): void;
  /** The session is gone (an error or the server ending it): nothing more will be heard on it. */
  lost(err: Error | undefined): void;
}

export async function listen(connection: pg.ClientConfig, channel: string, events: ListenerEvents): Promise<Listener> {
  const client = new pg.Client(connection);
  let ended = false;
  let ready = false;
  const lost = (err?: Error) => {
    if (ended) return;
    ended = true;
    // Before `listen` returns, its caller hears of a failure from the rejection instead.
    if (ready) events.lost(err);
    client.end().catch(() => {});
  };
  client.on('error', lost);
  client.on('end', () => lost());
  client.on('notification', (n) => {
    if (n.channel === channel && n.payload !== undefined) events.message(n.payload);
  });
  try {
    await client.connect();
    await client.query(`listen ${pg.escapeIdentifier(channel)}`);
  } catch (err) {
    ended = true;
    await client.end().catch(() => {});
    throw err;
  }
  if (ended) throw new Error('the listening session ended as it started');
  ready = true;
  // One session, shared: pg.Client queues concurrent queries, and nothing here opens a transaction.
  const pool: PostgresPool = {
    connect: async () => Object.assign(client, { release: () => {} }),
    end: async () => {},
    options: {},
  };
  return {
    db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
    close: async () => {
      if (ended) return;
      ended = true;
      await client.end().catch(() => {});
    },
  };
}
