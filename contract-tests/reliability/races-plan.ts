// The keyed requests of the idempotency races: one per key, of four kinds with real effects
// (sandbox funding, a transfer-out that completes at once, a quote, a quote's execution), each sent
// three times with its key: a third of the keys all three at once, split across the processes
// (half of those holding their transaction open a little, to widen the in-flight window), the
// others one after the other, alternating processes.
import { conversion, type RaceCustomer, type RaceWorld } from './races-world.ts';

export const RACE_KINDS = ['fund', 'transfer-out', 'quote', 'execute'] as const;
export type RaceKind = (typeof RACE_KINDS)[number];

export interface KeyedRequest {
  index: number;
  kind: RaceKind;
  key: string;
  path: string;
  body: unknown;
  customer: RaceCustomer;
  /** The amount it moves (funding, transfer-out) or quotes. */
  amount: number;
  concurrent: boolean;
  /** Sent with `x-test-delay-ms`: its transaction stays open that long after the handler. */
  delayMs: number;
}

export const kindOf = (index: number): RaceKind => RACE_KINDS[index % RACE_KINDS.length] as RaceKind;

export function planKeys(world: RaceWorld, count: number, prefix: string): KeyedRequest[] {
  return Array.from({ length: count }, (_, index) => {
    const kind = kindOf(index);
    const customer = world.customers[index % world.customers.length] as RaceCustomer;
    const amount = 1_000 + index;
    const concurrent = index % 3 === 0;
    const base = { index, kind, key: `${prefix}-${index}`, customer, amount, concurrent, delayMs: concurrent && index % 2 === 0 ? 250 : 0 };
    switch (kind) {
      case 'fund':
        return { ...base, path: `/sandbox/internal-accounts/${customer.usd}/fund`, body: { amount } };
      case 'transfer-out':
        return { ...base, path: '/transfer-out', body: { source: { accountId: customer.usd }, destination: { accountId: customer.externalUsd }, amount } };
      case 'quote':
        return { ...base, path: '/quotes', body: conversion(customer, amount) };
      case 'execute': {
        const quote = world.quotes.get(index);
        if (quote === undefined) throw new Error(`no quote for execute key ${index}`);
        return { ...base, path: `/quotes/${quote.id}/execute`, body: undefined };
      }
    }
  });
}

/** The same key with another request: another amount, or for an execution, another quote (the decoy). */
export function mismatched(request: KeyedRequest, world: RaceWorld): { path: string; body: unknown } {
  switch (request.kind) {
    case 'fund':
      return { path: request.path, body: { amount: request.amount + 1 } };
    case 'transfer-out':
      return { path: request.path, body: { ...(request.body as object), amount: request.amount + 1 } };
    case 'quote':
      return { path: request.path, body: conversion(request.customer, request.amount + 1) };
    case 'execute':
      return { path: `/quotes/${world.decoyQuote}/execute`, body: undefined };
  }
}
