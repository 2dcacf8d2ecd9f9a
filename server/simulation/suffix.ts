// How the sandbox picks the row of a rule table: by the last 3 characters of a value. Every
// table is a `SuffixTable`, so lookups and the spec comparison treat all of them alike.

/** A rule table: rows keyed by a 3-character suffix, and the row for any other suffix. */
export interface SuffixTable<Row> {
  readonly bySuffix: Readonly<Record<string, Row>>;
  readonly otherwise: Row;
}

/** The last 3 characters (all of a shorter value). Names and numbers of identity checks use this. */
export function lastThree(value: string): string {
  return value.slice(-3);
}

/**
 * The suffix of an external account's primary identifier. For identifiers with a domain part
 * (`$jane002@domain`) the digits are appended to the username, so the suffix is taken from the
 * part before the last `@`.
 */
export function identifierSuffix(identifier: string): string {
  const at = identifier.lastIndexOf('@');
  return lastThree(at === -1 ? identifier : identifier.slice(0, at));
}

/** The row a suffix selects. `Object.hasOwn` keeps inherited names out of the lookup. */
export function rowFor<Row>(table: SuffixTable<Row>, suffix: string): Row {
  return Object.hasOwn(table.bySuffix, suffix) ? (table.bySuffix[suffix] as Row) : table.otherwise;
}
