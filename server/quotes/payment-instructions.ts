// Payment instructions of a real-time-funded quote: where to send exactly `totalSendingAmount`
// before the quote expires. They are the pooled collection accounts of sandbox funding, with the
// quote's own reference (fiat) or an invoice for exactly this amount (Spark).
import { createHash } from 'node:crypto';
import type { components } from '../../generated/openapi.js';
import { fundingPaymentInstructions } from '../internal-accounts/funding-instructions.ts';
import { currency, isCrypto } from '../shared/currencies.ts';

type QuotePaymentInstruction = components['schemas']['QuotePaymentInstruction'];

const major = (amount: number, code: string): string => {
  const { decimals } = currency(code);
  return decimals === 0 ? String(amount) : `${Math.trunc(amount / 10 ** decimals)}.${String(amount % 10 ** decimals).padStart(decimals, '0')}`;
};

export function quotePaymentInstructions(quote: { id: string; customerId: string | null; currency: string; amount: number; reference: string; expiresAt: string }): QuotePaymentInstruction[] {
  const crypto = isCrypto(quote.currency);
  const pooled = fundingPaymentInstructions({ id: quote.id, status: 'ACTIVE', currency: quote.currency, customer_id: quote.customerId, type: crypto ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT' });
  const exactly = `exactly ${major(quote.amount, quote.currency)} ${quote.currency}`;
  return pooled.map(({ accountOrWalletInfo }) => {
    if (crypto) {
      const invoice = `spark1pay${createHash('sha256').update(`invoice:${quote.id}`).digest('hex').slice(0, 52)}`;
      return { accountOrWalletInfo: { ...accountOrWalletInfo, invoice }, instructionsNotes: `Pay the invoice, or send ${exactly} on Spark to the address, before ${quote.expiresAt}.` };
    }
    return {
      accountOrWalletInfo: { ...accountOrWalletInfo, reference: quote.reference },
      instructionsNotes: `Send ${exactly} with the reference ${quote.reference} before ${quote.expiresAt}; any other amount is returned and the payment fails.`,
    };
  });
}
