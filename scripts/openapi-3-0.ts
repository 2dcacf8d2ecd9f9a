// The 3.0 copy of the bundle for dredd, which reads only OpenAPI 2.0/3.0. openapi-down-convert
// (with --allOf: `$ref` plus siblings becomes `allOf`) does most of it; this removes or rewrites
// what it leaves that 3.0 does not allow, and refuses a path parameter without an `example`
// (dredd cannot build a request URI without one).
import { Converter } from '@apiture/openapi-down-convert';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Visits every object of the document, depth first, parents before children. */
function walk(node: unknown, visit: (object: Json) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit);
  } else if (isObject(node)) {
    visit(node);
    for (const value of Object.values(node)) walk(value, visit);
  }
}

/** A 3.1 schema fix-up to its 3.0 form, in place; `schemas` are the document's components. */
function downgradeSchemaKeywords(object: Json, schemas: Record<string, Json>): void {
  // 3.1 numeric exclusive bounds → 3.0 boolean flags beside minimum/maximum.
  for (const [exclusive, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof object[exclusive] === 'number') {
      object[bound] = object[exclusive];
      object[exclusive] = true;
    }
  }
  delete object.dependentRequired;
  // `anyOf: [X, {type: 'null'}]` (a nullable reference) → `nullable` with `allOf: [X]`.
  const anyOf = object.anyOf;
  if (Array.isArray(anyOf) && anyOf.some((s) => isObject(s) && s.type === 'null')) {
    const rest = anyOf.filter((s) => !(isObject(s) && s.type === 'null'));
    delete object.anyOf;
    object.nullable = true;
    if (rest.length === 1) object.allOf = rest;
    else object.anyOf = rest;
    // 3.0 ignores `nullable` without a `type`: the referenced schema's.
    const [only] = rest;
    const referenced = rest.length === 1 && isObject(only) && typeof only.$ref === 'string' ? schemas[only.$ref.split('/').pop() ?? ''] : undefined;
    if (referenced?.type !== undefined) object.type = referenced.type;
  }
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Throws unless every path parameter of every operation has an `example`. */
function requirePathParameterExamples(doc: Json): void {
  const components = (doc.components ?? {}) as { parameters?: Record<string, Json> };
  const resolve = (p: Json): Json => (typeof p.$ref === 'string' ? (components.parameters?.[p.$ref.split('/').pop() ?? ''] ?? p) : p);
  const missing: string[] = [];
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS.filter((m) => item[m] !== undefined)) {
      const params = [...((item.parameters as Json[] | undefined) ?? []), ...(((item[method] as Json).parameters as Json[] | undefined) ?? [])].map(resolve);
      for (const p of params) if (p.in === 'path' && p.example === undefined) missing.push(`${method.toUpperCase()} ${path} {${String(p.name)}}`);
    }
  }
  if (missing.length > 0) throw new Error(`path parameters without an example (dredd needs one):\n  ${missing.join('\n  ')}`);
}

/** 3.1 lets a requirement of any scheme list roles (ours name the token permission); 3.0 allows them for OAuth 2 and OpenID Connect only. */
function dropRolesOfNonOAuthSchemes(doc: Json): void {
  const schemes = ((doc.components as Json | undefined)?.securitySchemes ?? {}) as Record<string, Json>;
  const scoped = (name: string) => ['oauth2', 'openIdConnect'].includes(String(schemes[name]?.type));
  const strip = (security: unknown) => {
    if (!Array.isArray(security)) return;
    for (const requirement of security as Record<string, unknown[]>[]) for (const name of Object.keys(requirement)) if (!scoped(name)) requirement[name] = [];
  };
  strip(doc.security);
  for (const section of [doc.paths, doc.webhooks] as (Record<string, Json> | undefined)[]) {
    for (const item of Object.values(section ?? {})) for (const method of METHODS) strip((item[method] as Json | undefined)?.security);
  }
}

/** The 3.0 form of a bundled 3.1 document (which is not changed). */
export function toOpenApi30(bundle: Json): Json {
  const doc = new Converter(structuredClone(bundle), { allOfTransform: true }).convert() as Json;
  const info = doc.info as Json;
  delete info.summary;
  delete doc.jsonSchemaDialect;
  const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  walk(doc, (object) => downgradeSchemaKeywords(object, schemas));
  dropRolesOfNonOAuthSchemes(doc);
  requirePathParameterExamples(doc);
  return doc;
}
