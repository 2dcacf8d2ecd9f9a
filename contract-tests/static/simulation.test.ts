// Unit tests of server/simulation/: every row of every sandbox rule table, the row for any other
// suffix, the suffix rule itself, and that the modules stay pure. The comparison of these tables
// with the spec's descriptions is simulation-spec.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi.js';
import { sandboxNameCheck } from '../../server/external-accounts/account-info.ts';
import { BENEFICIARY_NAME_CHECK, beneficiaryNameCheck } from '../../server/simulation/beneficiary-name-check.ts';
import { checkMagicValue, SANDBOX_MAGIC_VALUES, type MagicValueField } from '../../server/simulation/embedded-wallet.ts';
import { sameText } from '../../server/shared/constant-time.ts';
import { KYB_OUTCOMES, kybOutcome } from '../../server/simulation/kyb.ts';
import { KYC_OUTCOMES, kycOutcome } from '../../server/simulation/kyc.ts';
import type { PaymentOutcome } from '../../server/simulation/payment-outcome.ts';
import { QUOTE_OUTCOMES, quoteOutcome, quotePaymentOutcome } from '../../server/simulation/quote-outcomes.ts';
import { identifierSuffix, lastThree, rowFor } from '../../server/simulation/suffix.ts';
import { A_FEW_SECONDS_MS, ABOUT_30_SECONDS_MS, ABOUT_6_MINUTES_MS } from '../../server/simulation/timing.ts';
import {
  TRANSFER_IN_OUTCOMES,
  TRANSFER_OUT_OUTCOMES,
  transferInOutcome,
  transferOutOutcome,
} from '../../server/simulation/transfer-outcomes.ts';
import { lookupSandboxUma, SANDBOX_UMA_DESTINATIONS, SANDBOX_UMA_DOMAIN } from '../../server/simulation/uma-addresses.ts';

type AccountInfo = components['schemas']['ExternalAccountInfo'];

describe('suffix', () => {
  it('lastThree is the last 3 characters, or all of a shorter value', () => {
    expect(lastThree('Smith002')).toBe('002');
    expect(lastThree('C4829123')).toBe('123');
    expect(lastThree('02')).toBe('02');
    expect(lastThree('')).toBe('');
  });

  it('identifierSuffix takes the digits appended to the username of an identifier with a domain part', () => {
    expect(identifierSuffix('$jane002@domain')).toBe('002');
    expect(identifierSuffix('$jane002@pay.example.org')).toBe('002');
    expect(identifierSuffix('jane.005@example.com')).toBe('005');
    expect(identifierSuffix('a@b002@example.com')).toBe('002'); // the domain is what follows the last @
  });

  it('identifierSuffix is lastThree for identifiers without a domain part', () => {
    for (const id of ['000123456002', 'DE89370400440532013002', '012345678901234105', 'sp1qqqqqqqqqqqqqqqqqqqqqqqqq004', '02', '']) {
      expect(identifierSuffix(id)).toBe(lastThree(id));
    }
  });

  it('identifierSuffix of an identifier shorter than 3 characters, or with an empty username, selects no row', () => {
    expect(identifierSuffix('05')).toBe('05');
    expect(identifierSuffix('@domain')).toBe('');
    expect(identifierSuffix('2@domain')).toBe('2');
  });

  it('rowFor picks the row of the suffix, the default otherwise, never an inherited property', () => {
    const table = { bySuffix: { '001': 'one' }, otherwise: 'other' } as const;
    expect(rowFor<string>(table, '001')).toBe('one');
    expect(rowFor<string>(table, '002')).toBe('other');
    expect(rowFor<string>(table, 'valueOf')).toBe('other');
    expect(rowFor<string>(table, '')).toBe('other');
  });
});

describe('kyc', () => {
  it.each([
    ['Smith001', 'PENDING'],
    ['Smith002', 'REJECTED'],
    ['Smith003', 'APPROVED'],
    ['Smith', 'APPROVED'],
    ['Jane Doe 002', 'REJECTED'],
    ['001', 'PENDING'],
    ['01', 'APPROVED'],
    ['', 'APPROVED'],
    ['1001', 'PENDING'],
    ['0010', 'APPROVED'],
  ] as const)('%s gives %s', (name, status) => {
    expect(kycOutcome(name)).toBe(status);
  });

  it('a domain part is not special in a name: the last 3 characters count', () => {
    expect(kycOutcome('Smith002@x')).toBe('APPROVED');
  });

  it('has exactly the rows 001 and 002', () => {
    expect(Object.keys(KYC_OUTCOMES.bySuffix).sort()).toEqual(['001', '002']);
  });
});

