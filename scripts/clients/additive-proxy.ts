// The next additive change, played in front of the sandbox: a proxy that passes every request on
// and rewrites every JSON answer as a later release within the same API version may send it
// (spec/guides/versioning.md): every value of an enum the answer's schema declares becomes a value
// the client does not know, and every object gains a field it does not know. A client that
// survives the flow through it keeps the versioning guide's promise.
//
// What stays: an object whose schema says `additionalProperties: false` (the contract closes it, so a
// release cannot add to it), a map's keys (a map takes any key already; its values keep their type), a discriminator's value (a new one is a new variant, not a new value of a known field),
// one-value enums (they narrow a base, such as Error<status>.status), and what is not an answer's
// JSON body (headers, webhooks the sandbox sends).
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { matchPathTemplate } from '../../contract-tests/kit/path-template.ts';

type Json = Record<string, unknown>;

/** The value every enum in an answer becomes, and the field every object gains. */
export const UNKNOWN_ENUM_VALUE = 'ADDED_IN_A_LATER_RELEASE';
export const UNKNOWN_FIELD = 'addedInALaterRelease';

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Rewrites answers of one bundle. */
export class AdditiveChange {
  private readonly doc: Json;
  private readonly paths: Record<string, Json>;
  readonly counts = { enums: 0, fields: 0, answers: 0, closed: 0 };

  private readonly unknownEnums: boolean;

  /** `unknownEnums: false` adds fields only: for a client whose generator refuses enum values it does not know (see spec/guides/versioning.md). */
  constructor(bundlePath: string, unknownEnums = true) {
    this.unknownEnums = unknownEnums;
    this.doc = JSON.parse(readFileSync(bundlePath, 'utf8')) as Json;
    this.paths = this.doc.paths as Record<string, Json>;
  }

