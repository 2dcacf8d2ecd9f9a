// What the scale benchmark asks of each grown database: every list endpoint unfiltered and with each
// of its filters (values that match the same seed rows at every size, or a share of the grown
// ones), and the writes. Built per database from its seed world, whose ids differ.
import type { World } from './scale-world.ts';

export interface ListRequest {
  /** The row label: the endpoint and its filter, without ids (they differ between databases). */
  label: string;
  path: string;
  /** An agent's bearer token for /agents/me, else the platform's credentials. */
  bearer?: string;
}

const HOUR_MS = 60 * 60 * 1000;
const HALF_MINUTE_MS = 30 * 1000;

export function listRequests(world: World): ListRequest[] {
  const hourBefore = new Date(world.seededAt.getTime() - HOUR_MS).toISOString();
  // The seed's rows and the 20 grown ones updated just before it (grow.ts), created all through the history.
  const justBefore = new Date(world.seededAt.getTime() - HALF_MINUTE_MS).toISOString();
  const q = (path: string, filter?: Record<string, string>) => (filter === undefined ? path : `${path}?${new URLSearchParams(filter).toString()}`);
  const list = (path: string, filters: Record<string, Record<string, string>>, bearer?: string): ListRequest[] => [
    { label: `GET ${path}`, path: q(path), ...(bearer === undefined ? {} : { bearer }) },
    ...Object.entries(filters).map(([label, filter]) => ({ label: `GET ${path}?${label}`, path: q(path, filter), ...(bearer === undefined ? {} : { bearer }) })),
  ];
  const window = (after: string, before: string) => ({ [`${after}=-1h`]: { [after]: hourBefore }, [`${before}=-1h`]: { [before]: hourBefore } });
  const updated = { 'updatedAfter=-30s': { updatedAfter: justBefore }, 'updatedBefore=-1h': { updatedBefore: hourBefore } };
  const { customer, business, agent } = world;
  return [
    ...list('/customers', {
      platformCustomerId: { platformCustomerId: customer.platformCustomerId },
      'customerType=BUSINESS': { customerType: 'BUSINESS' },
      'region=GB': { region: 'GB' },
      'currency=EUR': { currency: 'EUR' },
      'currency=GBP': { currency: 'GBP' },
      umaAddress: { umaAddress: customer.umaAddress },
      'kycStatus=PENDING': { kycStatus: 'PENDING' },
      'kybStatus=REJECTED': { kybStatus: 'REJECTED' },
      ...window('createdAfter', 'createdBefore'),
      ...updated,
      'isIncludingDeleted=true': { isIncludingDeleted: 'true' },
    }),
    ...list('/transactions', {
      customerId: { customerId: customer.id },
      platformCustomerId: { platformCustomerId: customer.platformCustomerId },
      accountId: { accountId: customer.usd },
      sourceAccountId: { sourceAccountId: customer.usd },
      destinationAccountId: { destinationAccountId: customer.usd },
      'status=COMPLETED': { status: 'COMPLETED' },
      'status=CANCELLED': { status: 'CANCELLED' },
      'type=OUTGOING': { type: 'OUTGOING' },
      reference: { reference: 'grown-7' },
      ...window('startDate', 'endDate'),
      'sortOrder=ASC': { sortOrder: 'ASC' },
    }),
    ...list('/tokens', { name: { name: world.tokenName }, ...window('createdAfter', 'createdBefore'), ...updated }),
    ...list('/beneficial-owners', { customerId: { customerId: business.id } }),
    ...list('/documents', { documentHolder: { documentHolder: customer.id } }),
    ...list('/verifications', { customerId: { customerId: business.id }, 'verificationStatus=IN_PROGRESS': { verificationStatus: 'IN_PROGRESS' } }),
    ...list('/customers/internal-accounts', { customerId: { customerId: customer.id }, 'currency=EUR': { currency: 'EUR' }, 'type=EMBEDDED_WALLET': { type: 'EMBEDDED_WALLET' } }),
    ...list('/platform/internal-accounts', { 'currency=USD': { currency: 'USD' }, 'type=INTERNAL_FIAT': { type: 'INTERNAL_FIAT' } }),
    ...list('/customers/external-accounts', {
      customerId: { customerId: customer.id },
      'currency=USD': { currency: 'USD' },
      'status=ACTIVE': { status: 'ACTIVE' },
      'status=INACTIVE': { status: 'INACTIVE' },
    }),
    ...list('/platform/external-accounts', { 'currency=USD': { currency: 'USD' }, 'status=ACTIVE': { status: 'ACTIVE' } }),
    ...list('/agents', {
      customerId: { customerId: customer.id },
      'isPaused=true': { isPaused: 'true' },
      'isConnected=false': { isConnected: 'false' },
      ...window('createdAfter', 'createdBefore'),
      ...updated,
    }),
    ...list(`/agents/${agent.id}/actions`, { 'status=APPROVED': { status: 'APPROVED' }, 'type=TRANSFER_IN': { type: 'TRANSFER_IN' } }).map((r) => ({ ...r, label: r.label.replace(agent.id, '{agentId}') })),
    ...list('/agents/me/internal-accounts', { 'currency=USD': { currency: 'USD' }, 'type=INTERNAL_FIAT': { type: 'INTERNAL_FIAT' } }, agent.accessToken),
    ...list('/agents/me/external-accounts', { 'currency=USD': { currency: 'USD' }, 'status=ACTIVE': { status: 'ACTIVE' } }, agent.accessToken),
    ...list('/agents/me/transactions', { 'status=COMPLETED': { status: 'COMPLETED' }, 'type=INCOMING': { type: 'INCOMING' }, ...window('startDate', 'endDate') }, agent.accessToken),
    ...list('/agents/me/actions', { 'status=APPROVED': { status: 'APPROVED' } }, agent.accessToken),
    ...list('/auth/sessions', {}).map((r) => ({ ...r, label: 'GET /auth/sessions?accountId', path: `/auth/sessions?accountId=${encodeURIComponent(world.wallet.accountId)}` })),
    // Answered from the sandbox's tables in memory, not the database: measured so that none is missing.
    ...list('/exchange-rates', { 'sourceCurrency=USD': { sourceCurrency: 'USD' }, 'destinationCurrency=EUR': { destinationCurrency: 'EUR' } }),
    ...list('/discoveries', { 'country=MX': { country: 'MX' }, 'currency=MXN': { currency: 'MXN' } }),
  ];
}
