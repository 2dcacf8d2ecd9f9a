// The bank test (Jepsen's, over the API): two server processes on one PostgreSQL database, 40
// concurrent workers, 2,000 seeded operations per seed among 10 customers' USD and EUR accounts
// (internal transfers and conversions through quotes, payouts and top-ups over the rails, sandbox
// funding, quotes to external accounts settled by a job, agent actions the platform approves),
// most on 3 hot customers, some for more than the balance; some POSTs sent twice with their key.
// A reader checks every snapshot while they run; the checker (bank-checker.ts) checks the end.
// The seed here is 20251013, which every run keeps; the seed the commit under test chooses, so
// that each commit plans other operations than the last, is run through PgBouncer on three
// processes (pooler.test.ts). The seed is in the test's name; BANK_SEEDS=1,77 runs those instead,
// here and there, to replay a failure or widen a run.
// Then the race the bank test found (an approval against a payment in flight), pinned down alone,
// and the checker's teeth: the same run on a deliberately broken ledger fails it.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { call, postgresAdminUrl, startCluster } from '../support/cluster.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import type { ServerProcess } from '../support/server-process.ts';
import type { Invariant } from './bank-journal.ts';
import { bankOptions, bankSeeds, bankSummary as summary, FIXED_BANK_SEED, runBank } from './bank-run.ts';

const SEEDS = bankSeeds(FIXED_BANK_SEED);

const options = bankOptions;

/** Waits until another transaction holds the lock a balance UPDATE takes on the account (a debit not yet committed; a foreign key's KEY SHARE does not count). */
async function untilRowLocked(databaseUrl: string, accountId: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      await db.query('begin');
      const locked = await db.query('select 1 from internal_accounts where id = $1 for no key update nowait', [accountId]).then(
        () => false,
        (err: { code?: string }) => err.code === '55P03',
      );
      await db.query('rollback');
      if (locked) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`${accountId} was never locked`);
  } finally {
    await db.end();
  }
}

describe('the bank test: two processes, one PostgreSQL database, 40 workers', () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: 2,000 operations keep every invariant`, async () => {
      const result = await runBank(options(seed, 2_000));
      console.log(summary(result));
      expect(result.violations, `seed ${seed} (run again with this seed)`).toEqual([]);
      const totals = Object.values(result.tally).reduce((s, t) => ({ accepted: s.accepted + t.accepted, refused: s.refused + t.refused }), { accepted: 0, refused: 0 });
      // Every operation ended accepted or refused as documented, and both happened.
      expect(totals.accepted + totals.refused).toBe(2_000);
      expect(totals.refused).toBeGreaterThan(50);
      expect(totals.accepted).toBeGreaterThan(1_000);
      expect(result.replays).toBeGreaterThan(0);
      expect(result.snapshots).toBeGreaterThan(10);
    });
  }

  it('an approval racing a payment from the same account FAILS the action for want of funds (found by this test: it was a 400 leaving the action pending)', async () => {
    const cl = await startCluster(postgresAdminUrl(), 1);
    try {
      const server = cl.servers[0] as ServerProcess;
      const post = async (path: string, body: unknown, status: number, headers: Record<string, string> = {}) => {
        const reply = await call(server, cl.token, 'POST', path, body, headers);
        expect(reply.status, `${path}: ${reply.text}`).toBe(status);
        return reply.body ?? {};
      };
      const customer = await post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Race Customer', currencies: ['USD'] }, 201);
      const listed = await call(server, cl.token, 'GET', `/customers/internal-accounts?customerId=${customer.id as string}`);
      const usd = ((listed.body?.data as { id: string }[])[0] as { id: string }).id;
      const external = await post('/customers/external-accounts', { customerId: customer.id, currency: 'USD', accountInfo: externalAccountInfo.usd('000') }, 201);
      await post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 1_000 }, 200);
      const policy = { permissions: ['CREATE_TRANSFERS'], defaultExecutionMode: 'APPROVAL_REQUIRED', spendingLimits: { currency: 'USD', perTransactionLimit: 1_000_000 } };
      const agent = await post('/agents', { name: 'Race agent', customerId: customer.id, policy }, 201);
      const redeemed = await post(`/agents/device-codes/${(agent.deviceCode as { code: string }).code}/redeem`, undefined, 200);
      const payout = { source: { accountId: usd }, destination: { accountId: external.id }, amount: 1_000 };
      const action = await post('/agents/me/transfer-out', payout, 201, { Authorization: `Bearer ${redeemed.accessToken as string}` });
      // The platform's own payout takes the whole balance and holds its transaction open after the
      // debit; the approval starts meanwhile, when the committed balance still covers the payout.
      const racing = post('/transfer-out', payout, 201, { 'x-test-delay-ms': '3000' });
      await untilRowLocked(cl.databaseUrl, usd);
      const approved = await call(server, cl.token, 'POST', `/agents/${(agent.agent as { id: string }).id}/actions/${action.id as string}/approve`);
      await racing;
      expect(approved.status, approved.text).toBe(200);
      expect(approved.body).toMatchObject({ status: 'FAILED', transaction: { status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' } });
      expect((await call(server, cl.token, 'GET', `/internal-accounts/${usd}`)).body?.balance).toMatchObject({ amount: 0 });
    } finally {
      await cl.close();
    }
  });

  it('a ledger that reads a balance and then overwrites it (PAYMENTS_TEST_FAULT=lost-update) fails the same checker', async () => {
    const result = await runBank({ ...options(FIXED_BANK_SEED, 600), env: { PAYMENTS_TEST_FAULT: 'lost-update' } });
    console.log(summary(result));
    const broken = new Set<Invariant>(result.violations.map((v) => v.invariant));
    const counts = Object.fromEntries([...broken].map((i) => [i, result.violations.filter((v) => v.invariant === i).length]));
    console.log(`violations on the broken ledger: ${JSON.stringify(counts)}\n${result.violations.slice(0, 8).map((v) => `${v.invariant}: ${v.detail}`).join('\n')}`);
    // Lost updates: balances no longer the sum of their entries, money made or destroyed.
    expect(broken).toContain('ledger-check');
    expect(broken).toContain('conservation');
    expect(broken).toContain('balances-match-requests');
    // The database's own constraints saw nothing: no request failed with a 5xx.
    expect(broken).not.toContain('no-5xx');
  });
});
