/** Drops keys whose value is undefined: response validation would reject them, JSON would drop them anyway. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
