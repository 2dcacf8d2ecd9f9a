// What the fault tests share: customers with funded accounts and sandbox external accounts on a
// cluster's server, transfers with an Idempotency-Key that survive a server or database fault (a
// network error or a 5xx is retried with the same key, as the idempotency guide asks), reads of
// the database itself, and the checks every fault test ends with.
import { randomInt } from 'node:crypto';
import { expect } from 'vitest';
import { call, type Cluster, type Reply } from '../support/cluster.ts';
import type { ServerProcess } from '../support/server-process.ts';

export type Token = Cluster['token'];

const digits = (n: number): string => Array.from({ length: n }, () => String(randomInt(10))).join('');

/** A USD bank account ending in `suffix`, the sandbox's outcome switch (000 completes, 004/005 fail later). */
export const usdAccountInfo = (suffix: string) => ({
  accountType: 'USD_ACCOUNT',
  accountNumber: `${digits(9)}${suffix}`,
  routingNumber: '021000021',
  bankAccountType: 'CHECKING',
  beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' },
});

/** A request that must answer `status`; fails the test with the answer otherwise. */
export async function ok(server: ServerProcess, token: Token, method: string, path: string, body: unknown, status: number, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const reply = await call(server, token, method, path, body, headers);
  expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(status);
  return reply.body ?? {};
}

export interface Holder {
  customerId: string;
  internal: string;
  /** External account ids by suffix. */
  external: Record<string, string>;
}

/** A new customer with its USD internal account funded with `funding`, and external accounts ending in `suffixes`. */
export async function newHolder(server: ServerProcess, token: Token, funding: number, suffixes: string[]): Promise<Holder> {
  const customer = await ok(server, token, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Jane Doe', currencies: ['USD'] }, 201);
  const customerId = customer.id as string;
  const accounts = await ok(server, token, 'GET', `/customers/internal-accounts?customerId=${customerId}&currency=USD`, undefined, 200);
  const internal = ((accounts.data as { id: string }[])[0] as { id: string }).id;
  if (funding > 0) await ok(server, token, 'POST', `/sandbox/internal-accounts/${internal}/fund`, { amount: funding }, 200);
  const external: Record<string, string> = {};
  for (const suffix of suffixes) {
    external[suffix] = (await ok(server, token, 'POST', '/customers/external-accounts', { customerId, currency: 'USD', accountInfo: usdAccountInfo(suffix) }, 201)).id as string;
  }
  return { customerId, internal, external };
}

export const balanceOf = async (server: ServerProcess, token: Token, accountId: string): Promise<number> =>
  ((await ok(server, token, 'GET', `/internal-accounts/${accountId}`, undefined, 200)).balance as { amount: number }).amount;

/** The body of a transfer between a holder's internal account and its external account ending in `suffix`. */
export const transferBody = (holder: Holder, direction: 'in' | 'out', suffix: string, amount: number) =>
  direction === 'in'
    ? { source: { accountId: holder.external[suffix] }, destination: { accountId: holder.internal }, amount }
    : { source: { accountId: holder.internal }, destination: { accountId: holder.external[suffix] }, amount };

/** `secret` with its character at `index` replaced (a wrong secret sharing all the others). */
export const mutate = (secret: string, index: number): string => `${secret.slice(0, index)}${secret[index] === 'A' ? 'B' : 'A'}${secret.slice(index + 1)}`;

/** A reply that is no reply at all: the connection failed (a killed process) or the request timed out. */
export const NO_REPLY = 0;

/** `call` that reports a connection failure as status 0 instead of throwing, and gives up after `timeoutMs`. */
export async function tryCall(server: ServerProcess, token: Token, method: string, path: string, body?: unknown, headers: Record<string, string> = {}, timeoutMs = 30_000): Promise<Reply & { ms: number }> {
  const started = performance.now();
  try {
    const reply = await Promise.race([
      call(server, token, method, path, body, headers),
      new Promise<never>((_, fail) => setTimeout(() => fail(new Error('timeout')), timeoutMs).unref()),
    ]);
    return { ...reply, ms: performance.now() - started };
  } catch (err) {
    return { status: NO_REPLY, headers: new Headers(), text: String(err), body: undefined, ms: performance.now() - started };
  }
}

/** A 5xx must be the documented error body: 500 INTERNAL_ERROR (the spec documents no other 5xx). */
export function expectServerErrorShape(reply: Reply): void {
  expect(reply.body, reply.text).toMatchObject({ status: 500, code: 'INTERNAL_ERROR', message: expect.any(String) });
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
}

/** The ledger's own consistency check, through the server's test control. */
export async function expectLedgerConsistent(server: ServerProcess): Promise<void> {
  const res = await fetch(`${server.origin}/__test/ledger/check`);
  expect(res.status).toBe(200);
  const report = (await res.json()) as Record<string, unknown>;
  expect(report, JSON.stringify(report)).toMatchObject({ consistent: true, balanceDifferences: [], unbalancedMovements: [], strandedHolds: [] });
}

/** Polls until `done` holds, failing with `what` after `timeoutMs`. */
export async function eventually(what: string, done: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
