import type { components } from '../../generated/openapi.js';

type Discovery = components['schemas']['Discovery'];

/** A copy, so that no answer can change the table. */
export const toDiscovery = (bank: Discovery): Discovery => ({ ...bank, paymentRails: [...bank.paymentRails] });

/** The list's order: by country, currency and bank name. */
export const discoveryKey = (bank: Discovery): string => `${bank.country}:${bank.currency}:${bank.bankName}`;
