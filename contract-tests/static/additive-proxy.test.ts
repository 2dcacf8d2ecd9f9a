// The additive proxy of `npm run check:clients` (scripts/clients/additive-proxy.ts) rewrites answers
// as the next additive release would, by the answer's schema in the bundle.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AdditiveChange, UNKNOWN_ENUM_VALUE, UNKNOWN_FIELD } from '../../scripts/clients/additive-proxy.ts';

const bundle = resolve(import.meta.dirname, '..', '..', 'generated', 'openapi.json');

const customer = {
  id: 'Customer:019542f5-b3e7-1d02-0000-000000000001',
  customerType: 'INDIVIDUAL',
  kycStatus: 'APPROVED',
  fullName: 'Jane Doe',
  currencies: ['USD'],
};

describe('additive proxy', () => {
  it("makes every enum value unknown and adds a field to every object, but keeps discriminators and one-value enums", () => {
    const change = new AdditiveChange(bundle);
    const created = change.rewrite(change.responseSchema('POST', '/customers', 201), customer) as Record<string, unknown>;
    expect(created).toMatchObject({ customerType: 'INDIVIDUAL', kycStatus: UNKNOWN_ENUM_VALUE, fullName: 'Jane Doe', currencies: ['USD'] });
    expect(created[UNKNOWN_FIELD]).toBeDefined();
    const error = change.rewrite(change.responseSchema('GET', '/customers/Customer:x', 404), { status: 404, code: 'CUSTOMER_NOT_FOUND', message: 'No such customer.' });
    expect(error).toMatchObject({ status: 404, code: UNKNOWN_ENUM_VALUE, message: 'No such customer.' });
    expect(change.counts).toMatchObject({ enums: 2, fields: 2 });
  });

  it('adds no field to an object the contract closes, and changes no enum for a client that refuses unknown values', () => {
    const closed = new AdditiveChange(bundle);
    const config = closed.rewrite(closed.responseSchema('GET', '/config', 200), { id: 'p', supportedCurrencies: [{ currency: 'USD', minAmount: 1, maxAmount: 100 }] }) as { supportedCurrencies: Record<string, unknown>[] };
    expect(config.supportedCurrencies[0]).toEqual({ currency: 'USD', minAmount: 1, maxAmount: 100 });
    expect(closed.counts.closed).toBe(1);
    const fieldsOnly = new AdditiveChange(bundle, false);
    const created = fieldsOnly.rewrite(fieldsOnly.responseSchema('POST', '/customers', 201), customer) as Record<string, unknown>;
    expect(created.kycStatus).toBe('APPROVED');
    expect(created[UNKNOWN_FIELD]).toBeDefined();
  });
});
