// Idempotency-Key semantics shared by every money-moving operation, shown on sandbox funding (the
// first such operation the server implements): in-flight duplicates, 5xx outcomes and concurrent
// retries. Replay and mismatch are covered in sandbox-fund.test.ts.
import { describe, expect } from 'vitest';
import { api, baseUrl, checkResponse, credentials, idempotencyKey, itPostgres, itServer, unique } from '../support/api.ts';

async function newAccount() {
  const { data: customer } = await api.POST('/customers', { body: { customerType: 'INDIVIDUAL', platformCustomerId: `idem-${unique()}`, currencies: ['USD'] } });
  const { data } = await api.GET('/customers/internal-accounts', { params: { query: { customerId: customer?.id ?? '' } } });
  const account = data?.data[0];
  if (account === undefined) throw new Error('no internal account');
  return account.id;
}

/** Funding through fetch, so the test can add the suite's fault-injection headers; still checked against the contract. */
async function fund(accountId: string, amount: number, key: string, extra: Record<string, string> = {}): Promise<Response> {
  const url = `${baseUrl}/sandbox/internal-accounts/${accountId}/fund`;
  const response = await fetch(url, {
    method: 'POST',
    headers: { Authorization: `Basic ${btoa(`${credentials.clientId}:${credentials.clientSecret}`)}`, 'content-type': 'application/json', 'Idempotency-Key': key, ...extra },
    body: JSON.stringify({ amount }),
  });
  await checkResponse('POST', url, response);
  return response;
}

const balanceOf = async (accountId: string) => (await api.GET('/internal-accounts/{accountId}', { params: { path: { accountId } } })).data?.balance.amount;

describe('Idempotency-Key', () => {
  itServer('a 5xx outcome leaves no effect and is not stored: the same key can be retried', async () => {
    const account = await newAccount();
    const key = idempotencyKey();
    const failed = await fund(account, 700, key, { 'x-test-fail-after-handler': 'true' });
    expect(failed.status).toBe(500);
    expect(((await failed.json()) as { code: string }).code).toBe('INTERNAL_ERROR');
    expect(await balanceOf(account)).toBe(0);

    const retried = await fund(account, 700, key);
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await balanceOf(account)).toBe(700);
  });

  itServer('concurrent retries of one key credit exactly once; each answer is the result or 409', async () => {
    const account = await newAccount();
    const key = idempotencyKey();
    const responses = await Promise.all(Array.from({ length: 12 }, () => fund(account, 1234, key)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    for (const r of responses.filter((res) => res.status === 409)) expect(((await r.json()) as { code: string }).code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect(await balanceOf(account)).toBe(1234);
  });

  // PGlite has one connection, so a duplicate waits for the first request instead of overlapping it.
  itPostgres('a duplicate that arrives while the first is running gets 409, then the stored result', async () => {
    const account = await newAccount();
    const key = idempotencyKey();
    const slow = fund(account, 500, key, { 'x-test-delay-ms': '1500' });
    await new Promise((r) => setTimeout(r, 300));
    const duplicate = await fund(account, 500, key);
    expect(duplicate.status).toBe(409);
    expect(((await duplicate.json()) as { code: string }).code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect((await slow).status).toBe(200);
    const replay = await fund(account, 500, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await balanceOf(account)).toBe(500);
  });
});
