// The breaking-change gate: compares generated/openapi.json with the baseline of a released API
// version (releases/<version>/openapi.json, see releases/README.md) using `redocly diff`
// (@redocly/cli, rules `diff-recommended`: it reads OpenAPI 3.1 natively and knows request from
// response, so a response enum that gains a value is breaking and a request enum that gains one is not).
// A response enum's new value stays breaking here too: openapi-generator's Python and Java clients
// refuse values they do not know (spec/guides/versioning.md).
//
// - Same `info.version` as a released baseline: any change rated `major` fails (exit 1).
// - A new `info.version` (a new dated API version): breaking changes against the newest baseline
//   are listed and allowed; the new version's baseline is added at release (`npm run release:baseline`).
//
// A break within a released version is allowed only as a fix of a contradiction with the product
// specification, listed with its reason in releases/<version>/fixes.yaml (and described in
// CHANGELOG.md): the change is then reported as excused. An entry that matches no change fails the
// gate, so the list never outlives what it excuses.
//
// One refinement of the tool's verdict: an operation's security requirement that gains the roles its
// baseline already named in `x-permission` (basicAuth) or `x-agent-permission` (bearerAuth) only
// restates the access the server already enforced, so it is not breaking. So is a change of the
// top-level `security` while every operation states its own (the house rule), which overrides it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';

type Json = Record<string, unknown>;

const root = resolve(import.meta.dirname, '..');
export const RELEASES_DIR = join(root, 'releases');

/** One change `redocly diff` rated, with the rule and message it gave. */
export interface Change {
  /** Where the change is, as the tool names it: a pointer from the operation, e.g. `#/paths/~1tokens/get/responses/200/...`. */
  path: string;
  impact: 'major' | 'minor' | 'patch';
  kind: string;
  ruleIds: string[];
  messages: string[];
  /** Why the gate does not count a `major` change as breaking, when it does not. */
  excused?: string;
  base?: unknown;
  revision?: unknown;
}

interface DiffReport {
  changes: { path: string; kind: string; impact: Change['impact']; verdicts?: { ruleId: string; message: string }[]; base?: { value?: unknown }; revision?: { value?: unknown } }[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** The JSON pointer `#/a/b~1c` → ['a', 'b/c']. */
const segments = (pointer: string): string[] =>
  pointer.replace(/^#\/?/, '').split('/').filter((s) => s !== '').map((s) => decodeURIComponent(s).replaceAll('~1', '/').replaceAll('~0', '~'));

const at = (doc: unknown, path: string[]): unknown => path.reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Json)[key] : undefined), doc);

/** True when every operation (paths and webhooks) of the document has its own `security`. */
function everyOperationStatesSecurity(doc: Json): boolean {
  const items = [...Object.values((doc.paths ?? {}) as Record<string, Json>), ...Object.values((doc.webhooks ?? {}) as Record<string, Json>)];
  return items.every((item) => METHODS.every((m) => item[m] === undefined || Array.isArray((item[m] as Json).security)));
}

/** The permission an operation names for a security scheme (the house rule: x-permission for basicAuth, x-agent-permission for bearerAuth). */
const declaredPermission = (operation: Json, scheme: string): unknown =>
  scheme === 'basicAuth' ? operation['x-permission'] : scheme === 'bearerAuth' ? operation['x-agent-permission'] : undefined;

/**
 * Why a `security-requirement-changed` change is no break (see the header), or undefined. Judged
 * on the whole operation, not on the tool's pairing of requirements (which reports a requirement
 * whose roles changed sometimes as modified, sometimes as removed plus added): every requirement of
 * the baseline operation is still there, in the same place and with the same schemes, and the only
 * roles it gained are the permission the baseline operation declared for that scheme.
 */
