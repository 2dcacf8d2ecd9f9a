// The currencies the sandbox knows, with what the API's Currency object shows for each. Amounts
// are integers in units of 10^-decimals (cents for USD, satoshis for BTC).
import type { components } from '../../generated/openapi.js';

type Currency = components['schemas']['Currency'];

const CATALOG: Record<string, Omit<Currency, 'code'> & { crypto?: true }> = {
  USD: { name: 'United States Dollar', symbol: '$', decimals: 2 },
  EUR: { name: 'Euro', symbol: '€', decimals: 2 },
  GBP: { name: 'Pound Sterling', symbol: '£', decimals: 2 },
  MXN: { name: 'Mexican Peso', symbol: '$', decimals: 2 },
  AED: { name: 'UAE Dirham', symbol: 'د.إ', decimals: 2 },
  CAD: { name: 'Canadian Dollar', symbol: '$', decimals: 2 },
  BRL: { name: 'Brazilian Real', symbol: 'R$', decimals: 2 },
  INR: { name: 'Indian Rupee', symbol: '₹', decimals: 2 },
  PHP: { name: 'Philippine Peso', symbol: '₱', decimals: 2 },
  NGN: { name: 'Nigerian Naira', symbol: '₦', decimals: 2 },
  JPY: { name: 'Japanese Yen', symbol: '¥', decimals: 0 },
  KWD: { name: 'Kuwaiti Dinar', symbol: 'KD', decimals: 3 },
  BTC: { name: 'Bitcoin', symbol: '₿', decimals: 8, crypto: true },
  USDC: { name: 'USD Coin', symbol: 'USDC', decimals: 6, crypto: true },
};

export const isKnownCurrency = (code: string): boolean => code in CATALOG;
export const isCrypto = (code: string): boolean => CATALOG[code]?.crypto === true;

export function currency(code: string): Currency {
  const entry = CATALOG[code];
  if (entry === undefined) return { code, name: code, symbol: code, decimals: 2 };
  return { code, name: entry.name, symbol: entry.symbol, decimals: entry.decimals };
}
