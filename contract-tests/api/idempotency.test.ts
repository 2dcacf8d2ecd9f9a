// Idempotency-Key semantics shared by every money-moving operation, shown on sandbox funding (the
// first such operation the server implements): in-flight duplicates, 5xx outcomes and concurrent
// retries. Replay and mismatch are covered in sandbox-fund.test.ts.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, idempotencyKey, itServer } from '../support/api.ts';
import { balanceOf, fund, newCustomerAccount } from '../support/factories.ts';

const specFile = (path: string) => readFileSync(resolve(import.meta.dirname, '..', '..', 'spec', path), 'utf8');

describe('Idempotency-Key', () => {
  itServer('a key is scoped to its operation: the same key on another operation is a new request, not a reuse', async () => {
    const account = (await newCustomerAccount('USD')).id;
    const key = idempotencyKey();
    const funded = await fund(account, 300, key);
    expect(funded.response.status).toBe(200);
    const created = await api.POST('/customers', { params: { header: { 'Idempotency-Key': key } }, body: { customerType: 'INDIVIDUAL', fullName: 'Scoped Key', currencies: ['USD'] } });
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get('idempotent-replayed')).toBeNull();
    // Each operation still replays its own first answer under the key.
    const again = await fund(account, 300, key);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(await balanceOf(account)).toBe(300);
  });

  it('the contract says so, and never that another method or operation is a reuse', () => {
    for (const text of [specFile('guides/idempotency.md'), specFile('components/parameters/IdempotencyKey.yaml')]) {
      expect(text).toMatch(/scoped to the API credential[^.]*and the operation/);
      expect(text).not.toMatch(/different[^|.;]*\bmethod\b/);
    }
  });

  itServer('a 5xx outcome leaves no effect and is not stored: the same key can be retried', async () => {
    const account = (await newCustomerAccount('USD')).id;
    const key = idempotencyKey();
    const failed = await fund(account, 700, key, { headers: { 'x-test-fail-after-handler': 'true' } });
    expect(failed.response.status).toBe(500);
    expect(failed.error?.code).toBe('INTERNAL_ERROR');
    expect(await balanceOf(account)).toBe(0);

    const retried = await fund(account, 700, key);
    expect(retried.response.status).toBe(200);
    expect(retried.response.headers.get('idempotent-replayed')).toBeNull();
    expect(await balanceOf(account)).toBe(700);
  });

  itServer('concurrent retries of one key credit exactly once; each answer is the result or 409', async () => {
    const account = (await newCustomerAccount('USD')).id;
    const key = idempotencyKey();
    const responses = await Promise.all(Array.from({ length: 12 }, () => fund(account, 1234, key)));
    const statuses = responses.map((r) => r.response.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    for (const r of responses.filter((res) => res.response.status === 409)) expect(r.error?.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect(await balanceOf(account)).toBe(1234);
  });
});
