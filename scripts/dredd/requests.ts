// The request dredd sends for each successful status of each operation. On the mock it is the
// spec's own example (Prism keeps nothing, and answers the status asked for with `Prefer`). On the
// real server it is the example with its ids replaced by the fixtures', and for operations that
// need more (unique names, an object used up, a signed retry) a builder of its own.
import { deref, type SpecOperation } from '../../contract-tests/support/spec.ts';
import { passkeyBody, pdfContent, usdAccountInfo, type Fixtures } from './fixtures.ts';
import { digits, unique, type Json } from './server-calls.ts';

export interface RequestParts {
  path: Record<string, string>;
  query: Record<string, string>;
  /** A JSON body. */
  body?: unknown;
  /** A multipart/form-data body's fields (`file` is the file's content). */
  form?: Record<string, string>;
  headers: Record<string, string>;
}

/** An operation's parameters, its path's included, resolved. */
export const parameters = (o: SpecOperation): Json[] => [...((o.pathItem.parameters as Json[] | undefined) ?? []), ...(o.operation.parameters ?? [])].map((p) => deref<Json>(p));

/** The first example of the operation's request body and its media type. */
function exampleBody(o: SpecOperation): { type?: string; value?: unknown } {
  const content = deref<Json>(o.operation.requestBody)?.content as Record<string, Json> | undefined;
  const [type, media] = Object.entries(content ?? {})[0] ?? [];
  if (type === undefined || media === undefined) return {};
  const first = Object.values((media.examples ?? {}) as Json)[0];
  return { type, value: first === undefined ? media.example : deref<Json>(first).value };
}

/** The spec's example request: path parameters and required query parameters from their examples, the first body example. */
export function exampleParts(o: SpecOperation): RequestParts {
  const params = parameters(o);
  const pick = (where: string, all: boolean) =>
    Object.fromEntries(params.filter((p) => p.in === where && (all || p.required === true)).map((p) => [p.name as string, String(p.example)]));
  const { type, value } = exampleBody(o);
  const parts: RequestParts = { path: pick('path', true), query: pick('query', false), headers: {} };
  if (type === 'multipart/form-data') parts.form = { ...(value as Record<string, string>), file: pdfContent };
  else if (value !== undefined) parts.body = value;
  return parts;
}

/** The spec examples' ids (and UMA address) that stand for the fixtures' objects. */
const exampleIds = (f: Fixtures): Record<string, string> => ({
  'Customer:019542f5-b3e7-1d02-0000-000000000001': f.customerId,
  'Customer:019542f5-b3e7-1d02-0000-000000000011': f.businessId,
  'InternalAccount:019542f5-b3e7-1d02-0000-000000000005': f.usd,
  'InternalAccount:019542f5-b3e7-1d02-0000-000000000015': f.eur,
  'InternalAccount:019542f5-b3e7-1d02-0000-000000000025': f.wallet.walletId,
  'ExternalAccount:019542f5-b3e7-1d02-0000-000000000006': f.external,
  '$jane.doe@payments.example.org': f.customerUma,
});

/** A path parameter's fixture, by the parameter's name. */
const pathIds = (f: Fixtures): Record<string, string> => ({
  customerId: f.customerId,
  accountId: f.usd,
  externalAccountId: f.external,
  tokenId: f.tokenId,
  beneficialOwnerId: f.ownerId,
  documentId: f.documentId,
  verificationId: f.verificationId,
  quoteId: f.quoteId,
  transactionId: f.transactionId,
  credentialId: f.wallet.otpId,
  sessionId: f.wallet.sessionId,
  agentId: f.agentId,
  actionId: f.actionId,
});

/** Replaces the examples' ids in a value (a JSON round trip: the ids are whole strings). */
function withFixtureIds<T>(value: T, f: Fixtures): T {
  if (value === undefined) return value;
  const ids = exampleIds(f);
  return JSON.parse(JSON.stringify(value), (_key, v: unknown) => (typeof v === 'string' && ids[v] !== undefined ? ids[v] : v)) as T;
}

