// What the service reads from an external account's `accountInfo`: the currency its type
// requires, its primary identifier (duplicates) and the sandbox name check its suffix selects.
import type { components } from '../../generated/openapi.js';
import { isCrypto } from '../shared/currencies.ts';
import { Keyring } from '../shared/keyring.ts';
import { beneficiaryNameCheck } from '../simulation/beneficiary-name-check.ts';

type AccountInfo = components['schemas']['ExternalAccountInfo'];
type Sealer = { seal(plaintext: string): string };
type Opener = { open(sealed: string): string };
type VerificationStatus = components['schemas']['BeneficiaryVerificationStatus'];

const FIAT_CURRENCY: Record<Exclude<AccountInfo['accountType'], 'SPARK_WALLET'>, string> = {
  USD_ACCOUNT: 'USD',
  EUR_ACCOUNT: 'EUR',
  GBP_ACCOUNT: 'GBP',
  MXN_ACCOUNT: 'MXN',
  AED_ACCOUNT: 'AED',
};

/** Whether `currency` is the one `accountType` requires (a crypto asset for wallets). */
export function currencyMatches(info: AccountInfo, currency: string): boolean {
  return info.accountType === 'SPARK_WALLET' ? isCrypto(currency) : FIAT_CURRENCY[info.accountType] === currency;
}

export function expectedCurrency(info: AccountInfo): string {
  return info.accountType === 'SPARK_WALLET' ? 'a crypto asset such as BTC' : FIAT_CURRENCY[info.accountType];
}

/** The identifier whose last 3 digits drive the sandbox (account number, IBAN, CLABE, address). */
export function sandboxIdentifier(info: AccountInfo): string {
  switch (info.accountType) {
    case 'USD_ACCOUNT':
    case 'GBP_ACCOUNT':
      return info.accountNumber;
    case 'EUR_ACCOUNT':
    case 'AED_ACCOUNT':
      return info.iban;
    case 'MXN_ACCOUNT':
      return info.clabe;
    case 'SPARK_WALLET':
      return info.address;
  }
}

/** What makes two accounts the same: an account number only with its routing number or sort code. */
export function primaryIdentifier(info: AccountInfo): string {
  switch (info.accountType) {
    case 'USD_ACCOUNT':
      return `${info.routingNumber}/${info.accountNumber}`;
    case 'GBP_ACCOUNT':
      return `${info.sortCode}/${info.accountNumber}`;
    default:
      return sandboxIdentifier(info);
  }
}

export type NameCheck =
  | { kind: 'rejected' }
  | { kind: 'none' }
  | { kind: 'checked'; status: VerificationStatus; verifiedName: string | null };

/**
 * The sandbox beneficiary name check (simulation/beneficiary-name-check.ts) applied to an account:
 * wallets, and AED accounts registered without a beneficiary, have no name to check, so they get
 * no verification status (BeneficiaryVerificationStatus), but a `105` suffix still rejects them.
 */
export function sandboxNameCheck(info: AccountInfo): NameCheck {
  const outcome = beneficiaryNameCheck(sandboxIdentifier(info));
  if (outcome.result === 'REJECTED') return { kind: 'rejected' };
  if (info.accountType === 'SPARK_WALLET' || info.beneficiary === undefined) return { kind: 'none' };
  const name = info.beneficiary.fullName;
  return { kind: 'checked', status: outcome.status, verifiedName: outcome.status === 'MATCHED' ? name : null };
}

/** The account info with a business beneficiary's tax id (an identity number) transformed; the rest as it is. */
function withTaxId(info: AccountInfo, transform: (taxId: string) => string): AccountInfo {
  if (info.accountType === 'SPARK_WALLET' || info.beneficiary?.beneficiaryType !== 'BUSINESS' || info.beneficiary.taxId === undefined) return info;
  return { ...info, beneficiary: { ...info.beneficiary, taxId: transform(info.beneficiary.taxId) } } as AccountInfo;
}

/** The account info to store: a business beneficiary's tax id sealed. */
export const sealedTaxId = (keys: Sealer, info: AccountInfo): AccountInfo => withTaxId(info, (taxId) => (Keyring.isSealed(taxId) ? taxId : keys.seal(taxId)));

/** The account info as stored, shown: a sealed tax id opened (one stored in clear by an earlier version, as it is). */
export const openedTaxId = (keys: Opener, info: AccountInfo): AccountInfo => withTaxId(info, (taxId) => (Keyring.isSealed(taxId) ? keys.open(taxId) : taxId));

