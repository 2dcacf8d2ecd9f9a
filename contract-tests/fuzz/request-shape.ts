// What the contract says an operation's request is made of: its parameters and its body, each with
// the schema that decides whether a value is valid and the JSON pointer of that schema in the
// bundle (for the independent validator).
import { deref, type SpecOperation } from '../support/spec.ts';

type Json = Record<string, unknown>;

export interface ParameterShape {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Json;
  pointer: string;
}

export interface BodyShape {
  type: 'application/json' | 'multipart/form-data';
  required: boolean;
  schema: Json;
  pointer: string;
}

export interface RequestShape {
  op: SpecOperation;
  params: ParameterShape[];
  body: BodyShape | undefined;
  /** `basic`, `bearer` (an agent's token) or `none` (public operations). */
  auth: 'basic' | 'bearer' | 'none';
}

// A JSON pointer segment, percent-encoded for the URI fragment the validator reads.
const escape = (segment: string) => encodeURIComponent(segment.replaceAll('~', '~0').replaceAll('/', '~1'));

function parameterShapes(op: SpecOperation): ParameterShape[] {
  const at = (list: unknown, base: string) =>
    ((list as Json[] | undefined) ?? []).map((p, i) => {
      const pointer = typeof p.$ref === 'string' ? `${p.$ref}/schema` : `${base}/parameters/${i}/schema`;
      const param = deref<Json>(p);
      return { name: param.name as string, in: param.in as ParameterShape['in'], required: param.required === true, schema: param.schema as Json, pointer };
    });
  const pathBase = `#/paths/${escape(op.path)}`;
  const own = at(op.operation.parameters, `${pathBase}/${op.method}`);
  // An operation's own parameter overrides the path item's of the same name and place.
  const shared = at(op.pathItem.parameters, pathBase).filter((p) => !own.some((o) => o.name === p.name && o.in === p.in));
  return [...shared, ...own].filter((p) => p.in !== ('cookie' as string));
}

function bodyShape(op: SpecOperation): BodyShape | undefined {
  const requestBody = deref<Json | undefined>(op.operation.requestBody);
  if (requestBody === undefined) return undefined;
  const [type, media] = Object.entries(requestBody.content as Record<string, Json>)[0] ?? [];
  if (type === undefined || media === undefined) return undefined;
  const schema = media.schema as Json;
  if (typeof schema.$ref !== 'string') throw new Error(`${op.operation.operationId}: the fuzzer expects named request body schemas`);
  return { type: type as BodyShape['type'], required: requestBody.required === true, schema, pointer: schema.$ref };
}

export function requestShape(op: SpecOperation): RequestShape {
  const security = op.operation.security ?? [];
  const auth = security.some((s) => 'basicAuth' in s) ? 'basic' : security.some((s) => 'bearerAuth' in s) ? 'bearer' : 'none';
  return { op, params: parameterShapes(op), body: bodyShape(op), auth };
}
