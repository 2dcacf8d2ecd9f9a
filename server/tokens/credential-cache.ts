// API token credentials this process has verified, so a request with a recently seen token needs no
// database round trip to authenticate. Only the SHA-256 of the secret is kept, as in the database,
// and compared in constant time, as every digest of a secret is (shared/constant-time.ts). An
// entry is for one clientId from one client address (the failed authentication limit throttles a
// clientId per address: tokens.service.ts), is used only while `usable()` holds, and a revocation
// (a deleted token: every address; a clientId throttled for one address: that address) drops it on
// every process before it answers: see shared-credential-cache.ts for several processes on one
// PostgreSQL.
import type { CredentialCache, TokenPrincipal } from '../context/context.ts';
import type { Db } from '../db/database.ts';
import { secretMatches } from './token-secrets.ts';

interface Entry {
  principal: TokenPrincipal;
  /** SHA-256 of the secret (hashSecret). */
  digest: Buffer;
  expiresAt: number;
}

/** Entries are forgotten after this even without a revocation: a bound on any mistake. */
const ENTRY_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/** What a revocation names: a clientId (from every address), or a clientId from one address. */
export const revocationSubject = (clientId: string, source?: string): string => (source === undefined ? clientId : `${clientId}@${source}`);

export abstract class CredentialCacheBase implements CredentialCache {
  /** By revocationSubject(clientId, source). */
  readonly #entries = new Map<string, Entry>();
  #generation = 0;

  /** Whether cached entries may answer now. */
  protected abstract usable(): boolean;

  /**
   * Drops `clientId` (from `source` only, when given) from every process's cache. Call it inside the
   * transaction that revokes the credential, and run the function it returns once that has
   * committed and before answering.
   */
  abstract revoke(db: Db, clientId: string, source?: string): Promise<() => Promise<void>>;

  abstract stop(): Promise<void>;

  /** The principal of these credentials from `source` if they are cached and the secret matches; else the database decides. */
  lookup(clientId: string, source: string, secret: string): TokenPrincipal | undefined {
    if (!this.usable()) return undefined;
    const subject = revocationSubject(clientId, source);
    const entry = this.#entries.get(subject);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= performance.now()) {
      this.#entries.delete(subject);
      return undefined;
    }
    return secretMatches(secret, entry.digest) ? entry.principal : undefined;
  }

  /** Read before a database lookup and handed to `remember`: a revocation in between voids it. */
  get generation(): number {
    return this.#generation;
  }

  /**
   * Keeps credentials a database read found valid, unless something was revoked since the read
   * began: the read may predate the revocation's commit.
   */
  remember(clientId: string, source: string, principal: TokenPrincipal, secretHash: Buffer, generation: number): void {
    if (generation !== this.#generation || !this.usable()) return;
    const subject = revocationSubject(clientId, source);
    this.#entries.delete(subject);
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    this.#entries.set(subject, { principal, digest: secretHash, expiresAt: performance.now() + ENTRY_TTL_MS });
  }

  /** Drops what `subject` (revocationSubject) names: one address's entry, or a clientId's from every address. */
  protected forget(subject: string): void {
    this.#generation++;
    if (subject.includes('@')) {
      this.#entries.delete(subject);
      return;
    }
    // Revoking a whole token is rare (a deletion, a change in SQL): a scan of the entries is cheap.
    for (const key of this.#entries.keys()) if (key.startsWith(`${subject}@`)) this.#entries.delete(key);
  }

  protected clear(): void {
    this.#generation++;
    this.#entries.clear();
  }
}

/** One process owns the database (PGlite): what it revokes, it drops itself. */
export class LocalCredentialCache extends CredentialCacheBase {
  protected usable(): boolean {
    return true;
  }

  async revoke(_db: Db, clientId: string, source?: string): Promise<() => Promise<void>> {
    // After the commit, not before: a request reading the token in between would cache it again.
    return async () => this.forget(revocationSubject(clientId, source));
  }

  async stop(): Promise<void> {}
}

/**
 * Several processes with no session to hear each other's revocations (a transaction-mode pooler
 * without DATABASE_DIRECT_URL): nothing is cached, and every request's credentials are checked in
 * the database, so a revocation holds everywhere once it commits.
 */
export class NoCredentialCache extends CredentialCacheBase {
  protected usable(): boolean {
    return false;
  }

  async revoke(): Promise<() => Promise<void>> {
    return async () => {};
  }

  async stop(): Promise<void> {}
}
