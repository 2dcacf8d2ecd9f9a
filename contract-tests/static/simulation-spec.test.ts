// The sandbox rule tables of server/simulation/ are the tables the spec documents: each markdown
// table in a description of the bundled spec (generated/openapi.json) is read and compared with the
// code's table, row by row, so neither can change without the other. A row's "facts" are the
// UPPER_SNAKE_CASE backticked values of the spec row (statuses, failure reasons, error codes), plus
// its delays in order ("a few seconds", "about 30 seconds") and whether it says "credited back";
// the code's row must imply exactly the same set.
import { describe, expect, it } from 'vitest';
import { BENEFICIARY_NAME_CHECK, type NameCheckOutcome } from '../../server/simulation/beneficiary-name-check.ts';
import { SANDBOX_MAGIC_VALUES } from '../../server/simulation/embedded-wallet.ts';
import { KYB_OUTCOMES } from '../../server/simulation/kyb.ts';
import { KYC_OUTCOMES } from '../../server/simulation/kyc.ts';
import type { PaymentOutcome } from '../../server/simulation/payment-outcome.ts';
import { QUOTE_OUTCOMES } from '../../server/simulation/quote-outcomes.ts';
import type { SuffixTable } from '../../server/simulation/suffix.ts';
import { A_FEW_SECONDS_MS } from '../../server/simulation/timing.ts';
import { TRANSFER_IN_OUTCOMES, TRANSFER_OUT_OUTCOMES } from '../../server/simulation/transfer-outcomes.ts';
import { SANDBOX_UMA_DESTINATIONS, SANDBOX_UMA_NOT_FOUND, type SandboxUmaDestination } from '../../server/simulation/uma-addresses.ts';
import { backticked, findTable, parseMarkdownTables, upperSnakeValues, type MarkdownTable } from '../support/markdown-table.ts';
import { spec } from '../support/spec.ts';

/** The key of the row for everything the other rows do not name. */
const ANY_OTHER = 'any other';

type Facts = Map<string, Set<string>>;

/** The keys a row's first cell names: its backticked values, or "any other ...". */
function rowKeys(cell: string): string[] {
  if (/^any other\b/i.test(cell)) return [ANY_OTHER];
  const keys = backticked(cell);
  if (keys.length === 0) throw new Error(`a row key is neither backticked nor "any other": ${cell}`);
  return keys;
}

/** Facts of each row of a spec table, by key; `extract` reads the cells after the key. */
function specFacts(table: MarkdownTable, extract: (cells: readonly string[]) => Iterable<string>): Facts {
  const facts: Facts = new Map();
  for (const [key = '', ...rest] of table.rows) {
    for (const k of rowKeys(key)) {
      if (facts.has(k)) throw new Error(`the key ${k} has two rows`);
      facts.set(k, new Set(extract(rest)));
    }
  }
  return facts;
}

/** Facts of each row of a code table, by key, with its default row under `any other`. */
function codeFacts<Row>(table: SuffixTable<Row>, facts: (row: Row) => Iterable<string>): Facts {
  const entries: [string, Row][] = [...Object.entries(table.bySuffix), [ANY_OTHER, table.otherwise]];
  return new Map(entries.map(([key, row]) => [key, new Set(facts(row))]));
}

/** Differences between the spec's facts and the code's, one line each; none when they agree. */
function compareFacts(specSide: Facts, codeSide: Facts): string[] {
  const differences: string[] = [];
  for (const key of specSide.keys()) if (!codeSide.has(key)) differences.push(`${key}: a row of the spec, not of the code`);
  for (const key of codeSide.keys()) if (!specSide.has(key)) differences.push(`${key}: a row of the code, not of the spec`);
  for (const [key, documented] of specSide) {
    const implemented = codeSide.get(key);
    if (implemented === undefined) continue;
    const onlySpec = [...documented].filter((f) => !implemented.has(f)).sort();
    const onlyCode = [...implemented].filter((f) => !documented.has(f)).sort();
    if (onlySpec.length > 0) differences.push(`${key}: the spec says ${onlySpec.join(', ')}; the code does not`);
    if (onlyCode.length > 0) differences.push(`${key}: the code says ${onlyCode.join(', ')}; the spec does not`);
  }
  return differences;
}

/** The `n`th delay of a row (1 for the first status change after the response), so order and count matter. */
const delay = (n: number, ms: number) => `delay ${n}: ${ms} ms`;
const CREDITED_BACK = 'credited back';
const UNIT_MS = { second: 1_000, minute: 60_000 } as const;

