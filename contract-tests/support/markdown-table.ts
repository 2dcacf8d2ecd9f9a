// Reads the markdown tables of the spec's descriptions, so tests can compare a documented table
// with the code that implements it.

export interface MarkdownTable {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** The cells of one `| a | b |` line; `\|` stays a literal `|` inside a cell. */
function cells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replaceAll('\\|', '|'));
}

const isTableLine = (line: string) => line.trim().startsWith('|');
const isDelimiter = (line: string) => /^\|?(\s*:?-+:?\s*\|)*\s*:?-+:?\s*\|?$/.test(line.trim());

/** Every table in `markdown`: a header line, a `|---|` delimiter line, then its rows. */
export function parseMarkdownTables(markdown: string): MarkdownTable[] {
  const lines = markdown.split('\n');
  const tables: MarkdownTable[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    const head = lines[i] as string;
    if (!isTableLine(head) || !isDelimiter(lines[i + 1] as string)) continue;
    const rows: string[][] = [];
    let j = i + 2;
    for (; j < lines.length && isTableLine(lines[j] as string); j++) rows.push(cells(lines[j] as string));
    tables.push({ header: cells(head), rows });
    i = j - 1;
  }
  return tables;
}

/** The one table of `markdown` whose first header cell is `firstHeader`. */
export function findTable(markdown: string, firstHeader: string): MarkdownTable {
  const found = parseMarkdownTables(markdown).filter((t) => t.header[0] === firstHeader);
  if (found.length !== 1) throw new Error(`expected one table headed "${firstHeader}", found ${found.length}`);
  return found[0] as MarkdownTable;
}

/** The contents of the backticked spans of a cell, in order. */
export function backticked(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
}

const OPERATION = /^(GET|PUT|POST|PATCH|DELETE) \//;

/**
 * The UPPER_SNAKE_CASE words inside backticked spans: statuses, failure reasons, error codes
 * (`FAILED`; `400 INVALID_BANK_ACCOUNT` gives `INVALID_BANK_ACCOUNT`). Spans naming an operation
 * (`POST /transfer-in`) hold no values.
 */
export function upperSnakeValues(cell: string): string[] {
  return backticked(cell)
    .filter((span) => !OPERATION.test(span))
    .flatMap((span) => span.match(/(?<![\w.$-])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*(?![\w.-])/g) ?? []);
}