describe('kyb', () => {
  it.each([
    ['C4829001', 'PENDING'],
    ['C4829002', 'REJECTED'],
    ['C4829123', 'APPROVED'],
    ['002', 'REJECTED'],
    ['2', 'APPROVED'],
    ['', 'APPROVED'],
  ] as const)('%s gives %s', (registrationNumber, status) => {
    expect(kybOutcome(registrationNumber)).toBe(status);
  });

  it('has exactly the rows 001 and 002', () => {
    expect(Object.keys(KYB_OUTCOMES.bySuffix).sort()).toEqual(['001', '002']);
  });
});

describe('beneficiary-name-check', () => {
  it.each([
    ['000123456102', { result: 'CHECKED', status: 'NOT_MATCHED' }],
    ['000123456103', { result: 'CHECKED', status: 'PARTIAL_MATCH' }],
    ['000123456104', { result: 'CHECKED', status: 'PENDING' }],
    ['000123456105', { result: 'REJECTED', httpStatus: 400, code: 'INVALID_BANK_ACCOUNT' }],
    ['000123456106', { result: 'CHECKED', status: 'UNSUPPORTED' }],
    ['000123456107', { result: 'CHECKED', status: 'CHECKED_BY_RECEIVING_FI' }],
    ['000123456101', { result: 'CHECKED', status: 'MATCHED' }],
    ['000123456108', { result: 'CHECKED', status: 'MATCHED' }],
    ['000123456002', { result: 'CHECKED', status: 'MATCHED' }],
    ['05', { result: 'CHECKED', status: 'MATCHED' }],
    ['$jane103@domain', { result: 'CHECKED', status: 'PARTIAL_MATCH' }],
    ['$jane@domain105', { result: 'CHECKED', status: 'MATCHED' }],
  ] as const)('%s gives %j', (identifier, outcome) => {
    expect(beneficiaryNameCheck(identifier)).toEqual(outcome);
  });

  it('reserves 102 to 107', () => {
    expect(Object.keys(BENEFICIARY_NAME_CHECK.bySuffix).sort()).toEqual(['102', '103', '104', '105', '106', '107']);
  });

  // server/external-accounts/account-info.ts applies the table to accounts, adding the wallet rule.
  it.each(['100', '101', '102', '103', '104', '105', '106', '107', '108', '002', '999'])('suffix %s agrees with sandboxNameCheck', (suffix) => {
    const bank: AccountInfo = {
      accountType: 'USD_ACCOUNT',
      accountNumber: `000123456${suffix}`,
      routingNumber: '021000021',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' },
    } as AccountInfo;
    const wallet = { accountType: 'SPARK_WALLET', address: `sp1qqqqqqqqqqqqqqqqqqqqqqqq${suffix}` } as AccountInfo;
    const outcome = beneficiaryNameCheck(`000123456${suffix}`);
    const existing = sandboxNameCheck(bank);
    if (outcome.result === 'REJECTED') {
      expect(existing).toEqual({ kind: 'rejected' });
      expect(sandboxNameCheck(wallet)).toEqual({ kind: 'rejected' });
    } else {
      expect(existing).toMatchObject({ kind: 'checked', status: outcome.status });
      expect(sandboxNameCheck(wallet)).toEqual({ kind: 'none' });
    }
  });
});

/** Every status a transfer or quote passes through after the response, in order. */
const statuses = (o: PaymentOutcome) => [o.returned, ...o.later.map((c) => c.status)];

