/**
 * Drops keys whose value is undefined: response validation would reject them, JSON would drop them
 * anyway. A plain loop: every object of every list answer goes through here.
 */
export function compact<T extends object>(value: T): T {
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) kept[key] = v;
  }
  return kept as T;
}

/**
 * The same object with its keys in `order` first (the order the spec documents), then any other.
 * jsonb stores keys in its own order (shortest first), so nested objects read back from it are
 * put in order again before they are answered.
 */
export function ordered<T extends object>(value: T, order: readonly string[]): T {
  const entries = Object.entries(value);
  const rank = (key: string) => {
    const i = order.indexOf(key);
    return i === -1 ? order.length : i;
  };
  return Object.fromEntries(entries.sort(([a], [b]) => rank(a) - rank(b))) as T;
}

/** Spec order of the fields of sources, destinations and rate details, whatever their variant. */
export const SOURCE_FIELDS = ['sourceType', 'accountId', 'umaAddress', 'currency', 'customerId'] as const;
export const DESTINATION_FIELDS = ['destinationType', 'accountId', 'umaAddress', 'paymentRail', 'currency'] as const;
export const RATE_DETAIL_FIELDS = ['counterpartyMultiplier', 'counterpartyFixedFee', 'serviceApiMultiplier', 'serviceApiFixedFee', 'serviceApiVariableFeeRate', 'serviceApiVariableFeeAmount'] as const;