function securityRestatement(changePath: string, base: Json, current: Json): string | undefined {
  const path = segments(changePath);
  if (path[0] === 'security') {
    return everyOperationStatesSecurity(current) ? 'top-level security, overridden by every operation' : undefined;
  }
  const securityIndex = path.indexOf('security');
  if (securityIndex < 0 || (path[0] !== 'paths' && path[0] !== 'webhooks')) return undefined;
  const baseOperation = at(base, path.slice(0, securityIndex)) as Json | undefined;
  const currentOperation = at(current, path.slice(0, securityIndex)) as Json | undefined;
  const before = baseOperation?.security;
  const after = currentOperation?.security;
  if (!Array.isArray(before) || !Array.isArray(after) || after.length < before.length) return undefined;
  const restated = new Set<string>();
  for (const [index, requirement] of (before as Record<string, string[]>[]).entries()) {
    const now = after[index] as Record<string, string[]> | undefined;
    if (!now || Object.keys(now).sort().join() !== Object.keys(requirement).sort().join()) return undefined;
    for (const [scheme, roles] of Object.entries(now)) {
      const added = roles.filter((role) => !(requirement[scheme] ?? []).includes(role));
      const declared = declaredPermission(baseOperation!, scheme);
      if (!added.every((role) => role === declared)) return undefined;
      for (const role of added) restated.add(`${scheme}: ${role}`);
    }
  }
  return restated.size > 0 ? `restates the permission the baseline declared (${[...restated].join(', ')})` : 'no new role';
}

/** A node with its `$ref` followed: a `$ref` object, or a discriminator mapping's value (a reference as a plain string). */
function deref(doc: Json, node: unknown): unknown {
  const refOf = (n: unknown): string | undefined =>
    typeof n === 'string' ? n : n !== null && typeof n === 'object' && typeof (n as Json).$ref === 'string' ? ((n as Json).$ref as string) : undefined;
  for (let hops = 0, ref = refOf(node); hops < 20 && ref?.startsWith('#/'); hops++, ref = refOf(node)) node = at(doc, segments(ref));
  return node;
}

/** The node at a diff path, following the `$ref`s the path passes through (redocly diff's paths walk into them). */
function resolvedAt(doc: Json, path: string[]): unknown {
  return deref(
    doc,
    path.reduce<unknown>((node, key) => {
      const here = deref(doc, node);
      return here !== null && typeof here === 'object' ? (here as Json)[key] : undefined;
    }, doc),
  );
}

/**
 * Why a `const` reported removed is no break: the same place now has a one-value `enum` of the same
 * value, the same constraint in other words (openapi-python-client cannot merge a `const` with the
 * type an `allOf` base gives the property, so the spec says `enum: [401]`; see clients/README.md).
 */
function constRestatedAsEnum(changePath: string, base: Json, current: Json): string | undefined {
  const path = segments(changePath);
  const before = resolvedAt(base, path) as Json | undefined;
  const after = resolvedAt(current, path) as Json | undefined;
  if (before?.const === undefined || after === undefined || after.const !== undefined) return undefined;
  const values = after.enum;
  return Array.isArray(values) && values.length === 1 && JSON.stringify(values[0]) === JSON.stringify(before.const)
    ? `\`const: ${JSON.stringify(before.const)}\` restated as a one-value enum`
    : undefined;
}

/**
 * Why a `format` set on a `number` is no break: `double` (or `float`) names how generators store a
 * JSON number (Go's float64 instead of float32), and in OpenAPI 3.1 a format is an annotation
 * that refuses no value a client sends; any other format, or one on another type, stays a change.
 */
function numberFormatAnnotated(change: Change, base: Json, current: Json): string | undefined {
  if (change.base !== undefined || !['double', 'float'].includes(String(change.revision))) return undefined;
  const path = segments(change.path);
  const before = resolvedAt(base, path) as Json | undefined;
  const after = resolvedAt(current, path) as Json | undefined;
  if (before?.type !== 'number' || after?.type !== 'number' || before.format !== undefined || after.format !== change.revision) return undefined;
  return `\`format: ${String(change.revision)}\` on a number, an annotation of how clients store it`;
}

