// A burst of guesses sent at once gets no more judged than one sent one by one. For each limit on
// guessing (failed authentications, unknown device codes, unknown invitation codes), 30 wrong
// attempts at once, half through each of two server processes on one PostgreSQL, and behind
// them (in the same burst, none answered yet) one right attempt through each process: exactly
// the limit's worth of the wrong ones are judged (401 or 404), the others answer 429, and so do
// the right ones, which come after the wrong ones that used the limit up. Were attempts judged
// before they are counted, the right ones would be judged too: the burst would have 32 guesses.
// Failed authentications also behind a transaction-mode pooler (PgBouncer), as a deployment at
// scale runs (server/README.md).
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { AUTHENTICATION_LIMIT } from '../../server/tokens/tokens.service.ts';
import { UNKNOWN_CODE_LIMIT } from '../../server/agents/agents.service.ts';
import { UNKNOWN_INVITATION_LIMIT } from '../../server/invitations/invitations.service.ts';
import { target } from '../support/api.ts';
import { call, startCluster, type Cluster } from '../support/cluster.ts';
import { adminUrlOf, withDatabase } from '../support/postgres-database.ts';
import { basicAuth } from '../support/raw-requests.ts';
import type { ServerProcess } from '../support/server-process.ts';

const root = resolve(import.meta.dirname, '..', '..');
const WRONG = 30;

const drops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const drop of drops.splice(0)) await drop();
});

/** A transaction-mode pooler's server connections, fewer than the two processes' pools (ten each). */
const POOLER_CONNECTIONS = 8;

/**
 * Two processes on a fresh database, both believing the loopback proxy's X-Forwarded-For;
 * `connections`: how many of their database connections a burst can hold waiting at once.
 */
async function twoProcesses(behindPooler = false): Promise<Cluster & { a: ServerProcess; b: ServerProcess; connections: number }> {
  const started = await startCluster(adminUrlOf(inject('databaseUrl')), 2, { TRUST_PROXY: 'loopback' }, behindPooler ? { pooler: { poolSize: POOLER_CONNECTIONS } } : {});
  drops.push(started.close);
  const [a, b] = started.servers as [ServerProcess, ServerProcess];
  return { ...started, a, b, connections: behindPooler ? POOLER_CONNECTIONS : 20 };
}

interface Answer {
  status: number;
  code: string | undefined;
  retryAfter: number;
}

const answerOf = async (res: Response): Promise<Answer> => {
  const text = await res.text();
  const code = text === '' ? undefined : ((JSON.parse(text) as { code?: string }).code ?? undefined);
  return { status: res.status, code, retryAfter: Number(res.headers.get('retry-after')) };
};

/**
 * Sends `WRONG` wrong attempts, alternating between the two processes, then one right attempt
 * through each, all before any is answered: the wrong ones' answers, and the right ones'. So that
 * "at once" does not depend on how busy the machine is, the limits' table is locked meanwhile:
 * the wrong attempts wait at the database, all but a few of the connections they can hold with
 * them, before the right ones are sent (and wait for a connection behind them).
 */
async function burst({ databaseUrl, connections }: { databaseUrl: string; connections: number }, send: (via: 'a' | 'b', right: boolean, i: number) => Promise<Response>): Promise<{ wrong: Answer[]; right: Answer[] }> {
  return withDatabase(databaseUrl, async (db) => {
    await db.query('begin');
    await db.query('lock table failure_limits in access exclusive mode');
    const answered = (responses: Promise<Response>[]) => Promise.all(responses.map(async (r) => answerOf(await r)));
    const wrong = answered(Array.from({ length: WRONG }, (_, i) => send(i % 2 === 0 ? 'a' : 'b', false, i)));
    // pg_locks, not pg_stat_activity: a transaction sees the latter as it was when first read.
    const waiting = async () => Number((await db.query<{ n: string }>("select count(*) as n from pg_locks where relation = 'failure_limits'::regclass and not granted")).rows[0]?.n);
    const deadline = Date.now() + 20_000;
    const enough = Math.min(connections, 16);
    while ((await waiting()) < enough && Date.now() < deadline) await sleep(20);
    expect(await waiting(), 'wrong attempts waiting at the database').toBeGreaterThanOrEqual(enough);
    const right = answered([send('a', true, WRONG), send('b', true, WRONG + 1)]);
    // Time for the right ones to reach their servers, which queue them for a connection.
    await sleep(500);
    await db.query('commit');
    return { wrong: await wrong, right: await right };
  });
}