describe('transfer-outcomes', () => {
  it.each([
    ['000123456002', 'FAILED', [], 'INSUFFICIENT_FUNDS', 'UNCHANGED', false],
    ['000123456003', 'FAILED', [], 'ACCOUNT_CLOSED', 'UNCHANGED', false],
    ['000123456004', 'PROCESSING', [{ status: 'FAILED', afterMs: A_FEW_SECONDS_MS }], 'BANK_REJECTED', 'DEBITED', true],
    ['000123456005', 'PENDING', [{ status: 'FAILED', afterMs: ABOUT_30_SECONDS_MS }], 'BANK_REJECTED', 'DEBITED', true],
    ['000123456006', 'COMPLETED', [], null, 'DEBITED', false],
    ['000123456007', 'COMPLETED', [], null, 'DEBITED', false],
    ['000123456001', 'COMPLETED', [], null, 'DEBITED', false],
    ['000123456102', 'COMPLETED', [], null, 'DEBITED', false],
    ['02', 'COMPLETED', [], null, 'DEBITED', false],
    ['$jane004@domain', 'PROCESSING', [{ status: 'FAILED', afterMs: A_FEW_SECONDS_MS }], 'BANK_REJECTED', 'DEBITED', true],
  ] as const)('transfer-out to %s: returned %s', (identifier, returned, later, failureReason, balance, creditedBack) => {
    expect(transferOutOutcome(identifier)).toEqual({ returned, later, failureReason, balance, creditedBack });
  });

  it.each([
    ['000123456002', 'FAILED', [], 'INSUFFICIENT_FUNDS', 'UNCHANGED'],
    ['000123456003', 'FAILED', [], 'ACCOUNT_CLOSED', 'UNCHANGED'],
    ['000123456004', 'PROCESSING', [{ status: 'FAILED', afterMs: A_FEW_SECONDS_MS }], 'BANK_REJECTED', 'UNCHANGED'],
    ['000123456005', 'PENDING', [{ status: 'FAILED', afterMs: ABOUT_30_SECONDS_MS }], 'BANK_REJECTED', 'UNCHANGED'],
    ['000123456006', 'COMPLETED', [], null, 'CREDITED'],
    ['000123456999', 'COMPLETED', [], null, 'CREDITED'],
    ['5', 'COMPLETED', [], null, 'CREDITED'],
    ['$jane005@domain', 'PENDING', [{ status: 'FAILED', afterMs: ABOUT_30_SECONDS_MS }], 'BANK_REJECTED', 'UNCHANGED'],
  ] as const)('transfer-in from %s: returned %s', (identifier, returned, later, failureReason, balance) => {
    expect(transferInOutcome(identifier)).toEqual({ returned, later, failureReason, balance, creditedBack: false });
  });

  const rows = (table: typeof TRANSFER_OUT_OUTCOMES | typeof TRANSFER_IN_OUTCOMES): PaymentOutcome[] => [
    ...Object.values(table.bySuffix),
    table.otherwise,
  ];

  it('a row has a failure reason exactly when it ends FAILED', () => {
    for (const row of [...rows(TRANSFER_OUT_OUTCOMES), ...rows(TRANSFER_IN_OUTCOMES)]) {
      expect(row.failureReason !== null, JSON.stringify(row)).toBe(statuses(row).at(-1) === 'FAILED');
    }
  });

  it('only a debit that later fails is credited back; a transfer-in credits only when completed', () => {
    for (const row of rows(TRANSFER_OUT_OUTCOMES)) {
      expect(row.creditedBack).toBe(row.balance === 'DEBITED' && statuses(row).at(-1) === 'FAILED');
    }
    for (const row of rows(TRANSFER_IN_OUTCOMES)) {
      expect(row.balance === 'CREDITED').toBe(row.returned === 'COMPLETED');
      expect(row.creditedBack).toBe(false);
    }
  });

  it('has the rows 002 to 005 in both directions', () => {
    expect(Object.keys(TRANSFER_OUT_OUTCOMES.bySuffix).sort()).toEqual(['002', '003', '004', '005']);
    expect(Object.keys(TRANSFER_IN_OUTCOMES.bySuffix).sort()).toEqual(['002', '003', '004', '005']);
  });
});

