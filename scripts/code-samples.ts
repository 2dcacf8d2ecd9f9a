// The code samples of every operation (`x-codeSamples`, shown by Redoc and Scalar), made by
// `npm run build` from the operation's own example request (path, required query, headers, body):
// one template per language, nothing written per operation. curl; TypeScript with this package's
// client; Python with openapi-python-client's and Go with oapi-codegen's client, generated as
// clients/README.md documents. `npm run check:samples` (scripts/check-samples.ts) runs them.
// Samples read the base URL and credentials from the environment: PAYMENTS_BASE_URL,
// PAYMENTS_CLIENT_ID and PAYMENTS_CLIENT_SECRET, or AGENT_ACCESS_TOKEN for `/agents/me/...`.

type Json = Record<string, unknown>;
/** `x-in-code-samples`: an optional query parameter the samples send (where the operation needs one of several). */
interface Parameter { name: string; in: string; required?: boolean; example?: unknown; schema?: Json; 'x-in-code-samples'?: boolean }
interface Operation { operationId: string; tags?: string[]; security?: Json[]; parameters?: (Parameter | { $ref: string })[]; requestBody?: { content: Record<string, { schema?: Json; examples?: Record<string, { value?: unknown; $ref?: string }>; example?: unknown }> } }
export interface Bundle { paths: Record<string, Record<string, unknown>>; components: { parameters: Record<string, Parameter>; schemas: Record<string, Json>; examples?: Record<string, { value?: unknown }> }; security?: Json[] }
export interface CodeSample { lang: string; label: string; source: string }

/** What a sample sends: the operation's example request. */
export interface SampleRequest {
  operationId: string;
  method: string;
  /** The path template, and the path with the examples in place. */
  template: string;
  path: string;
  pathValues: [string, string][];
  query: [string, unknown][];
  /** Optional headers the sample sends: an Idempotency-Key where the operation takes one. */
  headers: [string, string][];
  body?: { type: 'json' | 'multipart'; value: Json; schema?: string };
  auth: 'basic' | 'bearer' | 'none';
  tag: string;
  /** The operation has query or header parameters (oapi-codegen then takes a Params struct). */
  hasParams: boolean;
}

const schemaName = (schema: Json | undefined): string | undefined => (typeof schema?.$ref === 'string' ? schema.$ref.split('/').pop() : undefined);

export function sampleRequests(bundle: Bundle): SampleRequest[] {
  const parameterOf = (p: Parameter | { $ref: string }): Parameter => ('$ref' in p ? bundle.components.parameters[p.$ref.split('/').pop() ?? ''] : p) as Parameter;
  const requests: SampleRequest[] = [];
  for (const [template, item] of Object.entries(bundle.paths)) {
    const shared = (item.parameters as Parameter[] | undefined) ?? [];
    for (const [method, raw] of Object.entries(item)) {
      if (method === 'parameters') continue;
      const op = raw as Operation;
      const own = (op.parameters ?? []).map(parameterOf);
      // An operation's parameter replaces the path's of the same name (as OpenAPI has it).
      const params = [...shared.map(parameterOf).filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)), ...own];
      const pathValues: [string, string][] = [];
      let path = template;
      for (const p of params.filter((x) => x.in === 'path')) {
        const value = String(p.example ?? (p.schema?.examples as unknown[] | undefined)?.[0]);
        pathValues.push([p.name, value]);
        path = path.replace(`{${p.name}}`, encodeURIComponent(value));
      }
      const query = params.filter((p) => p.in === 'query' && (p.required === true || p['x-in-code-samples'] === true)).map((p): [string, unknown] => [p.name, p.example]);
      const headers = params.filter((p) => p.in === 'header' && p.name === 'Idempotency-Key').map((p): [string, string] => [p.name, `${op.operationId}-${String(p.example)}`.slice(0, 255)]);
      const [type, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      let body: SampleRequest['body'];
      if (media !== undefined) {
        const first = Object.values(media.examples ?? {})[0];
        const example = first === undefined ? media.example : first.$ref !== undefined ? bundle.components.examples?.[first.$ref.split('/').pop() ?? '']?.value : first.value;
        body = { type: type === 'multipart/form-data' ? 'multipart' : 'json', value: (example ?? {}) as Json, schema: variantOf(bundle, schemaName(media.schema), (example ?? {}) as Json) };
      }
      const security = op.security ?? bundle.security ?? [];
      const scheme = Object.keys(security[0] ?? {})[0];
      const auth = scheme === 'bearerAuth' ? 'bearer' : scheme === 'basicAuth' ? 'basic' : 'none';
      const hasParams = params.some((p) => p.in === 'query' || p.in === 'header');
      requests.push({ operationId: op.operationId, method: method.toUpperCase(), template, path, pathValues, query, headers, body, auth, tag: op.tags?.[0] ?? 'default', hasParams });
    }
  }
  return requests;
}