/** The example request pointed at the fixtures. */
function fixtureParts(o: SpecOperation, f: Fixtures): RequestParts {
  const parts = exampleParts(o);
  const byName = pathIds(f);
  for (const name of Object.keys(parts.path)) parts.path[name] = byName[name] ?? parts.path[name] ?? '';
  // Optional query examples filter on the spec's example objects (and a cursor of another list).
  const required = new Set(parameters(o).filter((p) => p.in === 'query' && p.required === true).map((p) => p.name as string));
  parts.query = Object.fromEntries(Object.entries(parts.query).filter(([name]) => required.has(name)));
  parts.body = withFixtureIds(parts.body, f);
  if (parts.form !== undefined) parts.form = withFixtureIds(parts.form, f);
  return parts;
}

/** Changes the request for one status; `template` is the operation's path. */
type Change = (parts: RequestParts, f: Fixtures, status: number, template: string) => Promise<void> | void;

/** The path with its parameters filled in. */
export const filled = (template: string, params: Record<string, string>) => Object.entries(params).reduce((p, [name, value]) => p.replace(`{${name}}`, encodeURIComponent(value)), template);

/** The success of a signed retry: sign the 202 challenge of the same request made unsigned first. */
const signedRetry = (method: string): Change => async (parts, f, status, template) => {
  if (status === 202) return; // the unsigned request is the one that answers with the challenge
  Object.assign(parts.headers, await f.signedRetryHeaders(method, filled(template, parts.path), parts.body));
};

/** A wallet's second credential (a passkey, added by signed retry): revoking it is neither the last one nor the session's. */
async function secondCredential(f: Fixtures): Promise<string> {
  const w = await f.walletWithSession();
  const body = passkeyBody(w.walletId);
  const headers = await f.signedRetryHeaders('POST', '/auth/credentials', body);
  return (await f.api.expect<{ id: string }>(201, 'POST', '/auth/credentials', body, headers)).id;
}

