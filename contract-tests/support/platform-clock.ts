// Moving a platform's sandbox clock (advanceSandboxClock) in tests of outcomes due later: the
// advance answers once what came due has happened, so a test reads the outcome at once, never
// polls for it. Throttles stay on the server's own clock (advanceClock in server-process.ts).
import { expect } from 'vitest';
import type { PaymentsClient } from '../../client/index.ts';
import { client } from './api.ts';
import { createTestPlatform } from './server-process.ts';
import type { Transaction } from './factories.ts';

/** Advances the clock of `via`'s platform by `ms` (whole seconds). */
export async function advancePlatformClock(via: PaymentsClient, ms: number): Promise<void> {
  if (ms % 1000 !== 0) throw new Error(`advance by whole seconds, not ${ms} ms`);
  const { response, error } = await via.POST('/sandbox/clock/advance', { body: { seconds: ms / 1000 } });
  if (response.status !== 200) throw new Error(`advanceSandboxClock: ${response.status} ${JSON.stringify(error)}`);
}

/** The transaction, which must be in `status` now: an outcome the clock brought is there when the advance answers. */
export async function transactionNow(via: PaymentsClient, transactionId: string, status: Transaction['status']): Promise<Transaction> {
  const { data, response } = await via.GET('/transactions/{transactionId}', { params: { path: { transactionId } } });
  expect(response.status).toBe(200);
  expect(data?.status, `transaction ${transactionId}`).toBe(status);
  return data as Transaction;
}

/**
 * A new platform on the suite's server (its test controls), with a checked client and its token:
 * for tests on the shared target that move a clock, which must not be the suite's platform's.
 */
export async function newPlatform(serverBaseUrl: string, origin: string): Promise<{ via: PaymentsClient; token: { clientId: string; clientSecret: string } }> {
  const token = await createTestPlatform(origin, 'Test platform');
  return { via: client(token, serverBaseUrl), token };
}
