// API tokens this process has verified, so a request with a token seen before authenticates
// without a database round trip. A token row never changes except to be deleted; a deletion, and a
// clientId locked out by failed attempts, are announced on the database's notification channel,
// which every process listens to, and forgotten here. While this process is not listening (starting,
// or its listening connection lost) nothing is cached or served from the cache: an announcement it
// missed could otherwise let a revoked token work.
import { timingSafeEqual } from 'node:crypto';
import type { Principal } from '../shared/principal.ts';

type TokenPrincipal = Extract<Principal, { kind: 'token' }>;

/** A bound on memory: past it the cache starts again empty rather than tracking use. */
const MAX_ENTRIES = 10_000;

export class CredentialCache {
  private readonly entries = new Map<string, { secretHash: Buffer; principal: TokenPrincipal }>();
  /** Counts changes: a database read that began before one may be stale and is not remembered. */
  private generation = 0;
  private listening = false;

  /** Called when listening starts or stops; either way, what was cached may have missed a change. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.forget();
  }

  /** A clientId's token changed (deleted, locked out); without one, everything may have. */
  forget(clientId?: string): void {
    this.generation++;
    if (clientId === undefined) this.entries.clear();
    else this.entries.delete(clientId);
  }

  /** Taken before reading a token from the database, and handed back to `remember`. */
  since(): number {
    return this.generation;
  }

  /** The principal of a cached token whose secret hashes to `secretHash`, compared in constant time. */
  lookup(clientId: string, secretHash: Buffer): TokenPrincipal | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(clientId);
    if (entry === undefined || !timingSafeEqual(entry.secretHash, secretHash)) return undefined;
    return entry.principal;
  }

  remember(clientId: string, secretHash: Buffer, principal: TokenPrincipal, since: number): void {
    if (!this.listening || since !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(clientId, { secretHash, principal });
  }
}
