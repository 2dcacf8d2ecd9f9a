// The guides of the docs page (spec/guides/, tags with `x-traitTag`) stay true to the contract and
// the sandbox: the errors catalogue lists exactly the codes of the Error<status> schemas, the
// sandbox table names every value of server/simulation/ with its outcome, and every tag sits in
// exactly one `x-tagGroups` group (Redoc hides a tag left out of the groups).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientErrorAnswer } from '../../server/http/client-errors.ts';
import { DEFAULT_HTTP_LIMITS as HTTP_LIMITS } from '../../server/http/http-limits.ts';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS } from '../../server/config.ts';
import { BENEFICIARY_NAME_CHECK, type NameCheckOutcome } from '../../server/simulation/beneficiary-name-check.ts';
import { SANDBOX_MAGIC_VALUES } from '../../server/simulation/embedded-wallet.ts';
import { KYB_OUTCOMES } from '../../server/simulation/kyb.ts';
import { KYC_OUTCOMES } from '../../server/simulation/kyc.ts';
import type { PaymentOutcome } from '../../server/simulation/payment-outcome.ts';
import { QUOTE_OUTCOMES } from '../../server/simulation/quote-outcomes.ts';
import type { SuffixTable } from '../../server/simulation/suffix.ts';
import { TRANSFER_IN_OUTCOMES, TRANSFER_OUT_OUTCOMES } from '../../server/simulation/transfer-outcomes.ts';
import { SANDBOX_UMA_DESTINATIONS, SANDBOX_UMA_NOT_FOUND } from '../../server/simulation/uma-addresses.ts';
import { backticked, findTable, upperSnakeValues, type MarkdownTable } from '../support/markdown-table.ts';
import { spec } from '../support/spec.ts';

interface Tag {
  name: string;
  description?: string;
  'x-traitTag'?: boolean;
}

const tags = spec.tags as Tag[];
const groups = (spec as unknown as { 'x-tagGroups': { name: string; tags: string[] }[] })['x-tagGroups'];
const guide = (name: string): string => {
  const text = tags.find((t) => t.name === name && t['x-traitTag'] === true)?.description;
  if (text === undefined) throw new Error(`no guide named ${name}`);
  return text;
};

describe('navigation', () => {
  it('puts every tag in exactly one group, and the guides first', () => {
    const grouped = groups.flatMap((g) => g.tags);
    expect([...grouped].sort()).toEqual(tags.map((t) => t.name).sort());
    expect(new Set(grouped).size).toBe(grouped.length);
    expect(groups[0]?.tags).toEqual(tags.filter((t) => t['x-traitTag'] === true).map((t) => t.name));
  });

  it('has the guides an integrator looks for, each with text', () => {
    const guides = tags.filter((t) => t['x-traitTag'] === true);
    expect(guides.map((t) => t.name)).toEqual(
      expect.arrayContaining(['Quickstart', 'Authentication and permissions', 'Idempotency', 'Pagination', 'Errors', 'Sandbox values', 'Receiving webhooks', 'Embedded Wallet signed retries', 'Agents and approvals', 'Versioning']),
    );
    for (const g of guides) expect(g.description?.length ?? 0, g.name).toBeGreaterThan(400);
  });
});

describe('the errors catalogue', () => {
  it('lists every code of every Error<status> schema (and an area\'s <Area>Error<status>) once, and nothing else', () => {
    const schemas = spec.components.schemas ?? {};
    const declared = [
      ...new Set(
        Object.entries(schemas).flatMap(([name, schema]) => {
          const status = /^(?:[A-Z][a-z]+)?Error(\d{3})$/.exec(name)?.[1];
          if (status === undefined) return [];
          const part = (schema as { allOf: { properties?: { code?: { enum?: string[] } } }[] }).allOf.find((p) => p.properties?.code?.enum);
          return (part?.properties?.code?.enum ?? []).map((code) => `${status} ${code}`);
        }),
      ),
    ].sort();
    const table = findTable(guide('Errors'), 'Status');
    const listed = table.rows.map(([status = '', code = '']) => `${status} ${backticked(code).join('')}`);
    expect(declared.length).toBeGreaterThan(60);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(declared);
    for (const row of table.rows) expect(row[2]?.length ?? 0, row.join(' | ')).toBeGreaterThan(10);
  });

  it('lists the answers of the HTTP layer as the server gives them, with its limits', () => {
    const table = findTable(guide('Errors'), 'Before any operation');
    const listed = table.rows.map(([status = '', code = '']) => `${status} ${backticked(code).join('')}`).sort();
    const given = ['HPE_INVALID_METHOD', 'ERR_HTTP_REQUEST_TIMEOUT', 'HPE_CHUNK_EXTENSIONS_OVERFLOW', 'HPE_HEADER_OVERFLOW'].map((code) => {
      const answer = clientErrorAnswer(code);
      return `${answer?.status} ${answer?.code}`;
    });
    expect(listed).toEqual(given.sort());
    const text = table.rows.map((row) => row.join(' ')).join('\n');
    expect(text).toContain(`${HTTP_LIMITS.maxHeaderSize / 1024} KiB`);
    expect(text).toContain(`${HTTP_LIMITS.headersTimeout / 1000} seconds`);
    expect(text).toContain(`${HTTP_LIMITS.requestTimeout / 60_000} minutes`);
    // The limits that end connections without an answer of their own, listed below the table.
    const errors = guide('Errors');
    expect(errors).toContain(`${HTTP_LIMITS.maxConnectionsPerAddress} connections`);
    expect(errors).toContain(`${DEFAULT_SHUTDOWN_TIMEOUT_MS / 1000} seconds to finish`);
  });

  it('says every 401 carries a reason, which Error401 requires (so the contract check of every 401 checks it)', () => {
    const parts = (spec.components.schemas?.Error401 as { allOf: { required?: string[]; properties?: { reason?: { minLength?: number } } }[] }).allOf;
    expect(parts.some((p) => p.required?.includes('reason') === true && p.properties?.reason?.minLength === 1)).toBe(true);
    expect(guide('Errors')).toContain('Every `401` answer also carries a `reason`');
  });
});

