// The published package holds exactly the typed client, the generated types, the bundled spec (YAML
// and JSON), the README and the licence, and its exports resolve to them.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { exports: Record<string, string | Record<string, string>>; engines: { node: string } };

describe('package', () => {
  it('packs exactly the client, the types, the bundled spec, README and licence', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const files = (JSON.parse(out) as { files: { path: string }[] }[])[0]?.files.map((f) => f.path).sort();
    expect(files).toEqual([
      'LICENSE',
      'README.md',
      'generated/client/index.d.ts',
      'generated/client/index.js',
      'generated/openapi.d.ts',
      'generated/openapi.json',
      'generated/openapi.yaml',
      'package.json',
    ]);
  });

  it('exports point at files that exist', () => {
    const targets = Object.values(pkg.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e)));
    expect(targets.length).toBeGreaterThanOrEqual(5);
    for (const target of targets) expect(existsSync(resolve(root, target)), target).toBe(true);
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
});
