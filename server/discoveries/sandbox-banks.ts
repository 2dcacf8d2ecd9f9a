// The banks the sandbox reaches, per country and currency, with the rails that reach each: the
// same rails an external account of that currency accepts (payments/payment-rails.ts), and a
// local BANK_TRANSFER where the sandbox has no named network.
import type { components } from '../../generated/openapi.js';

type Discovery = components['schemas']['Discovery'];
type PaymentRail = components['schemas']['PaymentRail'];

const US: PaymentRail[] = ['ACH', 'WIRE', 'RTP', 'FEDNOW'];
const EURO: PaymentRail[] = ['SEPA', 'SEPA_INSTANT', 'SWIFT'];
const bank = (country: string, currency: string, bankName: string, displayName: string, paymentRails: PaymentRail[]): Discovery => ({ bankName, displayName, country, currency, paymentRails });

export const SANDBOX_BANKS: readonly Discovery[] = [
  bank('US', 'USD', 'JPMORGAN_CHASE', 'JPMorgan Chase Bank', US),
  bank('US', 'USD', 'BANK_OF_AMERICA', 'Bank of America', ['ACH', 'WIRE', 'RTP']),
  bank('US', 'USD', 'WELLS_FARGO', 'Wells Fargo', US),
  bank('US', 'USD', 'LEAD_BANK', 'Lead Bank', US),
  bank('MX', 'MXN', 'BBVA_MEXICO', 'BBVA México', ['SPEI']),
  bank('MX', 'MXN', 'BANORTE', 'Banorte', ['SPEI']),
  bank('MX', 'MXN', 'SANTANDER_MEXICO', 'Santander México', ['SPEI']),
  bank('MX', 'MXN', 'STP', 'STP', ['SPEI']),
  bank('GB', 'GBP', 'BARCLAYS', 'Barclays', ['FASTER_PAYMENTS', 'SWIFT']),
  bank('GB', 'GBP', 'HSBC_UK', 'HSBC UK', ['FASTER_PAYMENTS', 'SWIFT']),
  bank('GB', 'GBP', 'CLEARBANK', 'ClearBank', ['FASTER_PAYMENTS']),
  bank('DE', 'EUR', 'DEUTSCHE_BANK', 'Deutsche Bank', EURO),
  bank('DE', 'EUR', 'COMMERZBANK', 'Commerzbank', EURO),
  bank('FR', 'EUR', 'BNP_PARIBAS', 'BNP Paribas', EURO),
  bank('FR', 'EUR', 'SOCIETE_GENERALE', 'Société Générale', EURO),
  bank('ES', 'EUR', 'BANCO_SANTANDER', 'Banco Santander', EURO),
  bank('NL', 'EUR', 'ING', 'ING', EURO),
  bank('AE', 'AED', 'EMIRATES_NBD', 'Emirates NBD', ['UAEFTS', 'SWIFT']),
  bank('AE', 'AED', 'MASHREQ', 'Mashreq Bank', ['UAEFTS', 'SWIFT']),
  bank('CA', 'CAD', 'ROYAL_BANK_OF_CANADA', 'RBC Royal Bank', ['BANK_TRANSFER']),
  bank('BR', 'BRL', 'ITAU', 'Itaú Unibanco', ['BANK_TRANSFER']),
  bank('IN', 'INR', 'HDFC_BANK', 'HDFC Bank', ['BANK_TRANSFER']),
  bank('PH', 'PHP', 'BDO_UNIBANK', 'BDO Unibank', ['BANK_TRANSFER']),
  bank('NG', 'NGN', 'ACCESS_BANK', 'Access Bank', ['BANK_TRANSFER']),
  bank('JP', 'JPY', 'MUFG_BANK', 'MUFG Bank', ['BANK_TRANSFER']),
  bank('KW', 'KWD', 'NATIONAL_BANK_OF_KUWAIT', 'National Bank of Kuwait', ['BANK_TRANSFER']),
];