/** The schema an example is an instance of: a oneOf's variant named by its discriminator. */
function variantOf(bundle: Bundle, name: string | undefined, example: Json): string | undefined {
  const schema = name === undefined ? undefined : bundle.components.schemas[name];
  const discriminator = schema?.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
  const variants = schema?.oneOf as { $ref?: string }[] | undefined;
  if (variants === undefined) return name;
  const mapped = discriminator === undefined ? undefined : discriminator.mapping?.[String(example[discriminator.propertyName])];
  if (mapped !== undefined) return variantOf(bundle, mapped.split('/').pop(), example);
  // Without a discriminator: the variant whose required fields the example has and whose fields it keeps to.
  const fits = variants.map((v) => v.$ref?.split('/').pop()).find((variant) => {
    const s = variant === undefined ? undefined : bundle.components.schemas[variant];
    const properties = Object.keys((s?.properties ?? {}) as Json);
    return s !== undefined && ((s.required ?? []) as string[]).every((k) => k in example) && Object.keys(example).every((k) => properties.includes(k));
  });
  return fits === undefined ? name : variantOf(bundle, fits, example);
}

const queryString = (query: [string, unknown][]) => (query.length === 0 ? '' : `?${new URLSearchParams(query.map(([k, v]): [string, string] => [k, String(v)])).toString()}`);
const indentJson = (value: unknown, indent: string) => JSON.stringify(value, null, 2).replaceAll('\n', `\n${indent}`);
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

