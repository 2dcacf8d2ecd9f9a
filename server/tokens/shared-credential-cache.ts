// The credential cache of a process sharing PostgreSQL with others. A revoked credential must
// stop working on every process before the revocation answers, so:
// - each process LISTENs on a session of its own and holds a lease in the database, renewed on
//   that session; it answers from its cache only while its lease is live by its own monotonic
//   clock (the renewal's send time + TTL - a margin, so it stops before the database's expiry);
// - a revocation NOTIFYs in the transaction that revokes, and once that has committed waits
//   until every process with a live lease registered before then has acknowledged dropping the
//   credential. A process that does not acknowledge in time (dead, frozen, cut off) is fenced:
//   its lease is deleted, so it cannot renew it, and the revocation waits until the lease would
//   have expired, after which that process can no longer be using its cache;
// - a process that loses its session empties its cache and starts a new lease: it may have missed
//   messages;
// - the database announces a token changed any other way (by hand in SQL, by an older version)
//   when that commits ('changed', migration 0012): every listening process drops it, unacknowledged.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import { listen, type Listener } from '../db/listener.ts';
import type { Database } from '../db/schema.ts';
import { CACHE_CHANNEL, fenceLeases, liveLeases, notifyCaches, registerLease, releaseLease, renewLease } from './cache-leases.repository.ts';
import { CredentialCacheBase, revocationSubject } from './credential-cache.ts';

export const LEASE_TTL_MS = 3_000;
export const CACHE_SESSION_NAME = 'payments-credential-cache';
const RENEW_EVERY_MS = 1_000;
/** Renewal is timed from before it was sent; this covers the clocks' rates differing a little. */
const SAFETY_MS = 500;
/** How long a revocation waits for acknowledgements before fencing the silent processes. */
const ACK_WAIT_MS = 1_000;
const LEASE_RECHECK_MS = 200;
/** Acknowledgements are kept this long for a revocation that has not started waiting yet. */
const ACK_MEMORY_MS = 60_000;

interface Acks {
  from: Set<string>;
  seenAt: number;
  wake(): void;
}

export class SharedCredentialCache extends CredentialCacheBase {
  #session: { listener: Listener; leaseId: string } | undefined;
  #validUntil = 0;
  #renewing = false;
  #stopped = false;
  readonly #acks = new Map<string, Acks>();
  /** Leases of this process's earlier sessions, still in the database until deleted or expired. */
  readonly #endedLeases: string[] = [];
  readonly #timer: NodeJS.Timeout;

  private readonly connection: pg.ClientConfig;
  private readonly db: Kysely<Database>;
  private readonly log: Logger;

  private constructor(connection: pg.ClientConfig, db: Kysely<Database>, log: Logger) {
    super();
    this.connection = connection;
    this.db = db;
    this.log = log;
    this.#timer = setInterval(() => void this.#tick(), RENEW_EVERY_MS);
    this.#timer.unref();
  }

  /** Starts with a lease; if that fails the cache stays unusable and the next tick tries again. */
  static async start(connection: pg.ClientConfig, db: Kysely<Database>, log: Logger): Promise<SharedCredentialCache> {
    const cache = new SharedCredentialCache(connection, db, log);
    await cache.#tick();
    return cache;
  }

  protected usable(): boolean {
    return performance.now() < this.#validUntil;
  }

  async revoke(db: Db, clientId: string, source?: string): Promise<() => Promise<void>> {
    const revocation = randomUUID();
    await notifyCaches(db, `revoke ${revocation} ${revocationSubject(clientId, source)}`);
    return () => this.#awaitAcks(revocation);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#validUntil = 0;
    const session = this.#session;
    this.#session = undefined;
    if (session === undefined) return;
    await releaseLease(session.listener.db, session.leaseId).catch(() => {});
    await session.listener.close();
  }

