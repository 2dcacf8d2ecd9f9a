// Ids an answer returned, by kind, for commands and samples written with the spec's example ids
// (the curl walkthroughs, scripts/check-samples.ts).

/** Every `Kind:uuid` id in an answer, by kind; a later one of a kind replaces an earlier one. */
export function collectIds(value: unknown, ids: Map<string, string>): void {
  if (typeof value === 'string') {
    const match = /^([A-Za-z]+):[0-9a-f-]{36}$/.exec(value);
    if (match?.[1] !== undefined) ids.set(match[1], value);
  } else if (Array.isArray(value)) {
    for (const item of value) collectIds(item, ids);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) collectIds(item, ids);
  }
}