export function curlSample(r: SampleRequest): string {
  const lines = [`curl -X ${r.method} "$PAYMENTS_BASE_URL${r.path}${queryString(r.query)}"`];
  if (r.auth === 'basic') lines.push('-u "$PAYMENTS_CLIENT_ID:$PAYMENTS_CLIENT_SECRET"');
  if (r.auth === 'bearer') lines.push('-H "Authorization: Bearer $AGENT_ACCESS_TOKEN"');
  for (const [name, value] of r.headers) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  if (r.body?.type === 'json') lines.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(r.body.value, null, 2))}`);
  if (r.body?.type === 'multipart') {
    for (const [name, value] of Object.entries(r.body.value)) lines.push(name === 'file' ? `-F 'file=@passport.pdf;type=application/pdf'` : `-F ${shellQuote(`${name}=${String(value)}`)}`);
  }
  return lines.join(' \\\n  ');
}

export function typescriptSample(r: SampleRequest): string {
  const params: string[] = [];
  if (r.pathValues.length > 0) params.push(`path: ${JSON.stringify(Object.fromEntries(r.pathValues))}`);
  if (r.query.length > 0) params.push(`query: ${JSON.stringify(Object.fromEntries(r.query))}`);
  const init: string[] = [];
  if (params.length > 0) init.push(`params: { ${params.join(', ')} }`);
  let before = '';
  if (r.body?.type === 'json') init.push(`body: ${indentJson(r.body.value, '  ')}`);
  if (r.body?.type === 'multipart') {
    // openapi-fetch sends a FormData as it is; its type is the body's schema.
    const fields = Object.entries(r.body.value).map(([name, value]) =>
      name === 'file' ? `form.append('file', new Blob([readFileSync('passport.pdf')], { type: 'application/pdf' }), 'passport.pdf');` : `form.append(${JSON.stringify(name)}, ${JSON.stringify(String(value))});`,
    );
    before = `const form = new FormData();\n${fields.join('\n')}\n`;
    init.push('body: form as never');
  }
  const credentials = r.auth === 'bearer' ? 'accessToken: process.env.AGENT_ACCESS_TOKEN!' : 'clientId: process.env.PAYMENTS_CLIENT_ID!,\n  clientSecret: process.env.PAYMENTS_CLIENT_SECRET!';
  return [
    ...(r.body?.type === 'multipart' ? [`import { readFileSync } from 'node:fs';`] : []),
    `import { createPaymentsClient } from '@payments-service/contract';`,
    '',
    `const client = createPaymentsClient({\n  baseUrl: process.env.PAYMENTS_BASE_URL!,\n  ${credentials},\n});`,
    `${before}const { data, error, response } = await client.${r.method}(${JSON.stringify(r.template)}${init.length > 0 ? `, {\n  ${init.join(',\n  ')},\n}` : ''});`,
    'console.log(response.status, data ?? error);',
  ].join('\n');
}

const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').toLowerCase().replace(/^_|_$/g, '');
const python = (value: unknown): string => JSON.stringify(value, null, 4).replace(/\btrue\b/g, 'True').replace(/\bfalse\b/g, 'False').replace(/\bnull\b/g, 'None');

export function pythonSample(r: SampleRequest): string {
  const module = snake(r.operationId);
  const imports = [`import os`];
  const args: string[] = r.pathValues.map(([, value]) => JSON.stringify(value));
  args.push('client=client');
  let before = '';
  if (r.body !== undefined) {
    if (r.body.type === 'json') args.push(`body=${r.body.schema}.from_dict(${python(r.body.value).replaceAll('\n', '\n    ')})`);
    else {
      const fields = Object.entries(r.body.value).map(([name, value]) => (name === 'file' ? `"file": b""` : `${JSON.stringify(name)}: ${JSON.stringify(String(value))}`));
      // from_dict takes the file's bytes; the File then gives the part its name and media type.
      before = `body = ${r.body.schema}.from_dict({\n    ${fields.join(',\n    ')},\n})\nbody.file = File(payload=open("passport.pdf", "rb"), file_name="passport.pdf", mime_type="application/pdf")\n`;
      args.push('body=body');
    }
  }
  for (const [name, value] of r.query) args.push(`${snake(name)}=${JSON.stringify(value)}`);
  for (const [name, value] of r.headers) args.push(`${snake(name)}=${JSON.stringify(value)}`);
  const fromRoot = r.auth === 'none' ? 'Client' : 'AuthenticatedClient';
  imports.push(...(r.auth === 'basic' ? ['import base64'] : []), `from payments_service_api_client import ${fromRoot}`, `from payments_service_api_client.api.${snake(r.tag)} import ${module}`);
  if (r.body !== undefined) imports.push(`from payments_service_api_client.models import ${r.body.schema}`);
  if (r.body?.type === 'multipart') imports.push('from payments_service_api_client.types import File');
  const client =
    r.auth === 'basic'
      ? 'credentials = f"{os.environ[\'PAYMENTS_CLIENT_ID\']}:{os.environ[\'PAYMENTS_CLIENT_SECRET\']}"\nclient = AuthenticatedClient(\n    base_url=os.environ["PAYMENTS_BASE_URL"],\n    token=base64.b64encode(credentials.encode()).decode(),\n    prefix="Basic",\n)'
      : r.auth === 'bearer'
        ? 'client = AuthenticatedClient(base_url=os.environ["PAYMENTS_BASE_URL"], token=os.environ["AGENT_ACCESS_TOKEN"])'
        : 'client = Client(base_url=os.environ["PAYMENTS_BASE_URL"])';
  return [...imports, '', client, `${before}response = ${module}.sync_detailed(\n    ${args.join(',\n    ')},\n)`, 'print(response.status_code, response.parsed)'].join('\n');
}

const goName = (operationId: string) => operationId.charAt(0).toUpperCase() + operationId.slice(1);

export function goSample(r: SampleRequest): string {
  const name = goName(r.operationId);
  const args = ['context.Background()', ...r.pathValues.map(([, value]) => JSON.stringify(value))];
  const lines: string[] = [];

  if (r.hasParams) lines.push(`var params payments.${name}Params`);
  if (r.query.length > 0 || r.headers.length > 0) lines.push(`must(json.Unmarshal([]byte(\`${JSON.stringify(Object.fromEntries([...r.query, ...r.headers]))}\`), &params))`);

  const paramsArg = r.hasParams ? '&params' : undefined;
  if (paramsArg !== undefined) args.push(paramsArg);
  let call = `${name}WithResponse`;
  if (r.body?.type === 'json') {
    lines.push(`var body payments.${name}JSONRequestBody`, `must(json.Unmarshal([]byte(\`${JSON.stringify(r.body.value, null, 2).replaceAll('\n', '\n')}\`), &body))`);
    args.push('body');
  }
  if (r.body?.type === 'multipart') {
    lines.push('var form bytes.Buffer', 'writer := multipart.NewWriter(&form)');
    for (const [field, value] of Object.entries(r.body.value)) {
      if (field === 'file') lines.push('file, err := os.ReadFile("passport.pdf")', 'must(err)', 'part, err := writer.CreateFormFile("file", "passport.pdf")', 'must(err)', '_, err = part.Write(file)', 'must(err)');
      else lines.push(`must(writer.WriteField(${JSON.stringify(field)}, ${JSON.stringify(String(value))}))`);
    }
    lines.push('must(writer.Close())');
    call = `${name}WithBodyWithResponse`;
    args.push('writer.FormDataContentType()', '&form');
  }
  const auth =
    r.auth === 'basic'
      ? ['auth, err := securityprovider.NewSecurityProviderBasicAuth(os.Getenv("PAYMENTS_CLIENT_ID"), os.Getenv("PAYMENTS_CLIENT_SECRET"))', 'must(err)']
      : r.auth === 'bearer'
        ? ['auth, err := securityprovider.NewSecurityProviderBearerToken(os.Getenv("AGENT_ACCESS_TOKEN"))', 'must(err)']
        : [];
  const options = r.auth === 'none' ? '' : ', payments.WithRequestEditorFn(auth.Intercept)';
  const imports = ['"context"', ...(r.body?.type === 'multipart' ? ['"bytes"', '"mime/multipart"'] : []), ...(r.query.length > 0 || r.headers.length > 0 || r.body?.type === 'json' ? ['"encoding/json"'] : []), '"fmt"', '"os"', '', 'payments "example.com/payments/oapi-codegen"', ...(r.auth === 'none' ? [] : ['"github.com/oapi-codegen/oapi-codegen/v2/pkg/securityprovider"'])];
  const body = [
    ...auth,
    `client, err := payments.NewClientWithResponses(os.Getenv("PAYMENTS_BASE_URL")${options})`,
    'must(err)',
    ...lines,
    `response, err := client.${call}(${args.join(', ')})`,
    'must(err)',
    'fmt.Println(response.StatusCode(), string(response.Body))',
  ];
  return [
    'package main',
    '',
    `import (\n${imports.map((i) => (i === '' ? '' : `\t${i}`)).join('\n')}\n)`,
    '',
    'func must(err error) {\n\tif err != nil {\n\t\tpanic(err)\n\t}\n}',
    '',
    `func main() {\n${body.map((l) => `\t${l}`).join('\n')}\n}`,
  ].join('\n');
}

/** The four samples of each operation, by operationId. */
export function codeSamples(bundle: Bundle): Map<string, CodeSample[]> {
  return new Map(
    sampleRequests(bundle).map((r) => [
      r.operationId,
      [
        { lang: 'curl', label: 'curl', source: curlSample(r) },
        { lang: 'TypeScript', label: 'TypeScript', source: typescriptSample(r) },
        { lang: 'Python', label: 'Python (openapi-python-client)', source: pythonSample(r) },
        { lang: 'Go', label: 'Go (oapi-codegen)', source: goSample(r) },
      ],
    ]),
  );
}

/** The bundle with `x-codeSamples` on every operation. */
export function withCodeSamples<T extends Bundle>(bundle: T): T {
  const samples = codeSamples(bundle);
  for (const item of Object.values(bundle.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (method === 'parameters') continue;
      (op as Json)['x-codeSamples'] = samples.get((op as Operation).operationId);
    }
  }
  return bundle;
}