  /** Renews the lease, or (re)starts the session when there is none. */
  async #tick(): Promise<void> {
    if (this.#renewing || this.#stopped) return;
    this.#renewing = true;
    try {
      this.#forgetOldAcks();
      const session = this.#session;
      if (session === undefined) return await this.#startSession();
      const sentAt = performance.now();
      if (await renewLease(session.listener.db, session.leaseId, LEASE_TTL_MS)) {
        if (this.#session === session) this.#validUntil = sentAt + LEASE_TTL_MS - SAFETY_MS;
      } else {
        this.log.warn('credential cache lease was fenced off by a revocation; starting a new one');
        this.#endSession(session);
      }
    } catch (err) {
      // A session that cannot renew may not be hearing either: the next tick starts a new one.
      this.log.warn({ err: (err as Error).message }, 'credential cache lease could not be renewed or started');
      if (this.#session !== undefined) this.#endSession(this.#session);
    } finally {
      this.#renewing = false;
    }
  }

  async #startSession(): Promise<void> {
    const leaseId = randomUUID();
    // Named, so an operator (or a test) can tell this session from the pool's.
    const listener = await listen({ ...this.connection, application_name: CACHE_SESSION_NAME }, CACHE_CHANNEL, {
      message: (payload) => this.#onMessage(payload),
      lost: (err) => {
        this.log.warn({ err: err?.message }, 'credential cache session lost; the cache is off until a new one starts');
        if (this.#session?.listener === listener) this.#endSession(this.#session);
      },
    });
    // Messages sent while no session listened are lost: nothing cached before may be trusted.
    this.clear();
    const sentAt = performance.now();
    try {
      await registerLease(listener.db, leaseId, LEASE_TTL_MS);
    } catch (err) {
      await listener.close();
      throw err;
    }
    if (this.#stopped) {
      await releaseLease(listener.db, leaseId).catch(() => {});
      await listener.close();
      return;
    }
    this.#session = { listener, leaseId };
    this.#validUntil = sentAt + LEASE_TTL_MS - SAFETY_MS;
    // This process stopped using its cache when those sessions ended, so no revocation need wait
    // for their leases to expire.
    const ended = this.#endedLeases.splice(0);
    await fenceLeases(listener.db, ended).catch(() => this.#endedLeases.push(...ended));
  }

  #endSession(session: { listener: Listener; leaseId: string }): void {
    if (this.#session !== session) return;
    this.#session = undefined;
    this.#validUntil = 0;
    this.clear();
    this.#endedLeases.push(session.leaseId);
    void session.listener.close();
    // Revocations wait for this process until its old lease is gone or expired: start over now.
    setImmediate(() => void this.#tick());
  }

  #onMessage(payload: string): void {
    const [kind, revocation, subject] = payload.split(' ');
    if (revocation === undefined || subject === undefined) return;
    if (kind === 'changed') {
      this.forget(subject);
    } else if (kind === 'revoke') {
      this.forget(subject);
      const session = this.#session;
      if (session === undefined) return;
      notifyCaches(session.listener.db, `ack ${revocation} ${session.leaseId}`).catch((err: Error) =>
        this.log.warn({ err: err.message }, 'credential cache could not acknowledge a revocation'),
      );
    } else if (kind === 'ack') {
      const acks = this.#acksOf(revocation);
      acks.from.add(subject);
      acks.wake();
    }
  }

  #acksOf(revocation: string): Acks {
    let acks = this.#acks.get(revocation);
    if (acks === undefined) {
      acks = { from: new Set(), seenAt: performance.now(), wake: () => {} };
      this.#acks.set(revocation, acks);
    }
    return acks;
  }

  #forgetOldAcks(): void {
    const before = performance.now() - ACK_MEMORY_MS;
    for (const [revocation, acks] of this.#acks) if (acks.seenAt < before) this.#acks.delete(revocation);
  }

  /**
   * Returns once every process that may have cached the credential has dropped it. Processes that
   * registered after the commit (this is called after it) read the revoked state themselves.
   */
  async #awaitAcks(revocation: string): Promise<void> {
    const acks = this.#acksOf(revocation);
    try {
      const deadline = performance.now() + ACK_WAIT_MS;
      let live = await liveLeases(this.db);
      const registeredBefore = live.at;
      let checkedAt = performance.now();
      for (;;) {
        const silent = live.ids.filter((id) => !acks.from.has(id));
        if (silent.length === 0) return;
        if (performance.now() >= deadline) {
          this.log.warn({ leases: silent.length }, 'processes did not acknowledge a credential revocation in time; fencing them off');
          const remainingMs = await fenceLeases(this.db, silent);
          await sleep(Math.ceil(remainingMs));
          return;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, LEASE_RECHECK_MS);
          acks.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        // Leases expire on their own: a process that died needs no acknowledgement.
        if (performance.now() - checkedAt >= LEASE_RECHECK_MS) {
          live = await liveLeases(this.db, registeredBefore);
          checkedAt = performance.now();
        }
      }
    } catch (err) {
      // The database failed us after the commit. The NOTIFY was committed with the revocation, so
      // every listening process gets it; one that cannot hear cannot renew its lease either, and
      // stops using its cache within a TTL.
      this.log.error({ err }, 'credential revocation could not be confirmed; waiting a lease TTL instead');
      await sleep(LEASE_TTL_MS);
    } finally {
      this.#acks.delete(revocation);
    }
  }
}
