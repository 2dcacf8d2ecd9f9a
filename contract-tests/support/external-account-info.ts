// The accountInfo of an external account, one builder per accountType. Each identifier is random
// (tests run in parallel and the same account twice is a conflict) and ends with the 3-digit
// `suffix` the sandbox reads to pick an outcome: 102 to 107 the beneficiary name check, 105 an
// invalid account, 002 to 005 transfer failures; 000 is a plain, matched account.
import { randomInt } from 'node:crypto';
import type { components } from '../../generated/openapi.js';
import { unique } from './api.ts';

type Schemas = components['schemas'];

const digits = (n: number): string => Array.from({ length: n }, () => String(randomInt(10))).join('');
const jane = { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' } as const;
const northwind = { beneficiaryType: 'BUSINESS', fullName: 'Northwind Payouts SAS', registrationNumber: '552120222' } as const;

export const externalAccountInfo = {
  usd: (suffix = '000'): Schemas['UsdAccountInfo'] => ({
    accountType: 'USD_ACCOUNT',
    accountNumber: `${digits(9)}${suffix}`,
    routingNumber: '021000021',
    bankAccountType: 'CHECKING',
    bankName: 'JPMorgan Chase Bank',
    beneficiary: jane,
  }),
  eur: (suffix = '000'): Schemas['EurAccountInfo'] => ({ accountType: 'EUR_ACCOUNT', iban: `FR14${digits(19)}${suffix}`, swiftCode: 'PSSTFRPPPAR', beneficiary: northwind }),
  gbp: (suffix = '000'): Schemas['GbpAccountInfo'] => ({ accountType: 'GBP_ACCOUNT', accountNumber: `${digits(5)}${suffix}`, sortCode: '601613', beneficiary: jane }),
  mxn: (suffix = '000'): Schemas['MxnAccountInfo'] => ({
    accountType: 'MXN_ACCOUNT',
    clabe: `${digits(15)}${suffix}`,
    bankName: 'BBVA México',
    beneficiary: { beneficiaryType: 'BUSINESS', fullName: 'Proveedora del Norte S.A. de C.V.' },
  }),
  aed: (suffix = '000'): Schemas['AedAccountInfo'] => ({ accountType: 'AED_ACCOUNT', iban: `AE07${digits(16)}${suffix}`, swiftCode: 'EBILAEAD', beneficiary: jane }),
  spark: (suffix = '000'): Schemas['SparkWalletInfo'] => ({ accountType: 'SPARK_WALLET', address: `sp1pgss${unique()}${unique()}${digits(4)}${suffix}` }),
};
