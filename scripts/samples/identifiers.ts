// The spec's example ids in a sample, and the real ids the sandbox gave for them: each identifier of
// a documented answer stands for the one at the same place in the real answer. A list's items are
// paired by what they hold (a USD account with the USD account), not by position: a list's order
// is not the example's.

/** Identifiers: a typed id, or the value of a field named as one (`code` but a currency's, `accessToken`, `...Id`). */
export const isIdentifier = (key: string, value: string) =>
  /^[A-Z][A-Za-z]+:[0-9a-f-]{36}$/.test(value) || key === 'id' || (key === 'code' && !/^[A-Z]{3}$/.test(value)) || key === 'accessToken' || /Id$/.test(key);

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The scalar fields of a value as `path=value`, and its identifiers by path. */
function facts(value: unknown, key = '', path = '', out = { plain: new Set<string>(), ids: new Map<string, string>() }) {
  if (Array.isArray(value)) value.forEach((item, i) => facts(item, key, `${path}/${i}`, out));
  else if (isObject(value)) for (const [k, v] of Object.entries(value)) facts(v, k, `${path}/${k}`, out);
  else if (typeof value === 'string' && isIdentifier(key, value)) out.ids.set(path, value);
  else out.plain.add(`${path}=${JSON.stringify(value)}`);
  return out;
}

/**
 * Pairs each example item with the real item sharing most facts with it (none when they share
 * none); an item naming an id already known (its customer) pairs only with one naming the same.
 */
function pairItems(example: unknown[], real: unknown[], known: Map<string, string>): [number, number][] {
  const scores: [number, number, number][] = [];
  const realFacts = real.map((r) => facts(r));
  example.forEach((e, i) => {
    const mine = facts(e);
    realFacts.forEach((theirs, j) => {
      let shared = 0;
      for (const fact of mine.plain) if (theirs.plain.has(fact)) shared += 1;
      for (const [path, id] of mine.ids) {
        const wanted = known.get(id);
        if (wanted === undefined) continue;
        if (theirs.ids.get(path) !== wanted) return;
        shared += 10;
      }
      if (shared > 0) scores.push([shared, i, j]);
    });
  });
  scores.sort((a, b) => b[0] - a[0]);
  const usedExample = new Set<number>();
  const usedReal = new Set<number>();
  const pairs: [number, number][] = [];
  for (const [, i, j] of scores) {
    if (usedExample.has(i) || usedReal.has(j)) continue;
    usedExample.add(i);
    usedReal.add(j);
    pairs.push([i, j]);
  }
  return pairs;
}

/**
 * Maps (into `found`) each identifier of a documented answer to the one at the same place in the
 * real answer; `known` is what earlier answers mapped.
 */
export function mapIdentifiers(example: unknown, real: unknown, found: Map<string, string>, known: Map<string, string>, key = ''): void {
  if (typeof example === 'string' && typeof real === 'string') {
    if (example !== real && isIdentifier(key, example)) found.set(example, real);
  } else if (Array.isArray(example) && Array.isArray(real)) {
    if (example.some(isObject)) for (const [i, j] of pairItems(example, real, known)) mapIdentifiers(example[i], real[j], found, known, key);
    else example.forEach((item, i) => mapIdentifiers(item, real[i], found, known, key));
  } else if (isObject(example) && isObject(real)) {
    for (const [k, v] of Object.entries(example)) mapIdentifiers(v, real[k], found, known, k);
  }
}

/** An identifier as a whole word: an invitation code is also the start of every example uuid. */
const token = (text: string) => new RegExp(`(?<![\\w-])${text.replace(/[.*+?^${}()|[\]\\$]/g, '\\$&')}(?![\\w-])`, 'g');

/** The example identifiers a sample names, each with the real one it stands for. */
export function idsIn(source: string, map: Map<string, string>, latest: Map<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [example, real] of map) if (token(example).test(source) || token(encodeURIComponent(example)).test(source)) out[example] = real;
  for (const [written, kind] of source.matchAll(/\b([A-Z][A-Za-z]+):[0-9a-f-]{36}\b/g)) {
    const real = map.get(written) ?? (kind === undefined ? undefined : latest.get(kind));
    if (real !== undefined) out[written] = real;
  }
  return out;
}

/** The typed example ids a sample names (`Kind:<uuid>`, also where a path has it encoded). */
export const typedIdsIn = (source: string): string[] => [...new Set([...source.matchAll(/\b([A-Z][A-Za-z]+)(?::|%3A)([0-9a-f-]{36})\b/g)].map(([, kind, uuid]) => `${kind}:${uuid}`))];

/** The sample with each example identifier replaced by its real one (also where a path has it encoded). */
export function substitute(source: string, map: Map<string, string>, latest: Map<string, string>): string {
  // One pass over the typed ids: a real id put in place is not read again as an example's.
  let out = source.replace(/\b([A-Z][A-Za-z]+)(:|%3A)([0-9a-f-]{36})\b/g, (written, kind: string, colon: string, uuid: string) => {
    // An id no documented answer names: the latest of its kind.
    const real = map.get(`${kind}:${uuid}`) ?? latest.get(kind);
    return real === undefined ? written : colon === ':' ? real : encodeURIComponent(real);
  });
  for (const [example, real] of map) {
    if (TYPED.test(example)) continue;
    out = out.replace(token(example), () => real).replace(token(encodeURIComponent(example)), () => encodeURIComponent(real));
  }
  return out;
}

const TYPED = /^[A-Z][A-Za-z]+:[0-9a-f-]{36}$/;