const counts = (answers: Answer[]) => Object.fromEntries([...new Set(answers.map((a) => a.status))].sort().map((s) => [s, answers.filter((a) => a.status === s).length]));

/** The limit's refusals: 429 with its code, and an attempt back within one interval. */
function expectRefusals(answers: Answer[], code: string, intervalMs: number): void {
  for (const answer of answers.filter((a) => a.status === 429)) {
    expect(answer.code).toBe(code);
    expect(answer.retryAfter).toBeGreaterThanOrEqual(1);
    expect(answer.retryAfter).toBeLessThanOrEqual(Math.ceil(intervalMs / 1000));
  }
}

describe.skipIf(target !== 'postgres')('a burst of guesses on two processes is judged no more than the limit allows', () => {
  it.each([
    ['', false],
    [', behind a transaction-mode pooler', true],
  ])(`failed authentications%s: ${AUTHENTICATION_LIMIT.max} of ${WRONG} wrong secrets at once judged, and the right secret sent with them refused`, async (_, behindPooler) => {
    const cl = await twoProcesses(behindPooler);
    const report: string[] = [];
    for (let round = 0; round < 3; round++) {
      // A fresh token (its own count) and a guessing address of the round's own.
      const created = await call(cl.a, cl.token, 'POST', '/tokens', { name: `target ${round}`, permissions: ['VIEW'] });
      expect(created.status).toBe(201);
      const target = { clientId: created.body?.clientId as string, clientSecret: created.body?.clientSecret as string };
      const guesser = { 'X-Forwarded-For': `192.0.2.${round + 1}` };
      const { wrong, right } = await burst(cl, (via, isRight, i) =>
        fetch(`${cl[via].baseUrl}/config`, { headers: { Authorization: basicAuth(isRight ? target : { ...target, clientSecret: `${target.clientSecret.slice(0, -4)}${String(i).padStart(4, '0')}` }), ...guesser } }),
      );
      report.push(`wrong ${JSON.stringify(counts(wrong))}, right ${JSON.stringify(counts(right))}`);
      expect(counts(wrong)).toEqual({ 401: AUTHENTICATION_LIMIT.max, 429: WRONG - AUTHENTICATION_LIMIT.max });
      expect(right.map((a) => a.status)).toEqual([429, 429]);
      expectRefusals([...wrong, ...right], 'TOO_MANY_FAILED_AUTHENTICATIONS', AUTHENTICATION_LIMIT.periodMs / AUTHENTICATION_LIMIT.max);
      // Nobody else is slowed: the owner's address is served on both processes.
      for (const server of [cl.a, cl.b]) expect((await call(server, target, 'GET', '/config', undefined, { 'X-Forwarded-For': '198.51.100.7' })).status).toBe(200);
    }
    console.log(`${WRONG} wrong secrets and 2 right ones at once over two processes, per round: ${report.join('; ')}`);
  }, 120_000);

  it(`unknown device codes: ${UNKNOWN_CODE_LIMIT.max} of ${WRONG} unknown codes at once judged, and valid codes sent with them refused (and still valid)`, async () => {
    const cl = await twoProcesses();
    const policy = { permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 1_000 } };
    const newCode = async () => {
      const customer = await call(cl.a, cl.token, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', currencies: ['USD'] });
      const created = await call(cl.a, cl.token, 'POST', '/agents', { name: 'Guessed', customerId: customer.body?.id, policy });
      expect(created.status).toBe(201);
      return (created.body?.deviceCode as { code: string }).code;
    };
    const redeem = (server: ServerProcess, code: string, address: string) => fetch(`${server.baseUrl}/agents/device-codes/${code}/redeem`, { method: 'POST', headers: { 'X-Forwarded-For': address } });
    const report: string[] = [];
    for (let round = 0; round < 3; round++) {
      const valid = [await newCode(), await newCode()];
      const guesser = `192.0.2.${round + 1}`;
      // Codes are issued without 0 and 1, so one with a 0 never exists.
      const { wrong, right } = await burst(cl, (via, isRight, i) => redeem(cl[via], isRight ? (valid[i - WRONG] as string) : `AGENT-ZZ0Z-${String(round * 100 + i).padStart(4, '0')}`, guesser));
      report.push(`wrong ${JSON.stringify(counts(wrong))}, right ${JSON.stringify(counts(right))}`);
      expect(counts(wrong)).toEqual({ 404: UNKNOWN_CODE_LIMIT.max, 429: WRONG - UNKNOWN_CODE_LIMIT.max });
      expect(right.map((a) => a.status)).toEqual([429, 429]);
      expectRefusals([...wrong, ...right], 'RATE_LIMITED', UNKNOWN_CODE_LIMIT.periodMs / UNKNOWN_CODE_LIMIT.max);
      // The refusal changed nothing: each code is redeemed from another address, once.
      for (const [i, code] of valid.entries()) expect((await redeem(i === 0 ? cl.a : cl.b, code, '198.51.100.7')).status).toBe(200);
    }
    console.log(`${WRONG} unknown device codes and 2 valid ones at once over two processes, per round: ${report.join('; ')}`);
  }, 120_000);

  it(`unknown invitation codes: ${UNKNOWN_INVITATION_LIMIT.max} of ${WRONG} unknown codes at once judged, and a valid code sent with them refused`, async () => {
    const cl = await twoProcesses();
    // The limit counts per platform: each round guesses from a platform of its own (a script on the database, as an operator creates one).
    const newPlatform = async (name: string) => {
      const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/create-platform.ts', name], {
        cwd: root,
        env: { ...process.env, ...cl.env, PGLITE_DATA_DIR: '' },
        encoding: 'utf8',
      });
      return { clientId: /clientId:\s+(\S+)/.exec(stdout)?.[1] ?? '', clientSecret: /clientSecret:\s+(\S+)/.exec(stdout)?.[1] ?? '' };
    };
    const newInvitation = async () => {
      const created = await call(cl.a, cl.token, 'POST', '/invitations', { inviterUma: '$jane@payments.example.org' });
      expect(created.status).toBe(201);
      return created.body?.code as string;
    };
    const report: string[] = [];
    for (let round = 0; round < 2; round++) {
      const guesser = await newPlatform(`Guessing platform ${round}`);
      const valid = await newInvitation();
      // Each process has verified the guesser's token before the burst, as a platform's servers would have.
      for (const server of [cl.a, cl.b]) expect((await call(server, guesser, 'GET', '/config')).status).toBe(200);
      // Random codes: these are unknown (a collision would only make one answer 200).
      const { wrong, right } = await burst(cl, (via, isRight, i) =>
        fetch(`${cl[via].baseUrl}/invitations/${isRight ? valid : `ffff${String(round * 100 + i).padStart(4, '0')}`}`, { headers: { Authorization: basicAuth(guesser) } }),
      );
      report.push(`wrong ${JSON.stringify(counts(wrong))}, right ${JSON.stringify(counts(right))}`);
      expect(counts(wrong)).toEqual({ 404: UNKNOWN_INVITATION_LIMIT.max, 429: WRONG - UNKNOWN_INVITATION_LIMIT.max });
      expect(right.map((a) => a.status)).toEqual([429, 429]);
      expectRefusals([...wrong, ...right], 'RATE_LIMITED', UNKNOWN_INVITATION_LIMIT.periodMs / UNKNOWN_INVITATION_LIMIT.max);
      // Another platform (the invitation's own) is served.
      expect((await call(cl.b, cl.token, 'GET', `/invitations/${valid}`)).status).toBe(200);
    }
    console.log(`${WRONG} unknown invitation codes and 2 valid reads at once over two processes, per round: ${report.join('; ')}`);
  }, 180_000);
});
