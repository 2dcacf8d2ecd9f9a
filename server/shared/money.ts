// Money is an integer number of minor units (cents, satoshis) end to end: int8 in the database,
// a JavaScript number in between. The contract caps amounts at 9e15, below 2^53, so every amount
// and every sum of two is exact.
export const MAX_AMOUNT = 9_000_000_000_000_000;

/** Whether `n` is a valid amount of minor units: a whole, non-negative number within the cap. */
export const isMinorUnits = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 && n <= MAX_AMOUNT;