describe('quote-outcomes', () => {
  const fails = [{ status: 'FAILED', afterMs: A_FEW_SECONDS_MS }] as const;
  const completes = [{ status: 'COMPLETED', afterMs: A_FEW_SECONDS_MS }] as const;
  it.each([
    ['DE89370400440532013002', fails, 'QUOTE_EXECUTION_FAILED', true],
    ['DE89370400440532013003', [{ status: 'COMPLETED', afterMs: ABOUT_6_MINUTES_MS }], null, false],
    ['DE89370400440532013004', fails, 'COUNTERPARTY_DELIVERY_FAILED', true],
    ['DE89370400440532013005', [...completes, ...fails], 'PAYMENT_RETURNED', true],
    ['DE89370400440532013006', fails, 'USER_CANCELLED', true],
    ['DE89370400440532013007', fails, 'REFUND_FAILED', false],
    ['DE89370400440532013001', completes, null, false],
    ['DE89370400440532013008', completes, null, false],
    ['07', completes, null, false],
    ['$jane007@domain', fails, 'REFUND_FAILED', false],
  ] as const)('to %s', (identifier, later, failureReason, creditedBack) => {
    expect(quoteOutcome(identifier)).toEqual({ returned: 'PROCESSING', later, failureReason, balance: 'DEBITED', creditedBack });
  });

  it('by destination: another internal account is paid at once, an external one by its suffix, an UMA address as the sandbox destinations say', () => {
    expect(quotePaymentOutcome({ kind: 'INTERNAL' })).toEqual({ returned: 'COMPLETED', later: [], failureReason: null, balance: 'DEBITED', creditedBack: false });
    expect(quotePaymentOutcome({ kind: 'EXTERNAL', identifier: 'DE89370400440532013004' })).toEqual(quoteOutcome('DE89370400440532013004'));
    expect(quotePaymentOutcome({ kind: 'UMA', address: '$success.eur@sandbox.uma.money' })).toEqual({ returned: 'PROCESSING', later: completes, failureReason: null, balance: 'DEBITED', creditedBack: false });
    expect(quotePaymentOutcome({ kind: 'UMA', address: '$pending.long.usd@sandbox.uma.money' })).toEqual({ returned: 'PROCESSING', later: [], failureReason: null, balance: 'DEBITED', creditedBack: false });
    expect(quotePaymentOutcome({ kind: 'UMA', address: '$fail.compliance.usd@sandbox.uma.money' })).toEqual({
      returned: 'PROCESSING',
      later: fails,
      failureReason: 'COMPLIANCE_REJECTED',
      balance: 'DEBITED',
      creditedBack: true,
    });
    // Any other receiver completes a few seconds later.
    expect(quotePaymentOutcome({ kind: 'UMA', address: '$jane@payments.example.org' })).toEqual(quotePaymentOutcome({ kind: 'UMA', address: '$success.usd@sandbox.uma.money' }));
  });

  it('about 6 minutes is 360 000 ms', () => {
    expect(ABOUT_6_MINUTES_MS).toBe(360_000);
  });

  it('a failed payment is credited back unless the refund failed', () => {
    for (const row of [...Object.values(QUOTE_OUTCOMES.bySuffix), QUOTE_OUTCOMES.otherwise] as PaymentOutcome[]) {
      const failed = statuses(row).at(-1) === 'FAILED';
      expect(row.failureReason !== null).toBe(failed);
      expect(row.creditedBack).toBe(failed && row.failureReason !== 'REFUND_FAILED');
    }
  });

  it('has the rows 002 to 007', () => {
    expect(Object.keys(QUOTE_OUTCOMES.bySuffix).sort()).toEqual(['002', '003', '004', '005', '006', '007']);
  });
});

