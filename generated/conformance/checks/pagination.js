// Pagination, on every list of the spec (pagination guide): walked to the end at several page
// sizes, over items the check made (so the count is known), including a last page that is exactly
// full, which must say `hasMore: false`; and cursors that were altered or are sent with other
// filters, which are 400 INVALID_CURSOR.
import { CheckFailure, CheckSkipped } from "../check.js";
import { accountInfo, accountOf, agent, business, document, externalAccount, fund, individual, inOrder, owner, token, verification, } from "../fixtures.js";
import { CLIENT_KEY } from "./wallet.js";
import { check, enc } from "./define.js";
const RULE_ORDER = 'a list is newest first unless the operation says otherwise (pagination guide: `data`; each list\'s description)';
const RULE_HAS_MORE = '`hasMore` is true only when another page follows: the last page, also when exactly full, says `hasMore: false` (pagination guide)';
/** Follows the cursors of a list from its first page to its last, checking every page. */
async function walk(t, scope, limit) {
    const key = scope.key ?? ((item) => String(item.id));
    const items = [];
    const pages = [];
    let cursor;
    let total;
    for (;;) {
        const reply = await t.call('GET', scope.path, { query: { ...scope.query, limit, ...(cursor === undefined ? {} : { cursor }) }, ...(scope.as === undefined ? {} : { as: scope.as }) });
        const p = t.expect(reply, 200, 'a list answers 200 with its envelope (pagination guide)');
        pages.push({ size: p.data.length, hasMore: p.hasMore });
        t.is.ok(p.data.length <= limit, 'a page holds at most `limit` items (pagination guide)', `at most ${limit}`, () => `${p.data.length}`, reply);
        t.is.ok(p.hasMore === (p.nextCursor !== undefined), '`nextCursor` is present exactly when `hasMore` is true (pagination guide)', `hasMore ${p.hasMore} with${p.hasMore ? '' : 'out'} a nextCursor`, () => `hasMore ${p.hasMore}, nextCursor ${JSON.stringify(p.nextCursor)}`, reply);
        if (total === undefined)
            total = p.totalCount;
        else {
            const first = total;
            t.is.ok(p.totalCount === first, "`totalCount` does not move under you: a page fetched with a cursor repeats its walk's first `totalCount` (pagination guide)", `totalCount ${first}, as on the first page`, () => `totalCount ${p.totalCount} on page ${pages.length}`, reply);
        }
        if (cursor !== undefined) {
            t.is.ok(p.data.length > 0, RULE_HAS_MORE, 'a page after `hasMore: true` to hold items', () => `an empty page after ${pages.length - 1} pages of ${pages.slice(0, -1).map((x) => x.size).join(', ')} items (the previous page said hasMore: true)`, reply);
        }
        if (p.hasMore)
            t.is.ok(p.data.length === limit, 'every page before the last is full (pagination guide: limit is the page size)', `${limit} items`, () => `${p.data.length}`, reply);
        for (const item of p.data) {
            t.is.ok(!items.some((seen) => key(seen) === key(item)), 'a walk never sees an item twice (pagination guide)', `${key(item)} once`, () => 'twice', reply);
            const before = items.at(-1)?.createdAt;
            if (typeof before === 'string' && typeof item.createdAt === 'string') {
                t.is.ok(Date.parse(item.createdAt) <= Date.parse(before), RULE_ORDER, `createdAt never later than the item before it (limit=${limit})`, () => `item ${items.length} (${String(item.createdAt)}) after item ${items.length - 1} (${before})`, reply);
            }
            items.push(item);
        }
        if (!p.hasMore) {
            if (items.length !== total)
                await unchangedSince(t, scope, total);
            const counted = total;
            t.is.ok(items.length === counted, '`totalCount` is how many items match the filters across all pages, as of the first page (pagination guide)', `totalCount ${items.length}: the items the walk found`, () => `totalCount ${counted}`, reply);
            return { items, pages };
        }
        if (pages.length > 1_000)
            throw new CheckFailure('a list ends', 'a last page', 'over 1,000 pages', reply);
        cursor = p.nextCursor;
    }
}
/**
 * A walk that found another number of items than its first page's `totalCount` is a failure,
 * unless another client changed the list meanwhile: a first page read now counts otherwise.
 */
