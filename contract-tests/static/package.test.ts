// The published package holds exactly the typed client (its compiled client/*.ts, not the examples), the generated types, the bundled spec (YAML
// and JSON), the compiled conformance kit and its documentation, the README, the changelog and the licence, and its exports and its command
// resolve to them.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { exports: Record<string, string | Record<string, string>>; bin: Record<string, string>; engines: { node: string } };

/** The kit's sources (contract-tests/kit/**\/*.ts), as the build compiles them into generated/conformance/. */
const kitDir = resolve(root, 'contract-tests', 'kit');
const kitSources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? kitSources(join(dir, e.name)) : e.name.endsWith('.ts') ? [relative(kitDir, join(dir, e.name))] : []));
const compiledKit = kitSources(kitDir).map((f) => `generated/conformance/${f.replace(/\.ts$/, '.js')}`);

describe('package', () => {
  it('packs exactly the client, the types, the bundled spec, the conformance kit, README, changelog and licence', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const files = (JSON.parse(out) as { files: { path: string }[] }[])[0]?.files.map((f) => f.path).sort();
    expect(files).toEqual([
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'contract-tests/kit/README.md',
      'generated/client/auth.d.ts',
      'generated/client/auth.js',
      'generated/client/client.d.ts',
      'generated/client/client.js',
      'generated/client/errors.d.ts',
      'generated/client/errors.js',
      'generated/client/idempotency-key-operations.d.ts',
      'generated/client/idempotency-key-operations.js',
      'generated/client/idempotency.d.ts',
      'generated/client/idempotency.js',
      'generated/client/index.d.ts',
      'generated/client/index.js',
      'generated/client/paginate.d.ts',
      'generated/client/paginate.js',
      'generated/client/retry.d.ts',
      'generated/client/retry.js',
      'generated/client/signed-retry.d.ts',
      'generated/client/signed-retry.js',
      'generated/client/webhooks.d.ts',
      'generated/client/webhooks.js',
      ...compiledKit.sort(),
      'generated/openapi.d.ts',
      'generated/openapi.json',
      'generated/openapi.yaml',
      'package.json',
    ]);
  });

  it('exports and the command point at files that exist', () => {
    const targets = Object.values(pkg.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e)));
    expect(targets.length).toBeGreaterThanOrEqual(5);
    for (const target of targets) expect(existsSync(resolve(root, target)), target).toBe(true);
    expect(pkg.bin).toEqual({ 'payments-conformance': 'generated/conformance/cli.js' });
    expect(readFileSync(resolve(root, pkg.bin['payments-conformance'] ?? ''), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
  });

  it('runs on Node 24', () => {
    expect(pkg.engines.node).toMatch(/^>=24/);
    expect(readFileSync(resolve(root, '.nvmrc'), 'utf8').trim()).toBe('24');
    expect(process.versions.node.split('.')[0]).toBe('24');
  });

  it('the compiled client works from the package entry point', async () => {
    const { createPaymentsClient, API_VERSION } = (await import(resolve(root, 'generated/client/index.js'))) as typeof import('../../client/index.ts');
    expect(API_VERSION).toBe('2025-10-13');
    const seen: string[] = [];
    const client = createPaymentsClient({
      baseUrl: 'http://127.0.0.1:9/2025-10-13',
      clientId: 'id',
      clientSecret: 'secret',
      fetch: async (request: Request) => {
        seen.push(`${request.method} ${request.url} ${request.headers.get('authorization')}`);
        return new Response('{"data":[],"hasMore":false,"totalCount":0}', { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    const { data } = await client.GET('/tokens');
    expect(data?.totalCount).toBe(0);
    expect(seen).toEqual([`GET http://127.0.0.1:9/2025-10-13/tokens Basic ${btoa('id:secret')}`]);
  });

  it('the entry point exports the client helpers, and the compiled client keys and retries', async () => {
    const entry = (await import(resolve(root, 'generated/client/index.js'))) as typeof import('../../client/index.ts');
    for (const name of ['createPaymentsClient', 'createAgentClient', 'unwrap', 'paginate', 'withSignedRetry', 'verifyWebhook', 'resilientFetch', 'idempotencyKeys'] as const) {
      expect(typeof entry[name], name).toBe('function');
    }
    expect(entry.PaymentsApiError.prototype).toBeInstanceOf(Error);
    expect(entry.WebhookSignatureError.prototype).toBeInstanceOf(Error);
    expect(entry.idempotencyKeyOperations).toContain('POST /customers');
    const keys: (string | null)[] = [];
    const answers = [new Response(null, { status: 503 }), new Response('{"id":"Customer:1"}', { status: 201, headers: { 'content-type': 'application/json' } })];
    const client = entry.createAgentClient({
      baseUrl: 'http://127.0.0.1:9/2025-10-13',
      accessToken: 'token',
      retry: { sleep: async () => {} },
      fetch: async (request: Request) => {
        keys.push(request.headers.get('idempotency-key'));
        return answers.shift() ?? new Response(null, { status: 500 });
      },
    });
    const customer = await entry.unwrap(client.POST('/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Jane Doe' } }));
    expect(customer.id).toBe('Customer:1');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
  });
});