  private deref(schema: unknown): Json | undefined {
    let node = schema;
    for (let hops = 0; hops < 20 && isObject(node) && typeof node.$ref === 'string'; hops++) {
      node = (node.$ref as string).replace(/^#\//, '').split('/').reduce<unknown>((n, key) => (isObject(n) ? n[key.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined), this.doc);
    }
    return isObject(node) ? node : undefined;
  }

  /** The schemas that apply to `value`: the schema itself, its allOf members, and the oneOf/anyOf variant its discriminator (or its shape) picks. */
  private applicable(schema: unknown, value: unknown, out: Json[] = [], discriminators = new Set<string>()): { schemas: Json[]; discriminators: Set<string> } {
    const node = this.deref(schema);
    if (node === undefined) return { schemas: out, discriminators };
    out.push(node);
    const discriminator = node.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
    if (discriminator !== undefined) discriminators.add(discriminator.propertyName);
    for (const member of (node.allOf as unknown[] | undefined) ?? []) this.applicable(member, value, out, discriminators);
    const variants = (node.oneOf ?? node.anyOf) as unknown[] | undefined;
    if (variants !== undefined && isObject(value)) {
      const tag = discriminator === undefined ? undefined : value[discriminator.propertyName];
      const mapped = typeof tag === 'string' ? discriminator?.mapping?.[tag] : undefined;
      const picked = mapped !== undefined ? [{ $ref: mapped }] : variants.filter((v) => this.matchesTag(v, value, discriminator?.propertyName));
      for (const variant of picked) this.applicable(variant, value, out, discriminators);
    }
    return { schemas: out, discriminators };
  }

  /** Whether a variant without a mapping is the one a value is: its discriminator's one value (enum or const) is the value's. */
  private matchesTag(variant: unknown, value: Json, propertyName: string | undefined): boolean {
    if (propertyName === undefined) return false;
    const { schemas } = this.applicable(variant, undefined);
    return schemas.some((s) => {
      const p = this.deref((s.properties as Json | undefined)?.[propertyName]);
      return p !== undefined && (p.const === value[propertyName] || (Array.isArray(p.enum) && p.enum.length === 1 && p.enum[0] === value[propertyName]));
    });
  }

  /** `value` as the later release would send it. */
  rewrite(schema: unknown, value: unknown, key?: string, discriminators = new Set<string>()): unknown {
    const { schemas, discriminators: own } = this.applicable(schema, value);
    if (typeof value === 'string') {
      const enumerated = schemas.some((s) => Array.isArray(s.enum) && s.enum.length > 1 && s.enum.every((v) => typeof v === 'string'));
      if (this.unknownEnums && enumerated && (key === undefined || !discriminators.has(key))) {
        this.counts.enums++;
        return UNKNOWN_ENUM_VALUE;
      }
      return value;
    }
    if (Array.isArray(value)) {
      const items = schemas.map((s) => s.items).find((i) => i !== undefined);
      return value.map((item) => this.rewrite(items, item));
    }
    if (!isObject(value)) return value;
    const result: Json = {};
    for (const [name, field] of Object.entries(value)) {
      const declared = schemas.map((s) => (s.properties as Json | undefined)?.[name]).filter((p) => p !== undefined);
      const additional = schemas.map((s) => s.additionalProperties).find((a) => isObject(a));
      const fieldSchema = declared.length > 0 ? { allOf: declared } : additional;
      result[name] = fieldSchema === undefined ? field : this.rewrite(fieldSchema, field, name, own);
    }
    // A map (its values typed by additionalProperties, no properties of its own) has no fields to
    // add: any key is already allowed, and its values must keep their type.
    const isMap = schemas.some((s) => isObject(s.additionalProperties)) && !schemas.some((s) => isObject(s.properties));
    const closed = schemas.some((s) => s.additionalProperties === false);
    if (closed) this.counts.closed++;
    else if (!isMap) {
      this.counts.fields++;
      result[UNKNOWN_FIELD] = { note: 'a field of a later release', since: '2025-10-13' };
    }
    return result;
  }

  /** The schema of an answer: the operation that `method` and `path` (below the base path) name, and its status's JSON content. */
  responseSchema(method: string, path: string, status: number): unknown {
    const template = matchPathTemplate(Object.keys(this.paths), path);
    const operation = template === undefined ? undefined : (this.paths[template]?.[method.toLowerCase()] as Json | undefined);
    const responses = operation?.responses as Json | undefined;
    const response = this.deref(responses?.[String(status)] ?? responses?.[`${String(status)[0]}XX`] ?? responses?.default);
    return ((response?.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema;
  }
}

const body = (message: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    message.on('data', (chunk: Buffer) => chunks.push(chunk));
    message.on('end', () => resolve(Buffer.concat(chunks)));
    message.on('error', reject);
  });

/** A proxy on a free local port in front of `baseUrl` (which ends with the version's base path); its base URL is returned. */
export async function startAdditiveProxy(baseUrl: string, bundlePath: string, unknownEnums = true): Promise<{ baseUrl: string; change: AdditiveChange; stop: () => Promise<void> }> {
  const target = new URL(baseUrl);
  const basePath = target.pathname.replace(/\/$/, '');
  const change = new AdditiveChange(bundlePath, unknownEnums);
  // node:http on both sides, so headers keep the case the server gave them (a client may read them
  // from a case-sensitive dict, as openapi-generator's Python does).
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const payload = await body(req);
      const upstream = await new Promise<IncomingMessage>((resolve, reject) => {
        const headers = { ...req.headers, host: target.host };
        const forward = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, resolve);
        forward.on('error', reject);
        forward.end(payload);
      });
      let answer = await body(upstream);
      const status = upstream.statusCode ?? 502;
      const path = new URL(req.url ?? '/', target.origin).pathname;
      const schema = path.startsWith(basePath) ? change.responseSchema(req.method ?? 'GET', path.slice(basePath.length) || '/', status) : undefined;
      if (schema !== undefined && (upstream.headers['content-type'] ?? '').includes('json') && answer.length > 0) {
        answer = Buffer.from(JSON.stringify(change.rewrite(schema, JSON.parse(answer.toString('utf8')))));
        change.counts.answers++;
      }
      const headers: string[] = [];
      for (let i = 0; i < upstream.rawHeaders.length; i += 2) {
        const name = upstream.rawHeaders[i]!;
        if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name.toLowerCase())) headers.push(name, upstream.rawHeaders[i + 1]!);
      }
      headers.push('Content-Length', String(answer.length));
      res.writeHead(status, headers);
      res.end(answer);
    })().catch((error: unknown) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`additive proxy: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${basePath}`,
    change,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