/** What a spec row of an outcome table says: its values, delays and whether it is credited back. */
function outcomeFacts(cells: readonly string[]): string[] {
  const text = cells.join(' | ');
  const delays = [...text.matchAll(/about (\d+) (second|minute)s?|a few seconds/g)].map((m) =>
    m[1] === undefined ? A_FEW_SECONDS_MS : Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS],
  );
  return [
    ...cells.flatMap(upperSnakeValues),
    ...delays.map((ms, i) => delay(i + 1, ms)),
    ...(/credited back/.test(text) ? [CREDITED_BACK] : []),
  ];
}

/** What a transfer or quote row of the code implies, in the same terms. */
function paymentFacts(row: PaymentOutcome): string[] {
  return [
    row.returned,
    ...row.later.flatMap((change, i) => [change.status, delay(i + 1, change.afterMs)]),
    ...(row.failureReason === null ? [] : [row.failureReason]),
    ...(row.creditedBack ? [CREDITED_BACK] : []),
  ];
}

function description(node: unknown, where: string): string {
  const text = (node as { description?: unknown } | undefined)?.description;
  if (typeof text !== 'string') throw new Error(`no description at ${where}`);
  return text;
}

const operation = (path: string, method: string) => description(spec.paths[path]?.[method], `${method} ${path}`);
const schema = (name: string) => description(spec.components.schemas?.[name], `components.schemas.${name}`);
const tag = (name: string) => description((spec.tags as { name: string }[]).find((t) => t.name === name), `tag ${name}`);

interface TableCheck {
  name: string;
  /** The description holding the table, and the first cell of the table's header. */
  markdown: () => string;
  header: string;
  specSide: (table: MarkdownTable) => Facts;
  codeSide: Facts;
}

const nameCheckFacts = (row: NameCheckOutcome) => [row.result === 'CHECKED' ? row.status : row.code];
const umaFacts = (row: SandboxUmaDestination) => [row.currency, row.endsAs, ...(row.failureReason === null ? [] : [row.failureReason])];

/** The column of `table` whose header is `name`. */
function column(table: MarkdownTable, name: string): number {
  const index = table.header.indexOf(name);
  if (index < 1) throw new Error(`no column "${name}" after the key in ${table.header.join(' | ')}`);
  return index - 1; // cells after the key
}

const CHECKS: TableCheck[] = [
  {
    name: 'transfer-out (POST /transfer-out)',
    markdown: () => operation('/transfer-out', 'post'),
    header: 'Suffix',
    specSide: (t) => specFacts(t, outcomeFacts),
    codeSide: codeFacts<PaymentOutcome>(TRANSFER_OUT_OUTCOMES, paymentFacts),
  },
  {
    name: 'transfer-in (POST /transfer-in)',
    markdown: () => operation('/transfer-in', 'post'),
    header: 'Suffix',
    specSide: (t) => specFacts(t, outcomeFacts),
    codeSide: codeFacts<PaymentOutcome>(TRANSFER_IN_OUTCOMES, paymentFacts),
  },
  {
    name: 'quote execution (POST /quotes/{quoteId}/execute)',
    markdown: () => operation('/quotes/{quoteId}/execute', 'post'),
    header: 'Suffix',
    specSide: (t) => specFacts(t, outcomeFacts),
    codeSide: codeFacts<PaymentOutcome>(QUOTE_OUTCOMES, paymentFacts),
  },
  {
    name: 'KYC (KycStatus)',
    markdown: () => schema('KycStatus'),
    header: 'Suffix',
    specSide: (t) => specFacts(t, outcomeFacts),
    codeSide: codeFacts<string>(KYC_OUTCOMES, (row) => [row]),
  },
  {
    name: 'KYB (KybStatus)',
    markdown: () => schema('KybStatus'),
    header: 'Suffix',
    specSide: (t) => specFacts(t, outcomeFacts),
    codeSide: codeFacts<string>(KYB_OUTCOMES, (row) => [row]),
  },
  {
    name: 'beneficiary name check (ExternalAccountInfo)',
    markdown: () => schema('ExternalAccountInfo'),
    header: 'Suffix',
    specSide: (t) => specFacts(t, outcomeFacts),
    codeSide: codeFacts<NameCheckOutcome>(BENEFICIARY_NAME_CHECK, nameCheckFacts),
  },
  {
    name: 'sandbox UMA destinations (GET /receiver/uma/{receiverUmaAddress})',
    markdown: () => operation('/receiver/uma/{receiverUmaAddress}', 'get'),
    header: 'Address',
    specSide: (t) => specFacts(t, outcomeFacts),
    codeSide: codeFacts<SandboxUmaDestination | typeof SANDBOX_UMA_NOT_FOUND>(
      { bySuffix: SANDBOX_UMA_DESTINATIONS, otherwise: SANDBOX_UMA_NOT_FOUND },
      (row) => ('code' in row ? [row.code] : umaFacts(row)),
    ),
  },
  {
    name: 'Embedded Wallet magic values (tag Embedded Wallet Auth)',
    markdown: () => tag('Embedded Wallet Auth'),
    header: 'Field',
    // Here the facts are the accepted value and the `reason` of a wrong one, not UPPER_SNAKE_CASE values.
    specSide: (t) => {
      const value = column(t, 'Sandbox value');
      const reason = column(t, '`reason` otherwise');
      return specFacts(t, (cells) => [
        ...backticked(cells[value] ?? '').map((v) => `value ${v}`),
        ...backticked(cells[reason] ?? '').map((r) => `reason ${r}`),
      ]);
    },
    codeSide: new Map(
      Object.entries(SANDBOX_MAGIC_VALUES).map(([field, row]) => [field, new Set([`value ${row.value}`, `reason ${row.failureReason}`])]),
    ),
  },
];

