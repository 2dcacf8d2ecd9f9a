// The money core as layers (server/payments/, server/ledger/ in the README's layout): the areas
// above move money through the payments layer alone, the payments layer through the ledger, and the
// ledger knows nothing of what sits above it. Only these files write the money's tables.
import { describe, expect, it } from 'vitest';
import { serverSources } from '../support/server-sources.ts';

const all = serverSources;

const importsOf = (from: (path: string) => boolean, to: (imported: string) => boolean) =>
  all.filter((f) => from(f.path)).flatMap((f) => f.imports.filter(to).map((imported) => `${f.path} → ${imported}`));
const inFolder = (folder: string) => (path: string) => path.startsWith(`${folder}/`);
/** The wiring at the root (boot, app, server): it may import anything. */
const isRoot = (path: string) => !path.includes('/');

describe('the money core', () => {
  it('reads the files it checks', () => {
    expect(all.find((f) => f.path === 'payments/payments.service.ts')?.imports).toContain('ledger/ledger.service.ts');
  });

  it('the ledger imports nothing above it: only the request context, db/, shared/ and the internal accounts\' rows (whose balance it owns)', () => {
    const allowed = (i: string) => i.startsWith('context/') || i.startsWith('ledger/') || i.startsWith('db/') || i.startsWith('shared/') || i === 'internal-accounts/internal-accounts.repository.ts';
    expect(importsOf(inFolder('ledger'), (i) => !allowed(i))).toEqual([]);
  });

  it('only the payments layer moves money through the ledger (the wiring and the test controls read its check)', () => {
    const offenders = importsOf((p) => !inFolder('ledger')(p) && !inFolder('payments')(p) && !isRoot(p), inFolder('ledger'));
    expect(offenders).toEqual(['http/test-control.ts → ledger/ledger-check.ts']);
  });

  it('above the payments layer, only its service (a payment\'s life), its rules, its rails and its mapper are used', () => {
    const publicFiles = new Set(['payments/payments.service.ts', 'payments/account-rules.ts', 'payments/payment-rails.ts', 'payments/payments.mapper.ts']);
    const offenders = importsOf((p) => !inFolder('payments')(p) && !isRoot(p), (i) => inFolder('payments')(i) && !publicFiles.has(i));
    // The transactions' reads share the row type with the writes.
    expect(offenders).toEqual(['transactions/transactions.repository.ts → payments/payments.repository.ts']);
  });

  it('only payments.repository.ts writes transactions, only the ledger writes movements, entries and balances', () => {
    const writers = (pattern: RegExp) => all.filter((f) => !f.path.startsWith('db/migrations/') && pattern.test(f.source)).map((f) => f.path).sort();
    expect(writers(/(insertInto|updateTable|deleteFrom)\('transactions'\)/)).toEqual(['payments/payments.repository.ts']);
    expect(writers(/(insertInto|updateTable|deleteFrom)\('ledger_(movements|entries)'\)/)).toEqual(['ledger/ledger.repository.ts']);
    expect(writers(/updateTable\('internal_accounts[^']*'\)[^;]*\bbalance\b/)).toEqual(['ledger/ledger.repository.ts', 'ledger/lost-update.repository.ts']);
  });

  it('services answer outcomes: none returns an HTTP status (the handlers pick it)', () => {
    const offenders = all.filter((f) => f.path.endsWith('.service.ts') && /\bstatus:\s*[1-5]\d\d\b/.test(f.source)).map((f) => f.path);
    expect(offenders).toEqual([]);
  });
});
