// What a list's totalCount is (spec/guides/pagination.md), on a server of this file's own (PGlite
// on the pglite target, a fresh PostgreSQL database on the postgres target) so that every row of
// its platform is one these tests made: the number of matches when the walk's first page was
// read, exact, whether the database kept it as the rows changed (the list unfiltered, or with one
// of its counted filters) or counted the matches (any other filter); carried unchanged by the
// walk's cursors. Each case walks the lists to their ends, which is the count's oracle.
import { describe, expect, it } from 'vitest';
import { target } from '../support/api.ts';
import { ownServer } from '../support/own-server.ts';

type Page = { data: { id: string }[]; hasMore: boolean; nextCursor?: string; totalCount: number };
type Query = Record<string, string | number | boolean | string[]>;

const HOUR = 60 * 60 * 1000;
let serial = 0;
const unique = () => `${Date.now().toString(36)}${(serial++).toString(36)}`;
const digits = (n: number) => Array.from({ length: n }, () => String(Math.floor(Math.random() * 10))).join('');
const usdAccount = (suffix: string) => ({
  accountType: 'USD_ACCOUNT' as const,
  accountNumber: `${digits(9)}${suffix}`,
  routingNumber: '021000021',
  bankAccountType: 'CHECKING' as const,
  bankName: 'JPMorgan Chase Bank',
  beneficiary: { beneficiaryType: 'INDIVIDUAL' as const, fullName: 'Jane Doe' },
});