/** What an operation's request on the real server needs beyond the example with the fixtures' ids. */
const serverChanges: Record<string, Change> = {
  createToken: (p) => void (p.body = { name: `dredd ${unique()}`, permissions: ['VIEW', 'TRANSACT'] }),
  deleteToken: async (p, f) => void (p.path.tokenId = await f.fresh.token()),
  createCustomer: (p) => {
    const { umaAddress: _platformsOwn, ...body } = p.body as Json;
    p.body = { ...body, platformCustomerId: `dredd-${unique()}` };
  },
  deleteCustomer: async (p, f) => void (p.path.customerId = await f.fresh.customer()),
  deleteDocument: async (p, f) => void (p.path.documentId = await f.uploadDocument(f.customerId)),
  updateInternalAccount: async (p, f, status, template) => {
    p.path.accountId = f.wallet.walletId;
    await signedRetry('PATCH')(p, f, status, template);
  },
  exportInternalAccount: async (p, f, status, template) => {
    p.path.accountId = f.wallet.walletId;
    await signedRetry('POST')(p, f, status, template);
  },
  createCustomerExternalAccount: (p) => {
    const body = p.body as { accountInfo: Json };
    p.body = { ...body, platformAccountId: `dredd-${unique()}`, accountInfo: { ...body.accountInfo, accountNumber: `${digits(9)}000` } };
  },
  deleteCustomerExternalAccount: async (p, f) => void (p.path.externalAccountId = await f.fresh.external()),
  createPlatformExternalAccount: (p) => {
    const body = p.body as { accountInfo: Json };
    p.body = { ...body, platformAccountId: `dredd-${unique()}`, accountInfo: { ...body.accountInfo, iban: `FR14${digits(19)}000` } };
  },
  getPlatformExternalAccount: (p, f) => void (p.path.externalAccountId = f.platformExternal),
  deletePlatformExternalAccount: async (p, f) => void (p.path.externalAccountId = await f.fresh.platformExternal()),
  lookupUmaReceiver: (p, f) => void (p.query.customerId = f.customerId),
  lookupExternalAccountReceiver: (p, f) => void (p.query.customerId = f.customerId),
  executeQuote: async (p, f) => void (p.path.quoteId = await f.fresh.quote()),
  // A transfer-out answers 202 only from an Embedded Wallet (its owner signs it).
  createTransferOut: async (p, f, status) => {
    if (status === 202) p.body = await f.fresh.walletPayout();
  },
  approveTransaction: async (p, f) => {
    p.path.transactionId = (await f.pendingAgentAction()).transactionId;
    delete p.body; // receiver details are for incoming payments; this one is an agent's transfer-out
  },
  rejectTransaction: async (p, f) => void (p.path.transactionId = (await f.pendingAgentAction()).transactionId),
  cancelTransaction: async (p, f) => void (p.path.transactionId = await f.fresh.cancellable()),
  createInvitation: (p) => void (p.body = { ...(p.body as Json), expiresAt: '2099-01-01T00:00:00Z' }),
  getInvitation: async (p, f) => void (p.path.invitationCode = await f.fresh.invitation()),
  claimInvitation: async (p, f) => void (p.path.invitationCode = await f.fresh.invitation()),
  cancelInvitation: async (p, f) => void (p.path.invitationCode = await f.fresh.invitation()),
  listAuthCredentials: (p, f) => void (p.query.accountId = f.wallet.walletId),
  listAuthSessions: (p, f) => void (p.query.accountId = f.wallet.walletId),
  createAuthCredential: async (p, f, status) => {
    // The first credential of a wallet is added at once; a later one (here a passkey beside the
    // wallet's EMAIL_OTP, one of each type) needs the owner's signature.
    if (status === 201) p.body = { ...(p.body as Json), accountId: await f.fresh.wallet() };
    else p.body = passkeyBody(f.wallet.walletId);
  },
  // An EMAIL_OTP credential's challenge (a new code) takes no body; the example's key is a passkey's.
  challengeAuthCredential: (p) => void delete p.body,
  // Each code opens one session, and a credential can be challenged again only after 30 s: a new credential.
  verifyAuthCredential: async (p, f) => void (p.path.credentialId = await f.fresh.otpCredential()),
  revokeAuthCredential: async (p, f, status, template) => {
    p.path.credentialId = await secondCredential(f);
    await signedRetry('DELETE')(p, f, status, template);
  },
  revokeAuthSession: async (p, f, status, template) => {
    p.path.sessionId = (await f.walletWithSession()).sessionId;
    await signedRetry('DELETE')(p, f, status, template);
  },
  deleteAgent: async (p, f) => void (p.path.agentId = (await f.fresh.unconnectedAgent()).agentId),
  updateAgent: async (p, f) => void (p.path.agentId = (await f.fresh.unconnectedAgent()).agentId),
  updateAgentPolicy: async (p, f) => void (p.path.agentId = (await f.fresh.unconnectedAgent()).agentId),
  createAgentDeviceCode: async (p, f) => void (p.path.agentId = (await f.fresh.unconnectedAgent()).agentId),
  redeemAgentDeviceCode: async (p, f) => void (p.path.code = (await f.fresh.unconnectedAgent()).code),
  approveAgentAction: async (p, f) => {
    const { agentId, actionId } = await f.pendingAgentAction();
    Object.assign(p.path, { agentId, actionId });
  },
  rejectAgentAction: async (p, f) => {
    const { agentId, actionId } = await f.pendingAgentAction();
    Object.assign(p.path, { agentId, actionId });
  },
  createCurrentAgentExternalAccount: (p) => {
    const body = p.body as Json;
    p.body = { ...body, platformAccountId: `dredd-${unique()}`, accountInfo: usdAccountInfo() };
  },
  getCurrentAgentQuote: async (p, f) => void (p.path.quoteId = await f.fresh.agentQuote()),
  executeCurrentAgentQuote: async (p, f) => void (p.path.quoteId = await f.fresh.agentQuote()),
  sendSandboxPayment: async (p, f) => void (p.body = { quoteId: await f.fresh.fundingQuote(), currencyCode: 'EUR' }),
  // The simulations that decide something pending: each gets an object still waiting for it.
  simulateTransactionCompletion: async (p, f) => void (p.path.transactionId = await f.fresh.cancellable()),
  simulateTransactionFailure: async (p, f) => void (p.path.transactionId = await f.fresh.cancellable()),
  simulateVerificationOutcome: async (p, f) => void (p.path.verificationId = await f.fresh.reviewedVerification()),
  simulateBeneficiaryVerification: async (p, f) => void (p.path.externalAccountId = await f.fresh.nameCheckPending()),
};

/** The request for one status of an operation on the real server. */
export async function serverParts(o: SpecOperation, status: number, f: Fixtures): Promise<RequestParts> {
  const parts = fixtureParts(o, f);
  await serverChanges[o.operation.operationId]?.(parts, f, status, o.path);
  return parts;
}