describe('the sandbox rule tables of the spec are those of server/simulation/', () => {
  it.each(CHECKS)('$name', (check) => {
    const facts = check.specSide(findTable(check.markdown(), check.header));
    expect(compareFacts(facts, check.codeSide)).toEqual([]);
    // A row without facts would compare nothing.
    for (const [key, set] of facts) expect(set.size, `${check.name}: row ${key}`).toBeGreaterThan(0);
  });
});

// The status paths of the outcome tables must be ones the spec's state machines allow.
interface StateMachine {
  initial: string[];
  transitions: { from: string; to: string }[];
}
const machine = (name: string) => (spec.components.schemas?.[name] as { 'x-state-machine': StateMachine })['x-state-machine'];
const allowed = (m: StateMachine, from: string, to: string) => m.transitions.some((t) => t.from === from && t.to === to);

describe('the outcome tables follow the state machines of the spec', () => {
  const transactions = machine('TransactionStatus');
  const quotes = machine('QuoteStatus');
  const payments = [
    ...Object.entries(TRANSFER_OUT_OUTCOMES.bySuffix).map(([k, row]) => [`transfer-out ${k}`, row] as const),
    ['transfer-out other', TRANSFER_OUT_OUTCOMES.otherwise] as const,
    ...Object.entries(TRANSFER_IN_OUTCOMES.bySuffix).map(([k, row]) => [`transfer-in ${k}`, row] as const),
    ['transfer-in other', TRANSFER_IN_OUTCOMES.otherwise] as const,
    ...Object.entries(QUOTE_OUTCOMES.bySuffix).map(([k, row]) => [`quote ${k}`, row] as const),
    ['quote other', QUOTE_OUTCOMES.otherwise] as const,
  ];

  it.each(payments)('%s: each transaction status follows from the one before', (_, row: PaymentOutcome) => {
    // Returned FAILED means created PENDING and refused within the request.
    const created = transactions.initial.includes(row.returned) || transactions.initial.some((s) => allowed(transactions, s, row.returned));
    expect(created, `returned ${row.returned}`).toBe(true);
    const path = [row.returned, ...row.later.map((c) => c.status)];
    for (let i = 1; i < path.length; i++) expect(allowed(transactions, path[i - 1] as string, path[i] as string), path.join(' -> ')).toBe(true);
  });

  it.each(Object.entries(QUOTE_OUTCOMES.bySuffix).concat([['other', QUOTE_OUTCOMES.otherwise]]))('quote %s: each quote status follows from the one before', (_, row: PaymentOutcome) => {
    const path = ['PENDING', row.returned, ...row.later.map((c) => c.status)];
    for (let i = 1; i < path.length; i++) expect(allowed(quotes, path[i - 1] as string, path[i] as string), path.join(' -> ')).toBe(true);
  });
});

