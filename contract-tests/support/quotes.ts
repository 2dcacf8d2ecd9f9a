// Quote helpers of the contract tests: create, execute, look up, pay in the sandbox, each answered
// as the server answered (tests check refusals and replays too). Requests go through `raw` until
// the quote request types of the client are real unions, so every body is still checked.
import type { components } from '../../generated/openapi.js';
import { api, raw } from './api.ts';
import { jsonBody } from './raw-requests.ts';

type Schemas = components['schemas'];
export type Quote = Schemas['Quote'];

export interface QuoteBody {
  source: Schemas['AccountQuoteSource'] | Schemas['RealtimeFundingQuoteSource'];
  destination: Schemas['AccountQuoteDestination'] | Schemas['UmaAddressQuoteDestination'];
  lockedCurrencySide: Schemas['QuoteLockSide'];
  lockedCurrencyAmount: number;
  lookupId?: string;
  immediatelyExecute?: boolean;
  description?: string;
  purposeOfPayment?: Schemas['PurposeOfPayment'];
  senderCustomerInfo?: Record<string, string>;
}

const keyHeader = (key?: string): Record<string, string> => (key === undefined ? {} : { 'Idempotency-Key': key });

export const postQuote = (body: QuoteBody, key?: string): Promise<Response> => raw('POST', '/quotes', jsonBody(body, keyHeader(key)));
export const executeQuote = (quoteId: string, key?: string, headers: Record<string, string> = {}): Promise<Response> =>
  raw('POST', `/quotes/${encodeURIComponent(quoteId)}/execute`, { headers: { ...keyHeader(key), ...headers } });
export const sandboxSend = (body: Schemas['SandboxSendRequest'], key?: string): Promise<Response> => raw('POST', '/sandbox/send', jsonBody(body, keyHeader(key)));

/** A 2xx body, or an Error naming what the server answered instead. */
export async function ok<T>(response: Promise<Response> | Response, status = 200): Promise<T> {
  const res = await response;
  const body: unknown = await res.json();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(body)}`);
  return body as T;
}

export const createQuote = (body: QuoteBody, key?: string): Promise<Quote> => ok<Quote>(postQuote(body, key), 201);

export async function getQuote(quoteId: string): Promise<Quote> {
  const { data, response } = await api.GET('/quotes/{quoteId}', { params: { path: { quoteId } } });
  if (data === undefined) throw new Error(`GET /quotes/${quoteId}: ${response.status}`);
  return data;
}

export async function umaLookup(address: string, customerId: string): Promise<Schemas['UmaReceiverLookup']> {
  const { data, response } = await api.GET('/receiver/uma/{receiverUmaAddress}', { params: { path: { receiverUmaAddress: address }, query: { customerId } } });
  if (data === undefined) throw new Error(`GET /receiver/uma/${address}: ${response.status}`);
  return data;
}

/** Polls GET /quotes/{id} until the quote is in `status`. */
export async function quoteInStatus(quoteId: string, status: Schemas['QuoteStatus'], timeoutMs = 15_000): Promise<Quote> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const quote = await getQuote(quoteId);
    if (quote.status === status) return quote;
    if (Date.now() > deadline) throw new Error(`quote ${quoteId} is still ${quote.status}, expected ${status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
