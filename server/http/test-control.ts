// Controls for the test suite, mounted only when NODE_ENV=test (config.testControls): moving the
// server's clock forward (a sandbox outcome due in six minutes is tested in seconds), the ledger's
// consistency check on the server's own database (PGlite allows one process), the sandbox's outbox
// of one-time-code e-mails (no real mail is sent), a second platform (PGlite allows one process, so
// `npm run platform:create` cannot add one beside the server), and two fault hooks on request headers (hold the
// handler's transaction open; fail after the handler ran), wrapped around the handlers at start.
import express, { type Router } from 'express';
import { notImplemented, withoutTransaction, type Handler, type NotImplemented, type OperationHandlers, type OperationId, type OutsideTransaction } from '../context/handler-types.ts';
import type { LedgerReport } from '../ledger/ledger-check.ts';
import type { ShiftableClock } from '../shared/clock.ts';

export const TEST_CONTROL_PATH = '/__test';

/** What the test controls read from the server's own database. */
export interface TestReads {
  checkLedger(): Promise<LedgerReport>;
  /** The one-time-code e-mails the sandbox "sent" for an Embedded Wallet credential. */
  walletEmails(credentialId: string): Promise<unknown[]>;
  /** A new sandbox platform and its first API token, as `npm run platform:create` makes (PGlite allows one process). */
  createPlatform(name: string): Promise<{ platformId: string; clientId: string; clientSecret: string }>;
}

export function testControlRoutes(clock: ShiftableClock, wakeJobs: () => void, reads: TestReads): Router {
  const router = express.Router();
  router.use(express.json());
  router.get('/clock', (_req, res) => {
    res.json({ now: clock.now().toISOString(), offsetMs: clock.offset });
  });
  router.post('/clock/advance', (req, res) => {
    const ms = (req.body as { ms?: unknown } | undefined)?.ms;
    if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0) {
      res.status(400).json({ error: 'give {"ms": <a whole number of milliseconds, at least 0>}' });
      return;
    }
    clock.advance(ms);
    wakeJobs();
    res.json({ now: clock.now().toISOString(), offsetMs: clock.offset });
  });
  router.get('/ledger/check', (_req, res, next) => {
    reads.checkLedger().then((report) => res.json(report), next);
  });
  router.post('/platforms', (req, res, next) => {
    const name = (req.body as { name?: unknown } | undefined)?.name;
    reads.createPlatform(typeof name === 'string' ? name : 'Test platform').then((created) => res.json(created), next);
  });
  router.get('/wallet-emails/:credentialId', (req, res, next) => {
    reads.walletEmails(req.params.credentialId).then((emails) => res.json({ data: emails }), next);
  });
  return router;
}

/** The suite's fault hooks, after the handler and inside its transaction: hold it open; fail once the handler ran. */
async function faultHooks(headers: Record<string, string | undefined>): Promise<void> {
  const delay = Number(headers['x-test-delay-ms'] ?? 0);
  if (delay > 0) await new Promise((r) => setTimeout(r, Math.min(delay, 10_000)));
  if (headers['x-test-fail-after-handler'] === 'true') throw new Error('injected failure after the handler ran');
}

const thenFaultHooks =
  <Req extends { headers: Record<string, string | undefined> }, Ctx, Result>(handler: (req: Req, ctx: Ctx) => Promise<Result>) =>
  async (req: Req, ctx: Ctx): Promise<Result> => {
    const result = await handler(req, ctx);
    await faultHooks(req.headers);
    return result;
  };

function hooked<K extends OperationId>(handler: Handler<K> | OutsideTransaction<K> | NotImplemented): Handler<K> | OutsideTransaction<K> | NotImplemented {
  if (handler === notImplemented) return handler;
  if (typeof handler === 'object') return withoutTransaction(thenFaultHooks(handler.outsideTransaction));
  return thenFaultHooks(handler);
}

/** The operation map with the fault hooks after every handler: what a test server (config.testControls) serves. */
export function withFaultHooks(handlers: OperationHandlers): OperationHandlers {
  const wrapped: Record<string, unknown> = {};
  const wrap = <K extends OperationId>(operationId: K): void => {
    wrapped[operationId] = hooked<K>(handlers[operationId]);
  };
  (Object.keys(handlers) as OperationId[]).forEach(wrap);
  // Each entry keeps its own operation's handler type (hooked); a loop over the keys cannot say so.
  return wrapped as OperationHandlers;
}