async function unchangedSince(t, scope, total) {
    const now = await t.call('GET', scope.path, { query: { ...scope.query, limit: 1 }, ...(scope.as === undefined ? {} : { as: scope.as }) });
    const counted = t.expect(now, 200, 'a list answers 200').totalCount;
    if (counted !== total)
        throw new CheckSkipped(`the list changed while it was walked (totalCount ${total}, then ${counted} on a new first page): another client is writing to it`);
}
/** Walks a scope at a size whose last page is exactly full, one whose last page is not, and one page holding all. */
async function walkScope(t, scope) {
    const first = await t.call('GET', scope.path, { query: { ...scope.query, limit: 100 }, ...(scope.as === undefined ? {} : { as: scope.as }) });
    const total = t.expect(first, 200, 'a list answers 200').totalCount;
    if (scope.expected !== undefined)
        t.is.equal(total, scope.expected.length, `totalCount counts the ${scope.expected.length} items the check made under these filters`, first);
    if (total < 2) {
        if (scope.expected === undefined)
            throw new CheckSkipped(`the list holds ${total} item${total === 1 ? '' : 's'} here: nothing to page through`);
        throw new CheckFailure('a list the check filled has its items', 'at least 2 items', `${total}`, first);
    }
    // An exactly full last page: a page size dividing the count (2 or more pages).
    const divisor = [2, 3, 5, 7, 1].find((d) => total % d === 0 && total / d >= 2 && d <= 100) ?? 1;
    // Sizes within the documented maximum of 100: a list no filter narrows (the platform's external
    // accounts) grows past it with every run against a long-lived sandbox.
    const sizes = [...new Set([divisor, Math.min(total, 100), total > 2 ? Math.min(total - 1, 99) : 1])];
    let firstWalk;
    for (const size of sizes) {
        const { items } = await walk(t, scope, size);
        if (scope.key !== undefined) {
            // Lists without a creation time (computed ones): their order is the same at every page size.
            const keys = items.map(scope.key);
            firstWalk ??= keys;
            t.is.equal(keys, firstWalk, `a list's order does not depend on the page size: the walk at limit=${size} finds the items of the walk at limit=${sizes[0]} in the same order (pagination guide)`);
        }
        if (scope.expected !== undefined) {
            t.is.equal(items.map((i) => String(i.id)), scope.expected, `the walk at limit=${size} returns every item once, newest first (pagination guide)`);
        }
        if (scope.among !== undefined) {
            const walked = items.map((i) => String(i.id)).filter((id) => scope.among?.includes(id));
            t.is.equal(walked, scope.among, `the walk at limit=${size} returns every item once, newest first (pagination guide)`);
        }
    }
}
/**
 * The list changes during a walk: an item added after the first page moves nothing. Every page
 * repeats the first page's `totalCount`, and the walk finds the items as of the first page.
 */
