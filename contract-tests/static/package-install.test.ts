// The packed package as a consumer gets it: `npm pack` → install the tarball into a scratch ESM
// project → a TypeScript file that imports the client, the types and the spec through the package
// name compiles (tsc, NodeNext, strict) and runs under node.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'package-install-'));
const project = join(scratch, 'consumer');
const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
const run = (cmd: string, args: string[], cwd: string) => execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

const consumer = `import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { API_VERSION, createPaymentsClient } from '@payments-service/contract';
import type { PaymentsClient } from '@payments-service/contract';
import type { components, paths } from '@payments-service/contract/types';

type Token = components['schemas']['Token'];
type TokenList = paths['/tokens']['get']['responses'][200]['content']['application/json'];

const specPath = fileURLToPath(import.meta.resolve('@payments-service/contract/openapi.json'));
const spec = JSON.parse(readFileSync(specPath, 'utf8')) as { openapi: string; info: { version: string } };
const yamlExists = existsSync(fileURLToPath(import.meta.resolve('@payments-service/contract/openapi.yaml')));

const seen: string[] = [];
const client: PaymentsClient = createPaymentsClient({
  baseUrl: \`http://127.0.0.1:9/\${API_VERSION}\`,
  clientId: 'id',
  clientSecret: 'secret',
  fetch: async (request: Request) => {
    seen.push(\`\${request.method} \${new URL(request.url).pathname} \${request.headers.get('authorization')?.split(' ')[0]}\`);
    const page: TokenList = { data: [], hasMore: false, totalCount: 0 };
    return new Response(JSON.stringify(page), { status: 200, headers: { 'content-type': 'application/json' } });
  },
});
const { data } = await client.GET('/tokens', { params: { query: { limit: 5 } } });
const tokens: Token[] | undefined = data?.data;
const totalCount: number | undefined = data?.totalCount;
// @ts-expect-error the types are real: an unknown path does not compile
void (() => client.GET('/no-such-path'));

console.log(JSON.stringify({ API_VERSION, specVersion: spec.info.version, openapi: spec.openapi, yamlExists, tokens, totalCount, seen }));
`;

describe('the packed package, installed', () => {
  let tarball = '';
  beforeAll(() => {
    mkdirSync(project);
    const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', scratch], root)) as { filename: string }[];
    tarball = join(scratch, packed[0]!.filename);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2));
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', tarball], project);
  }, 60_000);
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('installs with its runtime dependencies', () => {
    expect(readdirSync(join(project, 'node_modules', '@payments-service', 'contract', 'generated')).sort()).toEqual(['client', 'openapi.d.ts', 'openapi.json', 'openapi.yaml']);
    expect(readdirSync(join(project, 'node_modules'))).toContain('openapi-fetch');
  });

  it('compiles a consumer with tsc (NodeNext, strict) and runs it', () => {
    writeFileSync(join(project, 'main.ts'), consumer);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2024',
          lib: ['ES2024', 'DOM'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: false, // the package's own .d.ts files are checked too
          outDir: 'dist',
          types: ['node'],
          typeRoots: [join(root, 'node_modules', '@types')],
        },
        files: ['main.ts'],
      }),
    );
    try {
      run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], project);
    } catch (error) {
      throw new Error(`tsc failed:\n${(error as { stdout?: string }).stdout ?? String(error)}`);
    }
    const result = JSON.parse(run(process.execPath, ['dist/main.js'], project)) as Record<string, unknown>;
    expect(result).toEqual({
      API_VERSION: '2025-10-13',
      specVersion: '2025-10-13',
      openapi: '3.1.0',
      yamlExists: true,
      tokens: [],
      totalCount: 0,
      seen: ['GET /2025-10-13/tokens Basic'],
    });
  });
});