/** A schema's constraints: without its annotations, and without an `items: {}` that allows anything. */
function constraints(schema: Json): Json {
  const { description: _d, title: _t, example: _e, examples: _es, ...rest } = schema;
  if (rest.items !== null && typeof rest.items === 'object' && Object.keys(rest.items as Json).length === 0) delete rest.items;
  return rest;
}

/**
 * Why a property, or its being required, that left one member of an `allOf` is no break: another
 * member of the same `allOf` still declares it with every constraint it had (or requires it), so
 * the composed schema is unchanged. (ListEnvelope's `data` moved into each list's own member.)
 */
function movedWithinAllOf(change: Change, base: Json, current: Json): string | undefined {
  const path = segments(change.path);
  const member = change.ruleIds.includes('property-removed') ? path.length - 3 : path.length - 1;
  if (path[member - 1] !== 'allOf' || !/^\d+$/.test(path[member] ?? '')) return undefined;
  const members = resolvedAt(current, path.slice(0, member)) as unknown[] | undefined;
  if (!Array.isArray(members)) return undefined;
  const siblings = members.filter((_, index) => String(index) !== path[member]).map((m) => deref(current, m) as Json | undefined);
  if (change.ruleIds.every((id) => id === 'property-removed') && path[path.length - 2] === 'properties') {
    const name = path[path.length - 1]!;
    const removed = resolvedAt(base, path) as Json | undefined;
    if (removed === undefined) return undefined;
    const kept = siblings.map((s) => (s?.properties as Json | undefined)?.[name] as Json | undefined).find((p) => p !== undefined);
    const keeps = kept !== undefined && Object.entries(constraints(removed)).every(([key, value]) => JSON.stringify(kept[key]) === JSON.stringify(value));
    return keeps ? `\`${name}\` is still declared, with its constraints, by another member of the same allOf` : undefined;
  }
  if (change.ruleIds.every((id) => id === 'required-properties-removed') && Array.isArray(change.base) && Array.isArray(change.revision)) {
    const names = (change.base as string[]).filter((name) => !(change.revision as string[]).includes(name));
    const stillRequired = names.every((name) => siblings.some((s) => Array.isArray(s?.required) && (s.required as string[]).includes(name)));
    return names.length > 0 && stillRequired ? `${names.map((n) => `\`${n}\``).join(', ')} still required by another member of the same allOf` : undefined;
  }
  return undefined;
}

/** The documented clients whose enums refuse a value they do not know (scripts/clients/clients.ts says why). */
export const CLOSED_ENUM_CLIENTS = "openapi-generator's Python and Java clients";

/** Whether a change's location is something clients receive: a response, or a webhook's request body. */
function receivedByClients(path: string): boolean {
  const where = segments(path);
  return where.includes('responses') || (where[0] === 'webhooks' && where.includes('requestBody'));
}

/** Every change `redocly diff` finds from `base` to `current` (both bundled OpenAPI documents). */
export function diffBundles(base: Json, current: Json): Change[] {
  const dir = mkdtempSync(join(tmpdir(), 'breaking-changes-'));
  try {
    writeFileSync(join(dir, 'baseline.json'), JSON.stringify(base, null, 2));
    writeFileSync(join(dir, 'current.json'), JSON.stringify(current, null, 2));
    const report = join(dir, 'report.json');
    try {
      execFileSync(
        process.execPath,
        [join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'), 'diff', 'baseline.json', 'current.json', '--config', join(root, 'scripts', 'breaking-changes.redocly.yaml'), '--format', 'json', '-o', report, '--fail-on', 'none'],
        { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
      );
    } catch (error) {
      const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
      throw new Error(`redocly diff failed: ${stderr || String(error)}`);
    }
    const { changes } = JSON.parse(readFileSync(report, 'utf8')) as DiffReport;
    return changes.map((c) => {
      const verdicts = c.verdicts ?? [];
      const change: Change = { path: c.path, impact: c.impact, kind: c.kind, ruleIds: verdicts.map((v) => v.ruleId), messages: verdicts.map((v) => v.message), base: c.base?.value, revision: c.revision?.value };
      if (c.impact === 'major' && change.ruleIds.length > 0 && change.ruleIds.every((id) => id === 'security-requirement-changed')) {
        const excused = securityRestatement(c.path, base, current);
        if (excused) change.excused = excused;
      }
      // diff-recommended rates a response enum gaining a value as major, and so does the gate: the
      // clients openapi-generator makes in Python and Java refuse a value they do not know, and no
      // option of theirs keeps it (spec/guides/versioning.md, clients/README.md). Say so.
      if (c.impact === 'major' && change.ruleIds.length > 0 && change.ruleIds.every((id) => id === 'enum-values-added') && receivedByClients(c.path)) {
        change.messages.push(`Breaking for ${CLOSED_ENUM_CLIENTS}, which refuse an enum value they do not know.`);
      }
      // A request reports the same change as enum values removed (the const's type, the base's enum, had more).
      if (c.impact === 'major' && change.ruleIds.length > 0 && change.ruleIds.every((id) => id === 'schema-constraint-changed' || id === 'enum-values-removed')) {
        const excused = constRestatedAsEnum(c.path, base, current);
        if (excused) change.excused = excused;
      }
      if (c.impact === 'major' && change.excused === undefined && change.ruleIds.length === 1 && change.ruleIds[0] === 'schema-constraint-changed') {
        const excused = numberFormatAnnotated(change, base, current);
        if (excused) change.excused = excused;
      }
      if (c.impact === 'major' && change.excused === undefined && change.ruleIds.length === 1 && ['property-removed', 'required-properties-removed'].includes(change.ruleIds[0]!)) {
        const excused = movedWithinAllOf(change, base, current);
        if (excused) change.excused = excused;
      }
      return change;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The changes from `base` to `current` that break a client written against `base`. */
export function findBreakingChanges(base: Json, current: Json): Change[] {
  return diffBundles(base, current).filter((c) => c.impact === 'major' && c.excused === undefined);
}

/** A change as one readable line (or two). */
export function describe(change: Change): string {
  const where = segments(change.path);
  const method = where[0] === 'paths' || where[0] === 'webhooks' ? where[2] : undefined;
  const head = where[0] === 'paths' && method ? `${method.toUpperCase()} ${where[1]}` : where[0] === 'webhooks' ? `webhook ${where[1]}${method ? ` ${method.toUpperCase()}` : ''}` : where[0] ?? '';
  const rest = where.slice(method ? 3 : where[0] === 'paths' || where[0] === 'webhooks' ? 2 : 1).join('/');
  const message = change.messages.length > 0 ? change.messages.join(' ') : `${change.kind}`;
  const rules = change.ruleIds.length > 0 ? ` (${change.ruleIds.join(', ')})` : '';
  return `${head}${rest ? ` ${rest}` : ''}: ${message}${rules}${change.excused ? ` [not breaking: ${change.excused}]` : ''}`;
}

/** Released API versions with a baseline, oldest first (dated versions sort as strings). */
export function releasedVersions(dir = RELEASES_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => /^\d{4}-\d{2}-\d{2}$/.test(name) && existsSync(join(dir, name, 'openapi.json')))
    .sort();
}

/** A breaking change the released version takes as a fix (releases/<version>/fixes.yaml). */
export interface AcceptedFix {
  /** A regular expression that the change, as `describe` writes it, matches. */
  match: string;
  /** Which contradiction with the product specification the change fixes. */
  reason: string;
}

/** The fixes accepted within a released version; none when it has no fixes.yaml. */
export function acceptedFixes(dir: string, version: string): AcceptedFix[] {
  const file = join(dir, version, 'fixes.yaml');
  if (!existsSync(file)) return [];
  const entries = (parseYaml(readFileSync(file, 'utf8')) ?? []) as unknown;
  if (!Array.isArray(entries)) throw new Error(`${file}: expected a list of {match, reason}`);
  return entries.map((entry, i) => {
    const { match, reason } = (entry ?? {}) as Partial<AcceptedFix>;
    if (typeof match !== 'string' || typeof reason !== 'string' || reason.trim() === '') throw new Error(`${file}: entry ${i + 1} needs a match and a reason`);
    return { match, reason };
  });
}

export interface GateResult {
  ok: boolean;
  version: string;
  baselineVersion: string;
  /** True when `version` has no baseline yet (a new API version, breaking changes allowed). */
  newVersion: boolean;
  breaking: Change[];
  excused: Change[];
  lines: string[];
}

/** The gate's verdict for `current` against the baselines in `dir`. */
export function checkBreakingChanges(current: Json, dir = RELEASES_DIR): GateResult {
  const version = String((current.info as Json | undefined)?.version ?? '');
  const released = releasedVersions(dir);
  const newest = released.at(-1);
  if (newest === undefined) throw new Error(`no released baseline in ${dir} (releases/<version>/openapi.json); see releases/README.md`);
  const newVersion = !released.includes(version);
  if (newVersion && version < newest) throw new Error(`info.version ${version} is older than the newest released version ${newest} and has no baseline`);
  const baselineVersion = newVersion ? newest : version;
  const base = JSON.parse(readFileSync(join(dir, baselineVersion, 'openapi.json'), 'utf8')) as Json;
  const changes = diffBundles(base, current);
  const fixes = newVersion ? [] : acceptedFixes(dir, version);
  const used = new Set<AcceptedFix>();
  for (const change of changes) {
    if (change.impact !== 'major' || change.excused !== undefined) continue;
    const fix = fixes.find((f) => new RegExp(f.match).test(describe(change)));
    if (fix === undefined) continue;
    change.excused = `a fix: ${fix.reason}`;
    used.add(fix);
  }
  const stale = fixes.filter((f) => !used.has(f));
  const breaking = changes.filter((c) => c.impact === 'major' && c.excused === undefined);
  const excused = changes.filter((c) => c.excused !== undefined);
  const count = (impact: Change['impact']) => changes.filter((c) => c.impact === impact).length;
  const lines = [`${version} vs releases/${baselineVersion}: ${breaking.length} breaking, ${count('minor')} additive, ${count('patch')} other changes (descriptions, examples, ...)`];
  if (excused.length > 0) lines.push(`  (${excused.length} changes rated major are not breaking: security roles that restate the baseline's x-permission / x-agent-permission, a const restated as a one-value enum, a format: double on a number, a property moved within an allOf, or fixes listed in releases/${baselineVersion}/fixes.yaml)`);
  for (const c of excused.filter((e) => e.excused?.startsWith('a fix: '))) lines.push(`  fixed: ${describe(c)}`);
  if (newVersion) {
    lines.push(`info.version ${version} is a new API version (newest released: ${newest}), so breaking changes are allowed:`);
    for (const c of breaking) lines.push(`  ${describe(c)}`);
    lines.push(`At release, add its baseline: \`npm run release:baseline\` (writes releases/${version}/openapi.json) and a CHANGELOG.md entry.`);
    return { ok: true, version, baselineVersion, newVersion, breaking, excused, lines };
  }
  if (breaking.length > 0) {
    lines.push(`Breaking changes against the released ${version} (make them compatible, release them as a new dated API version, or, for a fix of a contradiction with the product specification, list them in releases/${version}/fixes.yaml and CHANGELOG.md):`);
    for (const c of breaking) lines.push(`  ✖ ${describe(c)}`);
  }
  if (stale.length > 0) {
    lines.push(`Entries of releases/${version}/fixes.yaml that match no change (remove them):`);
    for (const f of stale) lines.push(`  ✖ ${f.match}`);
  }
  return { ok: breaking.length === 0 && stale.length === 0, version, baselineVersion, newVersion, breaking, excused, lines };
}

if (import.meta.main) {
  const current = JSON.parse(readFileSync(join(root, 'generated', 'openapi.json'), 'utf8')) as Json;
  const result = checkBreakingChanges(current);
  (result.ok ? console.log : console.error)(result.lines.join('\n'));
  process.exit(result.ok ? 0 : 1);
}
