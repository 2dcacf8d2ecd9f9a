// What every service, handler and job receives. The runtime is one per process (clock, keys, log,
// settings); the database handle is per unit of work: the request's or the job's transaction when
// it writes. Work that must happen only once the transaction has committed (waking the job runner,
// network I/O) is handed to `afterCommit`, never run inside the transaction.
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import type { Keyring } from '../shared/keyring.ts';
import type { Principal } from '../shared/principal.ts';
import type { BalanceWriter } from './balance-writer.ts';
import type { WalletProofs } from './wallet-proofs.ts';

export type TokenPrincipal = Extract<Principal, { kind: 'token' }>;

/**
 * API token credentials this process verified recently (tokens/credential-cache.ts implements it):
 * declared here so every layer can name the runtime, which holds one.
 */
export interface CredentialCache {
  /** The principal of these credentials from `source` if they are cached and the secret matches; else the database decides. */
  lookup(clientId: string, source: string, secret: string): TokenPrincipal | undefined;
  /** Read before a database lookup and handed to `remember`: a revocation in between voids it. */
  readonly generation: number;
  /** Keeps credentials a database read found valid, unless something was revoked since the read began. */
  remember(clientId: string, source: string, principal: TokenPrincipal, secretHash: Buffer, generation: number): void;
  /**
   * Drops `clientId` (from `source` only, when given) from every process's cache. Call it inside the
   * transaction that revokes the credential, and run the function it returns once that has
   * committed and before answering.
   */
  revoke(db: Db, clientId: string, source?: string): Promise<() => Promise<void>>;
  stop(): Promise<void>;
}

export interface Settings {
  /** Whether webhooks may go to loopback and private addresses (the local sandbox: yes; production: no). */
  allowPrivateWebhookTargets: boolean;
}

export interface Runtime {
  clock: Clock;
  keys: Keyring;
  log: Logger;
  settings: Settings;
  /** How the ledger writes balance changes: chosen at boot (a test server may get a deliberately broken one). */
  balanceWriter: BalanceWriter;
  /** Checks the proofs of Embedded Wallet credentials and signatures (the sandbox's magic values). */
  walletProofs: WalletProofs;
  /** API token credentials verified recently, shared safely with the database's other processes. */
  credentials: CredentialCache;
  /** Tells the job runner a job is due now (it looks at once) or `inMs` from now (it looks then). */
  wakeJobs(inMs?: number): void;
  /** Runs the jobs due now (only `platformId`'s when given) and resolves once they ran: how many did. */
  runDueJobs(platformId?: string): Promise<number>;
}

export interface ServiceContext extends Runtime {
  db: Db;
  afterCommit(task: () => void | Promise<void>): void;
}

/** A service call made for one platform: every read and write is scoped to it. */
export interface PlatformContext extends ServiceContext {
  platformId: string;
}

/** What a handler gets: the platform context of the authenticated caller. */
export interface RequestContext extends PlatformContext {
  principal: Principal;
}
