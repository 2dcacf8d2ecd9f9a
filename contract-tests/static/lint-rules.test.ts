// Every house rule proves itself: the valid fixture passes all of them, and a copy of it with one
// deliberate violation fails exactly that rule. The real spec passes the whole configuration.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';

const root = resolve(import.meta.dirname, '..', '..');
const valid = readFileSync(join(import.meta.dirname, 'fixtures', 'lint', 'valid.yaml'), 'utf8');
const work = mkdtempSync(join(tmpdir(), 'house-rules-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// biome-ignore lint: fixtures are free-form documents
type Doc = any;

interface Problem {
  ruleId: string;
}

function lint(doc: Doc, name: string): string[] {
  const file = join(work, `${name}.yaml`);
  writeFileSync(file, stringify(doc));
  return lintFile(file);
}

function lintFile(file: string): string[] {
  let out: string;
  try {
    out = execFileSync(join(root, 'node_modules', '.bin', 'redocly'), ['lint', file, '--format', 'json'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
    });
  } catch (error) {
    out = (error as { stdout: string }).stdout;
  }
  return (JSON.parse(out) as { problems: Problem[] }).problems.map((p) => p.ruleId);
}

const listOp = (d: Doc) => d.paths['/widgets'].get;
const createOp = (d: Doc) => d.paths['/widgets'].post;

const violations: Record<string, (d: Doc) => void> = {
  'house/operation-id-verb-noun': (d) => { listOp(d).operationId = 'widgetsList'; },
  'house/operation-declares-access': (d) => { delete listOp(d)['x-permission']; },
  'house/no-inline-schemas': (d) => { createOp(d).requestBody.content['application/json'].schema = { type: 'object', properties: { name: { type: 'string' } } }; },
  'house/property-names-camel-case': (d) => { d.components.schemas.Widget.properties.widget_name = { type: 'string' }; },
  'house/parameter-names-camel-case': (d) => { listOp(d).parameters.push({ name: 'sort_order', in: 'query', description: 'Order.', schema: { type: 'string' } }); },
  'house/enum-values-upper-snake-case': (d) => { d.components.schemas.Widget.properties.status.enum.push('inProgress'); },
  'house/number-format': (d) => { d.components.schemas.Widget.properties.weight = { type: 'number', description: 'Weight.' }; },
  'house/list-response-envelope': (d) => { d.components.schemas.WidgetListResponse = { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Widget' } } } }; },
  'house/money-movement-idempotency-key': (d) => { createOp(d).parameters = []; },
  'house/error-responses-use-error-schema': (d) => { createOp(d).responses['401'].content['application/json'].schema = { $ref: '#/components/schemas/Widget' }; createOp(d).responses['401'].content['application/json'].examples.unauthorized.value = { name: 'x' }; },
  'house/input-validation-response': (d) => { delete listOp(d).responses['400']; },
  'house/transport-error-responses': (d) => { delete createOp(d).responses['415']; },
  'house/media-types-have-named-examples': (d) => { delete createOp(d).requestBody.content['application/json'].examples; },
  'house/state-machine-valid': (d) => { d.components.schemas.Widget.properties.status['x-state-machine'].transitions[0].to = 'GONE'; },
};

describe('house rules', () => {
  it('pass on the valid fixture', () => {
    expect(lint(parse(valid), 'valid')).toEqual([]);
  });

  it.each(Object.entries(violations))('%s fails a spec that breaks it', (rule, mutate) => {
    const doc = parse(valid);
    mutate(doc);
    expect(lint(doc, rule.replace('/', '-'))).toContain(rule);
  });

  it('house/money-movement-idempotency-key also fails a POST that creates something (201) without the key', () => {
    const doc = parse(valid);
    createOp(doc)['x-permission'] = 'MANAGE';
    createOp(doc).parameters = [];
    expect(lint(doc, 'creates-without-key')).toContain('house/money-movement-idempotency-key');
  });

  it('house/list-response-envelope also fails a list whose data the envelope declares, or its own member leaves optional', () => {
    const doc = parse(valid);
    doc.components.schemas.ListEnvelope.properties.data = { type: 'array', items: {} };
    expect(lint(doc, 'envelope-data')).toContain('house/list-response-envelope');
    const optional = parse(valid);
    delete optional.components.schemas.WidgetListResponse.allOf[1].required;
    expect(lint(optional, 'optional-data')).toContain('house/list-response-envelope');
  });

  it('house/operation-declares-access also fails a security requirement whose role is not the x-permission', () => {
    const doc = parse(valid);
    listOp(doc).security = [{ basicAuth: ['MANAGE'] }];
    expect(lint(doc, 'role-differs')).toContain('house/operation-declares-access');
    listOp(doc).security = [{ basicAuth: [] }];
    expect(lint(doc, 'role-missing')).toContain('house/operation-declares-access');
  });

  it('house/operation-declares-access also fails an x-grants that names nothing it knows', () => {
    const doc = parse(valid);
    createOp(doc)['x-grants'] = 'EVERYTHING';
    expect(lint(doc, 'grants-unknown')).toContain('house/operation-declares-access');
    createOp(doc)['x-grants'] = 'AGENT_POLICY';
    expect(lint(doc, 'grants-known').filter((rule) => rule.startsWith('house/'))).toEqual([]);
  });

  it('the documented exceptions pass: an enum another standard fixes, an unpaginated bounded {data} list', () => {
    const doc = parse(valid);
    doc.components.schemas.Widget.properties.transports = { type: 'array', description: 'Transports.', items: { type: 'string', enum: ['usb', 'nfc'], 'x-enum-standard': 'W3C WebAuthn' } };
    listOp(doc).parameters = listOp(doc).parameters.filter((p: { name?: string }) => p.name !== 'limit' && p.name !== 'cursor');
    doc.components.schemas.WidgetListResponse = { type: 'object', required: ['data'], properties: { data: { type: 'array', maxItems: 3, items: { $ref: '#/components/schemas/Widget' } } } };
    // Only the house rules are at stake (the fixture's examples and parameters no longer fit it otherwise).
    expect(lint(doc, 'exceptions').filter((rule) => rule.startsWith('house/'))).toEqual([]);
  });

  it('pass on the real spec with zero errors and zero warnings', () => {
    expect(lintFile(join(root, 'spec', 'openapi.yaml'))).toEqual([]);
  });
});
