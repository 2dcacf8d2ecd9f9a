// Sandbox funding instructions of an internal account. Fiat accounts are pooled accounts of the
// service (isPlatformAccount) with a per-account number and a reference that tells deposits
// apart; crypto accounts get their own Spark address. Everything derives from the account id, so
// the instructions are stable across reads without being stored.
import { createHash } from 'node:crypto';
import type { components } from '../../generated/openapi.js';
import type { InternalAccountRow } from './internal-accounts.repository.ts';

type FundingPaymentInstruction = components['schemas']['FundingPaymentInstruction'];

const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const BECH32_ALPHABET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** A stream of pseudo-random bytes seeded by the account id and a purpose. */
function bytes(accountId: string, purpose: string, length: number): Buffer {
  const out: Buffer[] = [];
  for (let block = 0; out.length * 32 < length; block++) out.push(createHash('sha256').update(`${purpose}:${block}:${accountId}`).digest());
  return Buffer.concat(out).subarray(0, length);
}

const digits = (accountId: string, purpose: string, length: number) => [...bytes(accountId, purpose, length)].map((b) => String(b % 10)).join('');
const fromAlphabet = (accountId: string, purpose: string, length: number, alphabet: string) =>
  [...bytes(accountId, purpose, length)].map((b) => alphabet[b % alphabet.length]).join('');

/** ISO 13616 check digits: move the country code and "00" to the end, letters as 10..35, 98 - mod 97. */
function iban(country: string, bban: string): string {
  const numeric = `${bban}${country}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let remainder = 0;
  for (const ch of numeric) remainder = (remainder * 10 + Number(ch)) % 97;
  return `${country}${String(98 - remainder).padStart(2, '0')}${bban}`;
}

/** CLABE: 17 digits plus a check digit (weights 3, 7, 1). */
function clabe(first17: string): string {
  const weights = [3, 7, 1];
  const sum = [...first17].reduce((acc, d, i) => acc + ((Number(d) * (weights[i % 3] ?? 1)) % 10), 0);
  return `${first17}${(10 - (sum % 10)) % 10}`;
}

/** What the instructions derive from: an account, or anything else funded the same way (a quote). */
export type FundedThing = Pick<InternalAccountRow, 'id' | 'status' | 'currency' | 'customer_id' | 'type'>;

export function fundingPaymentInstructions(account: FundedThing): FundingPaymentInstruction[] {
  if (account.status !== 'ACTIVE') return [];
  const id = account.id;
  const reference = `PAY-${fromAlphabet(id, 'reference', 6, REFERENCE_ALPHABET)}`;
  const holder = account.customer_id === null ? 'Payments Service FBO Platforms' : 'Payments Service FBO Customers';
  const pooled = { isPlatformAccount: true };
  switch (account.currency) {
    case 'USD':
      return [
        {
          accountOrWalletInfo: {
            accountType: 'USD_ACCOUNT',
            paymentRails: ['ACH', 'WIRE', 'RTP'],
            accountNumber: `881${digits(id, 'usd', 10)}`,
            routingNumber: '101019644',
            bankName: 'Lead Bank',
            accountHolderName: holder,
            reference,
          },
          instructionsNotes: 'Send ACH, wire or RTP transfers to this account and put the reference in the memo; deposits without it are returned.',
          ...pooled,
        },
      ];
    case 'EUR':
      return [
        {
          accountOrWalletInfo: {
            accountType: 'EUR_ACCOUNT',
            paymentRails: ['SEPA', 'SEPA_INSTANT'],
            iban: iban('DE', `37040044${digits(id, 'eur', 10)}`),
            swiftCode: 'COBADEFFXXX',
            bankName: 'Commerzbank',
            accountHolderName: holder,
            reference,
          },
          instructionsNotes: 'Send a SEPA transfer to this IBAN with the reference as remittance information.',
          ...pooled,
        },
      ];
    case 'GBP':
      return [
        {
          accountOrWalletInfo: {
            accountType: 'GBP_ACCOUNT',
            paymentRails: ['FASTER_PAYMENTS'],
            accountNumber: digits(id, 'gbp', 8),
            sortCode: '040605',
            bankName: 'ClearBank',
            accountHolderName: holder,
            reference,
          },
          instructionsNotes: 'Send a Faster Payments transfer to this account with the reference as payment reference.',
          ...pooled,
        },
      ];
    case 'MXN':
      return [
        {
          accountOrWalletInfo: {
            accountType: 'MXN_ACCOUNT',
            paymentRails: ['SPEI'],
            clabe: clabe(`646180${digits(id, 'mxn', 11)}`),
            bankName: 'STP',
            accountHolderName: holder,
            reference,
          },
          instructionsNotes: 'Send a SPEI transfer to this CLABE with the reference as concepto de pago.',
          ...pooled,
        },
      ];
    case 'AED':
      return [
        {
          accountOrWalletInfo: {
            accountType: 'AED_ACCOUNT',
            paymentRails: ['UAEFTS'],
            iban: iban('AE', `033${digits(id, 'aed', 16)}`),
            swiftCode: 'BOMLAEAD',
            bankName: 'Mashreq Bank',
            accountHolderName: holder,
            reference,
          },
          instructionsNotes: 'Send a UAEFTS transfer to this IBAN with the reference in the payment details.',
          ...pooled,
        },
      ];
  }
  if (account.type === 'INTERNAL_CRYPTO' || account.type === 'EMBEDDED_WALLET') {
    return [
      {
        accountOrWalletInfo: {
          accountType: 'SPARK_WALLET',
          paymentRails: ['SPARK'],
          address: `sp1${fromAlphabet(id, 'spark', 62, BECH32_ALPHABET)}`,
          assetType: account.currency,
        },
        instructionsNotes: `Send ${account.currency} on Spark to this address.`,
        isPlatformAccount: false,
      },
    ];
  }
  // A fiat currency without a local collection account in the sandbox.
  return [];
}