describe('uma-addresses', () => {
  it.each([
    ['$success.usd@sandbox.uma.money', 'USD', 'COMPLETED', null],
    ['$success.eur@sandbox.uma.money', 'EUR', 'COMPLETED', null],
    ['$success.mxn@sandbox.uma.money', 'MXN', 'COMPLETED', null],
    ['$pending.long.usd@sandbox.uma.money', 'USD', 'PROCESSING', null],
    ['$fail.compliance.usd@sandbox.uma.money', 'USD', 'FAILED', 'COMPLIANCE_REJECTED'],
  ] as const)('%s receives %s and ends %s', (address, currency, endsAs, failureReason) => {
    expect(lookupSandboxUma(address)).toMatchObject({ kind: 'DESTINATION', currency, endsAs, failureReason });
  });

  it('every destination asks for the sender\'s name; the MXN one also for the birth date', () => {
    for (const destination of Object.values(SANDBOX_UMA_DESTINATIONS)) {
      expect(destination.requiredPayerData).toContainEqual({ name: 'FULL_NAME', mandatory: true });
    }
    expect(SANDBOX_UMA_DESTINATIONS['$success.mxn@sandbox.uma.money'].requiredPayerData).toContainEqual({ name: 'BIRTH_DATE', mandatory: true });
  });

  it('the domain is case-insensitive, the name is not', () => {
    expect(lookupSandboxUma('$success.usd@Sandbox.UMA.money')).toMatchObject({ kind: 'DESTINATION', currency: 'USD' });
    expect(lookupSandboxUma('$SUCCESS.usd@sandbox.uma.money')).toEqual({ kind: 'NOT_FOUND', httpStatus: 404, code: 'UMA_NOT_FOUND' });
  });

  it.each(['$success.gbp@sandbox.uma.money', '$jane@sandbox.uma.money', '$success.usd.x@sandbox.uma.money', '@sandbox.uma.money'])(
    '%s is not found',
    (address) => {
      expect(lookupSandboxUma(address)).toEqual({ kind: 'NOT_FOUND', httpStatus: 404, code: 'UMA_NOT_FOUND' });
    },
  );

  it.each(['$success.usd@payments.example.org', '$success.usd@sandbox.uma.money.example.org', '$success.usd@uma.money', 'sandbox.uma.money', ''])(
    '%j is not at the sandbox domain',
    (address) => {
      expect(lookupSandboxUma(address)).toEqual({ kind: 'OTHER_DOMAIN' });
    },
  );

  it('every destination is at the sandbox domain', () => {
    for (const address of Object.keys(SANDBOX_UMA_DESTINATIONS)) expect(address.endsWith(`@${SANDBOX_UMA_DOMAIN}`)).toBe(true);
  });
});

describe('embedded-wallet', () => {
  it.each([
    ['otp', '000000', 'Invalid OTP code'],
    ['assertion.signature', 'sandbox-valid-passkey-signature', 'Invalid passkey signature'],
    ['oidcToken', 'sandbox-valid-oidc-token', 'Invalid OIDC token'],
    ['Service-Wallet-Signature', 'sandbox-valid-signature', 'Invalid Service-Wallet-Signature'],
  ] as const)('%s accepts %s and otherwise fails with "%s"', (field, value, reason) => {
    expect(checkMagicValue(field, value, sameText)).toEqual({ ok: true });
    const failure = { ok: false, httpStatus: 401, code: 'UNAUTHORIZED', reason };
    for (const wrong of ['', `${value} `, value.toUpperCase() === value ? '000001' : value.toUpperCase(), 'x']) {
      expect(checkMagicValue(field, wrong, sameText)).toEqual(failure);
    }
  });

  it('a value of one field is not accepted for another', () => {
    const fields = Object.keys(SANDBOX_MAGIC_VALUES) as MagicValueField[];
    for (const field of fields) {
      for (const other of fields.filter((f) => f !== field)) {
        expect(checkMagicValue(field, SANDBOX_MAGIC_VALUES[other].value, sameText).ok).toBe(false);
      }
    }
  });

  const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL2FjY291bnRzLmdvb2dsZS5jb20ifQ.c2ln';
  it('verifying an OAUTH credential accepts only the magic value', () => {
    expect(checkMagicValue('oidcToken', jwt, sameText)).toMatchObject({ ok: false, reason: 'Invalid OIDC token' });
  });
});

describe('server/simulation stays pure', () => {
  const dir = resolve(import.meta.dirname, '..', '..', 'server', 'simulation');
  const modules = readdirSync(dir).filter((name) => name.endsWith('.ts'));

  it('holds the modules of the rule tables', () => {
    expect(modules.sort()).toEqual([
      'beneficiary-name-check.ts',
      'embedded-wallet.ts',
      'kyb.ts',
      'kyc.ts',
      'payment-outcome.ts',
      'quote-outcomes.ts',
      'suffix.ts',
      'timing.ts',
      'transfer-outcomes.ts',
      'uma-addresses.ts',
    ]);
  });

  it.each(modules)('%s imports only its siblings, and the generated spec types as types', (name) => {
    const source = readFileSync(join(dir, name), 'utf8');
    for (const [statement, typeOnly, from] of source.matchAll(/^import\s+(type\s+)?[^;]*?from\s+'([^']+)';/gms)) {
      if (typeOnly !== undefined && from === '../../generated/openapi.js') continue;
      expect(from, statement).toMatch(/^\.\/[a-z-]+\.ts$/);
    }
    expect(source).not.toMatch(/^import\s+'|\bimport\s*\(/m);
    expect(source).not.toMatch(/\b(require|process|Date|setTimeout|setInterval|fetch|Math\.random)\b/);
  });
});
