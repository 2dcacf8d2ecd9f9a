// Node 24's `url.parse()` warns once (DEP0169) when called from the application, but a call from
// inside node_modules first walks the stack to find out, and does so on every call until the
// application itself has called it once (nodejs/node#60991). express-openapi-validator calls it on
// every request: that stack walk was 6 % of a GET's CPU. One silenced call of our own settles it;
// nothing of ours uses `url.parse()`, so the warning it would have printed says nothing about us.
import { parse } from 'node:url';

export function settleUrlParseWarning(): void {
  const before = process.noDeprecation;
  process.noDeprecation = true;
  try {
    parse('/');
  } finally {
    process.noDeprecation = before;
  }
}