describe('the quickstart', () => {
  it('says which of its steps only the sandbox has, as the sandbox guide lists them', () => {
    const text = guide('Quickstart');
    expect(text).not.toMatch(/same calls work in production/);
    // The sandbox opens a customer's accounts ACTIVE before verification; production does not.
    expect(text).toMatch(/`ACTIVE` at once; in production it is `PENDING` until the\s+customer's verification is approved/);
    expect(guide('Sandbox values')).toMatch(/internal accounts are `ACTIVE` at once, before any verification/);
    // Every sandbox operation a step calls is named sandbox-only.
    const sandboxPaths = [...text.matchAll(/\$BASE(\/sandbox\/[^ ?"']+)/g)].map((m) => m[1] ?? '');
    for (const path of sandboxPaths) {
      const template = path.replace(/InternalAccount:<id>/, '{accountId}');
      expect(text).toContain(`\`POST ${template}\`) exists only in the sandbox`);
    }
  });
});

describe('the quote examples to $success.mxn', () => {
  it('carry every sender field the receiver lists, in the quickstart', () => {
    const required = SANDBOX_UMA_DESTINATIONS['$success.mxn@sandbox.uma.money'].requiredPayerData.map((f) => f.name);
    const sent = /"senderCustomerInfo": (\{[^}]*\})/.exec(guide('Quickstart'))?.[1];
    expect(sent).toBeDefined();
    expect(Object.keys(JSON.parse(sent ?? '{}') as object).sort()).toEqual([...required].sort());
  });
});

describe('the sandbox table', () => {
  const table: MarkdownTable = findTable(guide('Sandbox values'), 'Area');
  const rows = (area: string) => table.rows.filter(([a]) => a === area);

  /** The one row of `area` whose value cell names `key` (or says "any other"), and its outcome's values. */
  function outcomeOf(area: string, key: string): { text: string; values: string[] } {
    const found = rows(area).filter(([, value = '']) => (key === 'any other' ? /^any other\b/.test(value) : backticked(value).includes(key)));
    expect(found.length, `${area} ${key}`).toBe(1);
    const text = found[0]?.[2] ?? '';
    return { text, values: upperSnakeValues(text) };
  }

  function suffixes<Row>(area: string, code: SuffixTable<Row>, facts: (row: Row) => string[]) {
    const keys: [string, Row][] = [...Object.entries(code.bySuffix), ['any other', code.otherwise]];
    for (const [key, row] of keys) {
      const { values } = outcomeOf(area, key);
      for (const fact of facts(row)) expect(values, `${area} ${key}`).toContain(fact);
    }
    expect(rows(area).length, `${area}: a row the code does not have`).toBe(keys.length);
  }

  const payment = (row: PaymentOutcome) => [
    row.later.at(-1)?.status ?? row.returned,
    ...(row.failureReason === null ? [] : [row.failureReason]),
  ];

  it('names every transfer suffix with its final status and failure reason (transfer-in and -out agree)', () => {
    expect(Object.keys(TRANSFER_IN_OUTCOMES.bySuffix)).toEqual(Object.keys(TRANSFER_OUT_OUTCOMES.bySuffix));
    suffixes<PaymentOutcome>('Transfers', TRANSFER_OUT_OUTCOMES, payment);
    suffixes<PaymentOutcome>('Transfers', TRANSFER_IN_OUTCOMES, payment);
  });

  it('names every quote suffix with its final status and failure reason', () => {
    suffixes<PaymentOutcome>('Quotes', QUOTE_OUTCOMES, payment);
  });

  it('names every beneficiary name check suffix, KYC and KYB outcome', () => {
    suffixes<NameCheckOutcome>('Name check', BENEFICIARY_NAME_CHECK, (row) => [row.result === 'CHECKED' ? row.status : row.code]);
    suffixes<string>('KYC', KYC_OUTCOMES, (row) => [row]);
    suffixes<string>('KYB', KYB_OUTCOMES, (row) => [row]);
  });

  it('names every sandbox UMA address with its currency and outcome', () => {
    for (const [address, row] of Object.entries(SANDBOX_UMA_DESTINATIONS)) {
      const { values } = outcomeOf('UMA', address);
      expect(values).toEqual(expect.arrayContaining([row.currency, row.endsAs, ...(row.failureReason === null ? [] : [row.failureReason])]));
    }
    expect(outcomeOf('UMA', 'any other').values).toContain(SANDBOX_UMA_NOT_FOUND.code);
    expect(rows('UMA').length).toBe(Object.keys(SANDBOX_UMA_DESTINATIONS).length + 1);
  });

  it('names every Embedded Wallet magic value', () => {
    const listed = rows('Embedded Wallet').map(([, value = '']) => backticked(value));
    expect(listed).toEqual(Object.entries(SANDBOX_MAGIC_VALUES).map(([field, row]) => [field, row.value]));
  });
});
