// Writes the baseline of the current API version for the breaking-change gate:
// generated/openapi.json → releases/<info.version>/openapi.json (see releases/README.md).
// Refuses to replace an existing baseline unless `--force` (only before that version is released).
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { force: { type: 'boolean', default: false } } });
const bundle = join(root, 'generated', 'openapi.json');
const version = (JSON.parse(readFileSync(bundle, 'utf8')) as { info: { version: string } }).info.version;
if (!/^\d{4}-\d{2}-\d{2}$/.test(version)) throw new Error(`info.version ${version} is not a dated API version (YYYY-MM-DD)`);
const target = join(root, 'releases', version, 'openapi.json');
if (existsSync(target) && !values.force) {
  console.error(`releases/${version}/openapi.json exists already: a released baseline is not replaced (--force, only if ${version} is not released yet)`);
  process.exit(1);
}
mkdirSync(join(root, 'releases', version), { recursive: true });
copyFileSync(bundle, target);
console.log(`wrote releases/${version}/openapi.json`);