// The oracle itself: the parser reads what it should, and a difference is reported, not missed.
describe('the comparison', () => {
  const sample = [
    'Intro text | not a table.',
    '',
    '| Value | Meaning |',
    '|---|---|',
    '| `A` | first |',
    '',
    '| Suffix | Outcome |',
    '|:---|---:|',
    '| `002`, `003` | returned `FAILED` (`BANK_REJECTED`) a few seconds later; the amount is credited back |',
    '| `004` | a \\| b, `400 INVALID_BANK_ACCOUNT`, see `POST /transfer-in`, `failureReason` |',
    '| `005` | `PENDING` about 30 seconds, `PROCESSING` a few seconds, then `FAILED` |',
    '| any other | returned `COMPLETED` after about 6 minutes |',
    'After the table.',
  ].join('\n');

  it('parses every table with its header and rows', () => {
    const tables = parseMarkdownTables(sample);
    expect(tables.map((t) => t.header)).toEqual([
      ['Value', 'Meaning'],
      ['Suffix', 'Outcome'],
    ]);
    expect(tables[1]?.rows).toHaveLength(4);
    expect(tables[1]?.rows[1]?.[1]).toBe('a | b, `400 INVALID_BANK_ACCOUNT`, see `POST /transfer-in`, `failureReason`');
    expect(() => findTable(sample, 'Missing')).toThrow(/found 0/);
  });

  it('reads keys, values, delays and credit-backs of rows', () => {
    expect(specFacts(findTable(sample, 'Suffix'), outcomeFacts)).toEqual(
      new Map([
        ['002', new Set(['FAILED', 'BANK_REJECTED', delay(1, A_FEW_SECONDS_MS), CREDITED_BACK])],
        ['003', new Set(['FAILED', 'BANK_REJECTED', delay(1, A_FEW_SECONDS_MS), CREDITED_BACK])],
        ['004', new Set(['INVALID_BANK_ACCOUNT'])],
        ['005', new Set(['PENDING', 'PROCESSING', 'FAILED', delay(1, 30_000), delay(2, A_FEW_SECONDS_MS)])],
        [ANY_OTHER, new Set(['COMPLETED', delay(1, 360_000)])],
      ]),
    );
    expect(upperSnakeValues('`$success.usd@sandbox.uma.money` `USD` `failureReason: COMPLIANCE_REJECTED` `Service-Wallet-Signature`')).toEqual([
      'USD',
      'COMPLIANCE_REJECTED',
    ]);
    expect(() => rowKeys('002')).toThrow(/neither backticked/);
  });

  it('reports a changed value, a missing row and an extra row', () => {
    const check = CHECKS[0] as TableCheck;
    const facts = check.specSide(findTable(check.markdown(), check.header));
    const mutated: Facts = new Map([...facts].map(([k, v]) => [k, new Set(v)]));
    mutated.get('004')?.delete('BANK_REJECTED');
    mutated.get('004')?.add('ACCOUNT_CLOSED');
    mutated.delete('005');
    mutated.set('006', new Set(['COMPLETED']));
    expect(compareFacts(mutated, check.codeSide)).toEqual([
      '006: a row of the spec, not of the code',
      '005: a row of the code, not of the spec',
      '004: the spec says ACCOUNT_CLOSED; the code does not',
      '004: the code says BANK_REJECTED; the spec does not',
    ]);
  });

  it('catches an edit of the spec text: another reason, another delay, no credit-back', () => {
    const check = CHECKS[0] as TableCheck;
    const edited = check
      .markdown()
      .replace('`FAILED` (`BANK_REJECTED`) a few seconds later; the amount is credited back.', '`FAILED` (`ACCOUNT_CLOSED`) about 10 seconds later.');
    expect(edited).not.toBe(check.markdown());
    expect(compareFacts(check.specSide(findTable(edited, check.header)), check.codeSide)).toEqual([
      `004: the spec says ACCOUNT_CLOSED, ${delay(1, 10_000)}; the code does not`,
      `004: the code says BANK_REJECTED, ${CREDITED_BACK}, ${delay(1, A_FEW_SECONDS_MS)}; the spec does not`,
    ]);
  });

  it('catches a change of a magic value in the code', () => {
    const check = CHECKS.find((c) => c.header === 'Field') as TableCheck;
    const code: Facts = new Map([...check.codeSide].map(([k, v]) => [k, new Set(v)]));
    code.set('otp', new Set(['value 123456', 'reason Invalid OTP code']));
    expect(compareFacts(check.specSide(findTable(check.markdown(), check.header)), code)).toEqual([
      'otp: the spec says value 000000; the code does not',
      'otp: the code says value 123456; the spec does not',
    ]);
  });
});
