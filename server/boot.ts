// What every entry point does before it can serve or change anything: open the database, migrate
// it, load the master key, check it is the database's key, and seal what earlier versions stored
// in clear. Used by `npm start` (server.ts) and the scripts that work on the server's database.
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { CredentialCache, Runtime, ServiceContext } from './context/context.ts';
import { sealLegacyIdentifiers as sealBeneficialOwnerIdentifiers } from './beneficial-owners/beneficial-owners.service.ts';
import { sealLegacyIdentifiers as sealCustomerIdentifiers } from './customers/customers.service.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { unitOfWork } from './context/unit-of-work.ts';
import { sealLegacyDocumentNumbers } from './documents/documents.service.ts';
import { sealLegacyTaxIds as sealBeneficiaryTaxIds } from './external-accounts/external-accounts.service.ts';
import { checkMasterKey } from './keys/keys.service.ts';
import { loadMasterKey } from './keys/master-key.ts';
import { conditionalBalanceWriter } from './ledger/ledger.repository.ts';
import { lostUpdateBalanceWriter } from './ledger/lost-update.repository.ts';
import { sealLegacySecrets } from './platform/platform.service.ts';
import { ShiftableClock } from './shared/clock.ts';
import { Keyring } from './shared/keyring.ts';
import { LocalCredentialCache, NoCredentialCache } from './tokens/credential-cache.ts';
import { SharedCredentialCache } from './tokens/shared-credential-cache.ts';
import { sandboxProofs } from './wallet-auth/sandbox-proofs.ts';

/** What the runtime asks of the job runner (jobs/runner.ts). */
export interface JobRunnerControls {
  wake(inMs?: number): void;
  runDue(platformId?: string): Promise<number>;
}

export interface Booted {
  handle: DatabaseHandle;
  runtime: Runtime & { clock: ShiftableClock };
  keySource: string;
  /** Points `runtime.wakeJobs` and `runtime.runDueJobs` at the job runner once there is one. */
  setJobRunner(runner: JobRunnerControls): void;
  /** Ends the credential cache's lease and closes the database. */
  close(): Promise<void>;
}

/**
 * A one-time upgrade of stored data, run at every start in one transaction (a no-op once done):
 * values earlier versions of the server stored in clear (webhook signing secrets, identity
 * numbers, tax ids, document numbers) are sealed, so a database dump holds none of them.
 */
async function sealValuesStoredInClear(ctx: ServiceContext): Promise<number> {
  return (await sealLegacySecrets(ctx)) + (await sealCustomerIdentifiers(ctx)) + (await sealBeneficialOwnerIdentifiers(ctx)) + (await sealLegacyDocumentNumbers(ctx)) + (await sealBeneficiaryTaxIds(ctx));
}

/** Shared through a LISTEN session when there is one; PGlite's one process keeps its own. */
async function credentialCache(handle: DatabaseHandle, log: Logger): Promise<CredentialCache> {
  if (handle.sessionConfig !== undefined) return SharedCredentialCache.start(handle.sessionConfig, handle.db, log);
  if (handle.kind === 'pglite') return new LocalCredentialCache();
  log.warn(
    'DATABASE_POOL_MODE=transaction without DATABASE_DIRECT_URL: no session can LISTEN for other processes\' revocations, ' +
      'so credentials are not cached and every request checks its token in the database (one more query per request). ' +
      'Set DATABASE_DIRECT_URL to a connection past the pooler to cache them.',
  );
  return new NoCredentialCache();
}

export async function boot(config: Config, log: Logger): Promise<Booted> {
  const handle = await openDatabase(config, log);
  let credentials: CredentialCache | undefined;
  try {
    await migrateToLatest(handle.db, handle.poolMode);
    await handle.migrated();
    const master = loadMasterKey(config);
    credentials = await credentialCache(handle, log);
    // Until there is a runner, nothing runs jobs (scripts that only migrate or seal).
    let jobs: JobRunnerControls = { wake: () => {}, runDue: () => Promise.resolve(0) };
    const runtime: Booted['runtime'] = {
      clock: new ShiftableClock(),
      keys: new Keyring(master.key),
      log,
      settings: { allowPrivateWebhookTargets: config.allowPrivateWebhookTargets },
      // The reliability tests' deliberate bug replaces the ledger's writer (config.ts: NODE_ENV=test only).
      balanceWriter: config.testFault === 'lost-update' ? lostUpdateBalanceWriter : conditionalBalanceWriter,
      walletProofs: sandboxProofs,
      credentials,
      wakeJobs: (inMs) => jobs.wake(inMs),
      runDueJobs: (platformId) => jobs.runDue(platformId),
    };
    await unitOfWork(runtime, handle.db, async (ctx) => {
      await checkMasterKey(ctx, master.source);
      const sealed = await sealValuesStoredInClear(ctx);
      if (sealed > 0) log.info({ sealed }, 'values stored in clear by an earlier version are now sealed');
    });
    const started = credentials;
    const close = async () => {
      await started.stop();
      await handle.close();
    };
    return { handle, runtime, keySource: master.source, setJobRunner: (runner) => (jobs = runner), close };
  } catch (err) {
    await credentials?.stop();
    await handle.close();
    throw err;
  }
}
