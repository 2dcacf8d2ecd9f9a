// Quote helpers of the contract tests: create, execute, look up, pay in the sandbox, each answered
// as the server answered (tests check refusals and replays too) and checked against the contract.
// Requests are plain fetches until the quote request types of the client are real unions.
import type { components } from '../../generated/openapi.js';
import { baseUrl, checkedCalls, credentials } from './api.ts';

type Schemas = components['schemas'];
export type Quote = Schemas['Quote'];

export interface QuoteBody {
  source: Schemas['AccountQuoteSource'] | Schemas['RealtimeFundingQuoteSource'];
  destination: Schemas['AccountQuoteDestination'] | Schemas['UmaAddressQuoteDestination'];
  lockedCurrencySide: Schemas['QuoteLockSide'];
  lockedCurrencyAmount: number;
  lookupId?: string | undefined;
  immediatelyExecute?: boolean;
  description?: string;
  purposeOfPayment?: Schemas['PurposeOfPayment'];
  senderCustomerInfo?: Record<string, string>;
}

/** A 2xx body, or an Error naming what the server answered instead. */
export async function ok<T>(response: Promise<Response> | Response, status = 200): Promise<T> {
  const res = await response;
  const body: unknown = await res.json();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(body)}`);
  return body as T;
}

const keyHeader = (key?: string): Record<string, string> => (key === undefined ? {} : { 'Idempotency-Key': key });

/** The quote calls against a server: the shared target by default, or a test's own. */
export function quoteCalls(serverBaseUrl = baseUrl, token: { clientId: string; clientSecret: string } = credentials) {
  const call = checkedCalls(serverBaseUrl, token);
  const postQuote = (body: QuoteBody, key?: string) => call('POST', '/quotes', body, keyHeader(key));
  const getQuote = (quoteId: string) => ok<Quote>(call('GET', `/quotes/${encodeURIComponent(quoteId)}`));
  return {
    postQuote,
    createQuote: (body: QuoteBody, key?: string) => ok<Quote>(postQuote(body, key), 201),
    getQuote,
    executeQuote: (quoteId: string, key?: string, headers: Record<string, string> = {}) => call('POST', `/quotes/${encodeURIComponent(quoteId)}/execute`, undefined, { ...keyHeader(key), ...headers }),
    sandboxSend: (body: Schemas['SandboxSendRequest'], key?: string) => call('POST', '/sandbox/send', body, keyHeader(key)),
    umaLookup: (address: string, customerId: string) =>
      ok<Schemas['UmaReceiverLookup']>(call('GET', `/receiver/uma/${encodeURIComponent(address)}?customerId=${encodeURIComponent(customerId)}`)),
  };
}

export const { postQuote, createQuote, getQuote, executeQuote, sandboxSend, umaLookup } = quoteCalls();
