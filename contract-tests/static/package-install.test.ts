// The packed package as a consumer gets it: `npm pack` → install the tarball into a scratch ESM
// project → a TypeScript file that imports the client, the types and the spec through the package
// name compiles (tsc, NodeNext, strict) and runs under node; the conformance kit's command is
// installed and runs.
import { readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPacked, runIn, type PackedProject } from '../support/packed-package.ts';

const root = resolve(import.meta.dirname, '..', '..');
const run = (cmd: string, args: string[], cwd: string) => runIn(cwd, cmd, args);

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
  let packed: PackedProject;
  let project = '';
  beforeAll(() => {
    packed = installPacked('package-install');
    project = packed.dir;
  }, 60_000);
  afterAll(() => packed?.remove());

  it('installs with its runtime dependencies', () => {
    expect(readdirSync(join(project, 'node_modules', '@payments-service', 'contract', 'generated')).sort()).toEqual(['client', 'conformance', 'openapi.d.ts', 'openapi.json', 'openapi.yaml']);
    expect(readdirSync(join(project, 'node_modules'))).toEqual(expect.arrayContaining(['openapi-fetch', 'ajv', 'ajv-formats', 'standardwebhooks']));
  });

  it('installs the conformance kit as the payments-conformance command, which runs without dev dependencies', () => {
    const bin = join(project, 'node_modules', '.bin', 'payments-conformance');
    expect(run(bin, ['--version'], project).trim()).toBe('0.1.0');
    const listed = run(bin, ['--list', '--only', 'pagination'], project).trim().split('\n');
    expect(listed.at(-1)).toBe('42 checks');
    expect(listed[0]).toMatch(/^pagination\.listTokens\.walk {2}listTokens 200/);
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
