// API token credentials this process has verified, so a request with a recently seen token needs no
// database round trip to authenticate. Only the SHA-256 of the secret is kept, as in the database,
// and compared in constant time. An entry is used only while `usable()` holds, and a revocation
// (a deleted token, a clientId locked out) drops it on every process before it answers: see
// shared-credential-cache.ts for several processes on one PostgreSQL.
import { timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/database.ts';
import type { Principal } from '../shared/principal.ts';
import { hashSecret } from './token-secrets.ts';

export type TokenPrincipal = Extract<Principal, { kind: 'token' }>;

interface Entry {
  principal: TokenPrincipal;
  secretHash: Buffer;
  expiresAt: number;
}

/** Entries are forgotten after this even without a revocation: a bound on any mistake. */
const ENTRY_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

export abstract class CredentialCache {
  readonly #entries = new Map<string, Entry>();
  #generation = 0;

  /** Whether cached entries may answer now. */
  protected abstract usable(): boolean;

  /**
   * Drops `clientId` from every process's cache. Call it inside the transaction that revokes the
   * credential, and run the function it returns once that has committed and before answering.
   */
  abstract revoke(db: Db, clientId: string): Promise<() => Promise<void>>;

  abstract stop(): Promise<void>;

  /** The principal of these credentials if they are cached and the secret matches; else the database decides. */
  lookup(clientId: string, secret: string): TokenPrincipal | undefined {
    if (!this.usable()) return undefined;
    const entry = this.#entries.get(clientId);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= performance.now()) {
      this.#entries.delete(clientId);
      return undefined;
    }
    return timingSafeEqual(hashSecret(secret), entry.secretHash) ? entry.principal : undefined;
  }

  /** Read before a database lookup and handed to `remember`: a revocation in between voids it. */
  get generation(): number {
    return this.#generation;
  }

  /**
   * Keeps credentials a database read found valid, unless something was revoked since the read
   * began: the read may predate the revocation's commit.
   */
  remember(clientId: string, principal: TokenPrincipal, secretHash: Buffer, generation: number): void {
    if (generation !== this.#generation || !this.usable()) return;
    this.#entries.delete(clientId);
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    this.#entries.set(clientId, { principal, secretHash, expiresAt: performance.now() + ENTRY_TTL_MS });
  }

  protected forget(clientId: string): void {
    this.#generation++;
    this.#entries.delete(clientId);
  }

  protected clear(): void {
    this.#generation++;
    this.#entries.clear();
  }
}

/** One process owns the database (PGlite): what it revokes, it drops itself. */
export class LocalCredentialCache extends CredentialCache {
  protected usable(): boolean {
    return true;
  }

  async revoke(_db: Db, clientId: string): Promise<() => Promise<void>> {
    // After the commit, not before: a request reading the token in between would cache it again.
    return async () => this.forget(clientId);
  }

  async stop(): Promise<void> {}
}