async function walkWhileGrowing(t, scope) {
    const grow = scope.grow;
    if (grow === undefined || scope.expected === undefined)
        throw new CheckFailure('the check names a list it can grow', 'a list of the check\'s own', 'none');
    const as = scope.as === undefined ? {} : { as: scope.as };
    const first = await t.call('GET', scope.path, { query: { ...scope.query, limit: 1 }, ...as });
    const p = t.expect(first, 200, 'a list answers 200 with its envelope (pagination guide)');
    const total = p.totalCount;
    const items = [...p.data];
    await grow();
    for (let cursor = p.nextCursor, n = 2; cursor !== undefined; n++) {
        const reply = await t.call('GET', scope.path, { query: { ...scope.query, limit: 1, cursor }, ...as });
        const next = t.expect(reply, 200, 'a list answers 200 with its envelope (pagination guide)');
        t.is.ok(next.totalCount === total, "`totalCount` does not move under you: a page fetched with a cursor repeats its walk's first `totalCount`, also when the list changed since (pagination guide)", `totalCount ${total}, as on the first page`, () => `totalCount ${next.totalCount} on page ${n}, after an item was added`, reply);
        items.push(...next.data);
        if (n > 1_000)
            throw new CheckFailure('a list ends', 'a last page', 'over 1,000 pages', reply);
        cursor = next.nextCursor;
    }
    t.is.equal(items.map((i) => String(i.id)), scope.expected, 'items created while you page through a list do not shift the pages you have not read yet: the walk finds the items as of its first page, newest first (pagination guide)');
}
/** The cursor of the scope's first page at limit 1 (the scope holds at least 2 items). */
async function firstCursor(t, scope) {
    const reply = await t.call('GET', scope.path, { query: { ...scope.query, limit: 1 }, ...(scope.as === undefined ? {} : { as: scope.as }) });
    const p = t.expect(reply, 200, 'a list answers 200');
    if (!p.hasMore || p.nextCursor === undefined)
        throw new CheckFailure(RULE_HAS_MORE, 'hasMore: true with a nextCursor on a first page of 1 of 2 or more items', `hasMore ${p.hasMore}`, reply);
    return p.nextCursor;
}
async function cursorChecks(t, scope) {
    const cursor = await firstCursor(t, scope);
    const as = scope.as === undefined ? {} : { as: scope.as };
    // A character inside the cursor, where every bit counts (the last one of base64 may be padding).
    const at = Math.floor(cursor.length / 2);
    const tampered = `${cursor.slice(0, at)}${cursor[at] === 'A' ? 'Q' : 'A'}${cursor.slice(at + 1)}`;
    const altered = await t.call('GET', scope.path, { query: { ...scope.query, limit: 1, cursor: tampered }, ...as });
    t.expectError(altered, 400, 'INVALID_CURSOR', 'an altered cursor is 400 INVALID_CURSOR (pagination guide)');
    const other = await t.call('GET', scope.path, { query: { ...scope.otherQuery, limit: 1, cursor }, ...as });
    t.expectError(other, 400, 'INVALID_CURSOR', 'a cursor is bound to the filters it came with: with others it is 400 INVALID_CURSOR (pagination guide)');
}
const newest = (items) => items.map((i) => i.id).reverse();
/** A connected agent of a customer with 4 currencies, 4 bank accounts, and 4 transfers waiting for approval. */
const agentWorld = (t) => t.once('pagination-agent', async () => {
    const customer = await individual(t, { currencies: ['USD', 'EUR', 'GBP', 'MXN'] });
    const usd = await accountOf(t, customer.id, 'USD');
    await fund(t, usd.id, 10_000);
    const banks = await inOrder(4, () => externalAccount(t, customer.id, 'USD', accountInfo.usd()));
    const connected = await agent(t, { defaultExecutionMode: 'APPROVAL_REQUIRED', permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'MANAGE_EXTERNAL_ACCOUNTS'] }, customer.id);
    const actions = await inOrder(4, async (i) => {
        const reply = await t.call('POST', '/agents/me/transfer-out', { body: { source: { accountId: usd.id }, destination: { accountId: banks[i]?.id }, amount: 100 + i }, key: t.key(), as: { bearer: connected.accessToken } });
        return t.expect(reply, 201, 'an agent\'s transfer-out is answered 201 with its action (createCurrentAgentTransferOut)');
    });
    const accounts = t.expect(await t.call('GET', '/customers/internal-accounts', { query: { customerId: customer.id, limit: 100 } }), 200, 'listCustomerInternalAccounts answers 200');
    return { customer, connected, banks, actions, accounts: accounts.data.map((a) => a.id) };
});
/** The scoped lists: how to fill each with items of the check's own (some with the sandbox's funding or values). */
const scopes = {
    listTokens: {
        path: '/tokens',
        make: async (t) => {
            const name = t.uid();
            const made = await inOrder(4, () => token(t, ['VIEW'], name));
            return { path: '/tokens', query: { name }, expected: newest(made), otherQuery: { name: t.uid() }, grow: () => token(t, ['VIEW'], name) };
        },
    },
    listCustomers: {
        path: '/customers',
        make: async (t) => {
            // No filter selects only a run's customers: a window of creation times in a country few are
            // in holds these four, and any another client made there at the same moment.
            const made = await inOrder(4, () => individual(t, { region: 'TV' }));
            const query = { region: 'TV', createdAfter: made[0]?.createdAt, createdBefore: made.at(-1)?.createdAt };
            return { path: '/customers', query, expected: undefined, among: newest(made), otherQuery: { ...query, region: 'NR' } };
        },
    },
    listBeneficialOwners: {
        path: '/beneficial-owners',
        make: async (t) => {
            const company = await business(t);
            const made = await inOrder(4, () => owner(t, company.id, { roles: ['DIRECTOR'], ownershipPercentage: undefined }));
            return { path: '/beneficial-owners', query: { customerId: company.id }, expected: newest(made), otherQuery: { customerId: (await business(t)).id }, grow: () => owner(t, company.id, { roles: ['DIRECTOR'], ownershipPercentage: undefined }) };
        },
    },
    listDocuments: {
        path: '/documents',
        make: async (t) => {
            const holder = await individual(t);
            const made = await inOrder(4, () => document(t, holder.id));
            return { path: '/documents', query: { documentHolder: holder.id }, expected: newest(made), otherQuery: { documentHolder: (await individual(t)).id }, grow: () => document(t, holder.id) };
        },
    },
    listVerifications: {
        sandbox: true,
        path: '/verifications',
        make: async (t) => {
            // After each decision a new verification checks the customer again: two of them.
            const company = await business(t, {}, { registrationNumber: 'C4829123' });
            const first = await verification(t, company.id);
            t.expect(await t.call('PATCH', `/customers/${enc(company.id)}`, { body: { customerType: 'BUSINESS', businessInfo: { registrationNumber: 'C4829124' } } }), 200, 'updateCustomer answers 200');
            const second = await verification(t, company.id);
            return { path: '/verifications', query: { customerId: company.id }, expected: newest([first, second]), otherQuery: { customerId: company.id, verificationStatus: 'REJECTED' } };
        },
    },
    listAuthSessions: {
        sandbox: true,
        path: '/auth/sessions',
        make: async (t) => {
            // OAUTH verifies without a challenge step, so one credential opens as many sessions as needed
            // (the sandbox's oidcToken value; the credential itself takes a fresh JWT-shaped token).
            const wallet = async () => {
                const customer = await individual(t, { currencies: ['USD'], embeddedWalletCurrencies: ['USD'] });
                const page = t.expect(await t.call('GET', '/customers/internal-accounts', { query: { customerId: customer.id, type: 'EMBEDDED_WALLET' } }), 200, 'listCustomerInternalAccounts answers 200');
                return page.data[0]?.id ?? '';
            };
            const walletId = await wallet();
            const claims = { iss: 'https://accounts.google.com', sub: t.uid(), email: 'jane.doe@example.com', iat: Math.floor(Date.now() / 1000) };
            const jwt = [{ alg: 'RS256', typ: 'JWT' }, claims].map((part) => Buffer.from(JSON.stringify(part)).toString('base64url')).join('.') + '.c2lnbmF0dXJl';
            const credential = t.expect(await t.call('POST', '/auth/credentials', { body: { type: 'OAUTH', accountId: walletId, oidcToken: jwt }, key: t.key() }), 201, 'createAuthCredential answers 201');
            const made = await inOrder(4, async () => t.expect(await t.call('POST', `/auth/credentials/${enc(credential.id)}/verify`, { body: { type: 'OAUTH', oidcToken: 'sandbox-valid-oidc-token', clientPublicKey: CLIENT_KEY } }), 200, 'verifyAuthCredential answers 200'));
            return { path: '/auth/sessions', query: { accountId: walletId }, expected: newest(made), otherQuery: { accountId: await wallet() } };
        },
    },
    listCustomerInternalAccounts: {
        path: '/customers/internal-accounts',
        make: async (t) => {
            const customer = await individual(t, { currencies: ['USD', 'EUR', 'GBP', 'MXN'] });
            return { path: '/customers/internal-accounts', query: { customerId: customer.id }, expected: undefined, otherQuery: { customerId: customer.id, currency: 'EUR' } };
        },
    },
    listPlatformInternalAccounts: {
        path: '/platform/internal-accounts',
        make: async () => ({ path: '/platform/internal-accounts', query: {}, expected: undefined, otherQuery: { currency: 'USD' } }),
    },
    listCustomerExternalAccounts: {
        path: '/customers/external-accounts',
        make: async (t) => {
            const customer = await individual(t);
            const made = await inOrder(4, () => externalAccount(t, customer.id, 'USD', accountInfo.usd()));
            return { path: '/customers/external-accounts', query: { customerId: customer.id }, expected: newest(made), otherQuery: { customerId: customer.id, currency: 'EUR' }, grow: () => externalAccount(t, customer.id, 'USD', accountInfo.usd()) };
        },
    },
    listPlatformExternalAccounts: {
        path: '/platform/external-accounts',
        make: async (t) => {
            for (let i = 0; i < 2; i++) {
                t.expect(await t.call('POST', '/platform/external-accounts', { body: { currency: 'USD', platformAccountId: t.uid(), accountInfo: accountInfo.usd() }, key: t.key() }), 201, 'createPlatformExternalAccount answers 201');
            }
            return { path: '/platform/external-accounts', query: {}, expected: undefined, otherQuery: { currency: 'USD' } };
        },
    },
    listTransactions: {
        sandbox: true,
        path: '/transactions',
        make: async (t) => {
            const customer = await individual(t);
            const account = await accountOf(t, customer.id);
            for (let i = 0; i < 4; i++)
                await fund(t, account.id, 100 + i);
            return { path: '/transactions', query: { accountId: account.id }, expected: undefined, otherQuery: { accountId: account.id, status: 'FAILED' } };
        },
    },
    listExchangeRates: {
        path: '/exchange-rates',
        make: async () => ({ path: '/exchange-rates', query: { sourceCurrency: 'USD' }, expected: undefined, otherQuery: { sourceCurrency: 'EUR' }, key: (i) => `${i.sourceCurrency.code}>${i.destinationCurrency.code} ${String(i.destinationPaymentRail)}` }),
    },
    listDiscoveries: {
        path: '/discoveries',
        make: async () => ({ path: '/discoveries', query: {}, expected: undefined, otherQuery: { country: 'MX' }, key: (i) => JSON.stringify(i) }),
    },
    listAgents: {
        path: '/agents',
        make: async (t) => {
            const customer = await individual(t);
            const made = await inOrder(4, async () => {
                const reply = await t.call('POST', '/agents', { body: { name: t.uid(), customerId: customer.id, policy: { permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 100 } } }, key: t.key() });
                const created = t.expect(reply, 201, 'createAgent answers 201');
                t.cleanup(`deleting the agent ${created.agent.id}`, () => t.http.send('DELETE', `/agents/${enc(created.agent.id)}`));
                return created.agent;
            });
            return { path: '/agents', query: { customerId: customer.id }, expected: newest(made), otherQuery: { customerId: customer.id, isConnected: true } };
        },
    },
    listAgentActions: {
        sandbox: true,
        path: '/agents/{agentId}/actions',
        make: async (t) => {
            const w = await agentWorld(t);
            const path = `/agents/${enc(w.connected.agentId)}/actions`;
            return { path, query: {}, expected: newest(w.actions), otherQuery: { status: 'APPROVED' } };
        },
    },
    listCurrentAgentInternalAccounts: {
        sandbox: true,
        path: '/agents/me/internal-accounts',
        make: async (t) => {
            const w = await agentWorld(t);
            return { path: '/agents/me/internal-accounts', query: {}, expected: undefined, otherQuery: { currency: 'EUR' }, as: { bearer: w.connected.accessToken } };
        },
    },
    listCurrentAgentExternalAccounts: {
        sandbox: true,
        path: '/agents/me/external-accounts',
        make: async (t) => {
            const w = await agentWorld(t);
            return { path: '/agents/me/external-accounts', query: {}, expected: newest(w.banks), otherQuery: { currency: 'EUR' }, as: { bearer: w.connected.accessToken } };
        },
    },
    listCurrentAgentTransactions: {
        sandbox: true,
        path: '/agents/me/transactions',
        make: async (t) => {
            const w = await agentWorld(t);
            return { path: '/agents/me/transactions', query: { status: 'PENDING_APPROVAL' }, expected: w.actions.map((a) => a.transactionId).reverse(), otherQuery: { status: 'COMPLETED' }, as: { bearer: w.connected.accessToken } };
        },
    },
    listCurrentAgentActions: {
        sandbox: true,
        path: '/agents/me/actions',
        make: async (t) => {
            const w = await agentWorld(t);
            return { path: '/agents/me/actions', query: {}, expected: newest(w.actions), otherQuery: { status: 'APPROVED' }, as: { bearer: w.connected.accessToken } };
        },
    },
};
/** The scopes, by the operationId of their list. */
export const listScopes = scopes;
/** The lists a check can add an item to while it walks them. */
const growable = new Set(['listTokens', 'listBeneficialOwners', 'listDocuments', 'listCustomerExternalAccounts']);
export function paginationChecks() {
    return Object.entries(scopes).flatMap(([operationId, { make: fill, sandbox }]) => {
        const needs = sandbox === true ? ['state', 'sandbox'] : ['state'];
        // The walk and the cursor check read the same items: made once.
        const make = (t) => t.once(`pagination-scope-${operationId}`, () => fill(t));
        return [
            check(`pagination.${operationId}.walk`, { operations: [operationId], status: 200, rule: `walked to the end at several page sizes: each page at most \`limit\`, every item once, newest first; ${RULE_HAS_MORE}`, tags: ['pagination'], needs }, async (t) => {
                await walkScope(t, await make(t));
            }),
            ...(growable.has(operationId)
                ? [
                    check(`pagination.${operationId}.while-changing`, { operations: [operationId], status: 200, rule: "the list changes during a walk: every page fetched with a cursor repeats the first page's `totalCount` (it \"does not move under you\") and the walk finds the items as of its first page (pagination guide)", tags: ['pagination'], needs }, async (t) => {
                        // Items of its own, not the walk's: this check adds to them.
                        await walkWhileGrowing(t, await fill(t));
                    }),
                ]
                : []),
            check(`pagination.${operationId}.cursor`, { operations: [operationId], status: 400, rule: 'an altered cursor, or a cursor sent with other filters than it came with, is 400 INVALID_CURSOR (pagination guide)', tags: ['pagination'], needs }, async (t) => {
                await cursorChecks(t, await make(t));
            }),
        ];
    });
}