describe.skipIf(target === 'prism')('totalCount', () => {
  const own = ownServer({ onTargetDatabase: true });
  // The checked client, with the path as a string: these tests walk many lists the same way.
  const get = (path: string, query: Query) =>
    (own.via.GET as unknown as (p: string, init: { params: { query: Query } }) => Promise<{ data?: Page; error?: unknown; response: Response }>)(path, { params: { query } });
  const post = async <T = { id: string }>(path: string, body: unknown): Promise<T> => {
    const { data, error, response } = await (own.via.POST as unknown as (p: string, init: { body: unknown }) => Promise<{ data?: T; error?: unknown; response: Response }>)(path, { body });
    if (data === undefined || response.status >= 300) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(error)}`);
    return data;
  };

  async function page(path: string, query: Query): Promise<Page> {
    const { data, error, response } = await get(path, query);
    if (data === undefined) throw new Error(`GET ${path}: ${response.status} ${JSON.stringify(error)}`);
    return data;
  }

  /** The list walked to its end, two items a page: its items, and each page's totalCount. */
  async function walk(path: string, query: Query = {}): Promise<{ ids: string[]; totals: number[] }> {
    const ids: string[] = [];
    const totals: number[] = [];
    let cursor: string | undefined;
    do {
      const p = await page(path, { ...query, limit: 2, ...(cursor === undefined ? {} : { cursor }) });
      ids.push(...p.data.map((item) => item.id));
      totals.push(p.totalCount);
      cursor = p.nextCursor;
    } while (cursor !== undefined);
    return { ids, totals };
  }

  /** Every page of the walk says how many items the walk found. */
  async function expectCounted(path: string, query: Query = {}, expected?: number): Promise<number> {
    const { ids, totals } = await walk(path, query);
    expect(new Set(ids).size, `${path} ${JSON.stringify(query)}: an item twice`).toBe(ids.length);
    expect(totals, `${path} ${JSON.stringify(query)}`).toEqual(totals.map(() => ids.length));
    if (expected !== undefined) expect(ids.length, `${path} ${JSON.stringify(query)}`).toBe(expected);
    return ids.length;
  }

  const customerQueries = (since: string): Query[] => [
    {},
    { isIncludingDeleted: true },
    { customerType: 'BUSINESS' },
    { customerType: 'INDIVIDUAL', isIncludingDeleted: true },
    { region: 'GB' },
    { currency: 'EUR' },
    { kycStatus: 'UNVERIFIED' },
    { kybStatus: 'PENDING' },
    { customerType: 'INDIVIDUAL', region: 'US' },
    { createdAfter: since },
    { updatedBefore: new Date(Date.now() + HOUR).toISOString() },
  ];

  async function customer(region: string, type: 'INDIVIDUAL' | 'BUSINESS', currencies: string[]): Promise<{ id: string }> {
    const body =
      type === 'INDIVIDUAL'
        ? { customerType: type, platformCustomerId: `count-${unique()}`, fullName: 'Jane Doe', region, currencies }
        : { customerType: type, platformCustomerId: `count-${unique()}`, region, currencies, businessInfo: { legalName: 'Acme Corporation', country: 'US' } };
    return post('/customers', body);
  }

  it('customers: exact on the first page, unfiltered, with each filter and combined, and after every change that moves a customer between them', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const made = [
      await customer('US', 'INDIVIDUAL', ['USD']),
      await customer('US', 'INDIVIDUAL', ['USD', 'EUR']),
      await customer('GB', 'INDIVIDUAL', ['USD']),
      await customer('GB', 'BUSINESS', ['USD', 'EUR']),
      await customer('FR', 'BUSINESS', ['EUR']),
    ];
    const counts = async () => Promise.all(customerQueries(since).map((q) => expectCounted('/customers', q)));
    const before = await counts();
    expect(before.slice(0, 8)).toEqual([5, 5, 2, 3, 2, 3, 3, 0]);

    // Deleted: out of the default list, still in the one with the deleted.
    const [first, , third] = made;
    expect((await own.via.DELETE('/customers/{customerId}', { params: { path: { customerId: first?.id ?? '' } } })).response.status).toBe(200);
    // A currency more: counted under it too.
    const patched = await own.via.PATCH('/customers/{customerId}', { params: { path: { customerId: third?.id ?? '' } }, body: { customerType: 'INDIVIDUAL', currencies: ['USD', 'EUR'] } });
    expect(patched.response.status).toBe(200);
    const after = await counts();
    expect(after.slice(0, 8)).toEqual([4, 5, 2, 3, 2, 4, 2, 0]);
    // The holders of a currency, newest first, each once: the one who gained it among them.
    const holders = made.filter((_, i) => i !== 0 && i !== 4).map((c) => c.id).reverse();
    expect((await walk('/customers', { currency: 'USD' })).ids).toEqual(holders);
    expect((await walk('/customers', { currency: 'EUR' })).ids).toEqual([made[4], made[3], made[2], made[1]].map((c) => c?.id));
  });

  it('a walk keeps its first page\'s totalCount; the next walk counts again', async () => {
    const region = 'NO';
    for (let i = 0; i < 3; i++) await customer(region, 'INDIVIDUAL', ['USD']);
    const firstPage = await page('/customers', { region, limit: 2 });
    expect(firstPage).toMatchObject({ hasMore: true, totalCount: 3 });
    await customer(region, 'INDIVIDUAL', ['USD']);
    const nextPage = await page('/customers', { region, limit: 2, cursor: firstPage.nextCursor ?? '' });
    // The newer customer is before the walk's position, so not on its pages either.
    expect(nextPage).toMatchObject({ hasMore: false, totalCount: 3 });
    expect(nextPage.data).toHaveLength(1);
    expect((await page('/customers', { region, limit: 2 })).totalCount).toBe(4);
  });

  it('a cursor whose totalCount was changed is refused with 400 INVALID_CURSOR', async () => {
    for (let i = 0; i < 3; i++) await customer('SE', 'INDIVIDUAL', ['USD']);
    const firstPage = await page('/customers', { region: 'SE', limit: 2 });
    const [payload, tag] = (firstPage.nextCursor ?? '').split('.');
    const fields = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as { t: number };
    expect(fields.t).toBe(3);
    const forged = `${Buffer.from(JSON.stringify({ ...fields, t: 1 })).toString('base64url')}.${tag}`;
    const { response, error } = await get('/customers', { region: 'SE', limit: 2, cursor: forged });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ code: 'INVALID_CURSOR' });
  });

  it('transactions, accounts, agents, tokens and documents: exact after creations, status changes and deletions', async () => {
    const c = await customer('US', 'INDIVIDUAL', ['USD', 'EUR']);
    const accounts = await page('/customers/internal-accounts', { customerId: c.id });
    const usd = (accounts.data as { id: string; balance: { currency: { code: string } } }[]).find((a) => a.balance.currency.code === 'USD')?.id ?? '';
    await post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 100_000 });
    const plain = await post('/customers/external-accounts', { customerId: c.id, currency: 'USD', accountInfo: usdAccount('000') });
    const slow = await post('/customers/external-accounts', { customerId: c.id, currency: 'USD', accountInfo: usdAccount('005') });
    await post('/platform/external-accounts', { currency: 'USD', accountInfo: usdAccount('000') });
    await post('/transfer-out', { source: { accountId: usd }, destination: { accountId: plain.id }, amount: 100 });
    await post('/transfer-in', { source: { accountId: plain.id }, destination: { accountId: usd }, amount: 50 });
    const token = await post('/tokens', { name: `count ${unique()}`, permissions: ['VIEW'] });
    const upload = async () => {
      const form = new FormData();
      for (const [k, v] of Object.entries({ documentHolder: c.id, documentType: 'PASSPORT', country: 'US' })) form.append(k, v);
      form.append('file', new Blob([new TextEncoder().encode('%PDF-1.7\n'.padEnd(300, ' '))], { type: 'application/pdf' }), 'passport.pdf');
      const { data } = await own.via.POST('/documents', { body: { documentHolder: c.id, documentType: 'PASSPORT', country: 'US', file: '' }, bodySerializer: () => form });
      return data?.id ?? '';
    };
    await upload();
    const document = await upload();
    const agent = await post<{ agent: { id: string } }>('/agents', {
      name: 'Counted agent',
      customerId: c.id,
      policy: { permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 1000 } },
    });

    const queries: [string, Query][] = [
      ['/transactions', {}],
      ['/transactions', { status: 'PENDING' }],
      ['/transactions', { status: 'CANCELLED' }],
      ['/transactions', { status: 'COMPLETED' }],
      ['/transactions', { type: 'OUTGOING' }],
      ['/transactions', { type: 'OUTGOING', status: 'COMPLETED' }],
      ['/transactions', { customerId: c.id }],
      ['/transactions', { accountId: usd }],
      ['/transactions', { sortOrder: 'ASC' }],
      ['/customers/internal-accounts', {}],
      ['/customers/internal-accounts', { currency: 'EUR' }],
      ['/customers/internal-accounts', { customerId: c.id }],
      ['/platform/internal-accounts', {}],
      ['/platform/internal-accounts', { currency: 'USD' }],
      ['/customers/external-accounts', {}],
      ['/customers/external-accounts', { currency: 'USD' }],
      ['/customers/external-accounts', { customerId: c.id }],
      ['/customers/external-accounts', { status: 'ACTIVE' }],
      ['/customers/external-accounts', { status: 'INACTIVE' }],
      ['/customers/external-accounts', { currency: 'USD', status: 'INACTIVE' }],
      ['/platform/external-accounts', {}],
      ['/platform/external-accounts', { status: 'ACTIVE' }],
      ['/tokens', {}],
      ['/agents', {}],
      ['/agents', { isPaused: true }],
      ['/agents', { isConnected: false }],
      ['/agents', { customerId: c.id }],
      ['/documents', {}],
      ['/documents', { documentHolder: c.id }],
    ];
    const counts = async () => {
      const out: number[] = [];
      for (const [path, query] of queries) out.push(await expectCounted(path, query));
      return out;
    };
    // Made last, just before the counts: it fails about 30 s after it is made, and the cancel below
    // must find it still PENDING however busy the machine is.
    const pending = await post('/transfer-out', { source: { accountId: usd }, destination: { accountId: slow.id }, amount: 100 });
    const before = await counts();

    expect((await own.via.POST('/transactions/{transactionId}/cancel', { params: { path: { transactionId: pending.id } } })).response.status).toBe(200);
    expect((await own.via.DELETE('/customers/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: slow.id } } })).response.status).toBe(204);
    expect((await own.via.DELETE('/tokens/{tokenId}', { params: { path: { tokenId: token.id } } })).response.status).toBe(204);
    expect((await own.via.PATCH('/agents/{agentId}', { params: { path: { agentId: agent.agent.id } }, body: { isPaused: true } })).response.status).toBe(200);
    expect((await own.via.DELETE('/documents/{documentId}', { params: { path: { documentId: document } } })).response.status).toBe(204);
    const after = await counts();
    const change = after.map((n, i) => n - (before[i] ?? 0));
    // PENDING -1, CANCELLED +1; one external account ACTIVE no more (INACTIVE, out of the default list), one token and one
    // document fewer; one agent paused.
    expect(change).toEqual([0, -1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, 1, 1, 0, 0, -1, 0, 1, 0, 0, -1, -1]);
    expect(before.slice(-2)).toEqual([2, 2]);

    expect((await own.via.DELETE('/agents/{agentId}', { params: { path: { agentId: agent.agent.id } } })).response.status).toBe(204);
    expect(await expectCounted('/agents', { isPaused: true })).toBe((after[24] ?? 0) - 1);
    expect(await expectCounted('/agents', {})).toBe((after[23] ?? 0) - 1);
  }, 90_000); // about 90 requests one after another: more than the default 30 s on a busy machine

  it('writers at once are all counted', async () => {
    const region = 'DK';
    const before = await expectCounted('/customers', {});
    await Promise.all(Array.from({ length: 24 }, () => customer(region, 'INDIVIDUAL', ['USD'])));
    expect(await expectCounted('/customers', { region }, 24)).toBe(24);
    expect(await expectCounted('/customers', {})).toBe(before + 24);
  });
});
