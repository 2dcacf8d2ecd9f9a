// express-openapi-validator 5.6 works out again, on every request and for every parameter its
// operation declares (present or not), what the contract says of it: it resolves the parameter's
// $ref, normalizes it, and walks its schema for objects, building arrays as it goes
// (RequestParameterMutator.modifyRequest). Those answers depend only on the contract's objects,
// which never change once loaded, so they are memoized per object: the validator asks the same
// questions and gets the same answers.
//
// For an operation whose parameters are all plain (no content, no arrays or objects, no cookie
// forms), the rest of modifyRequest's loop changes nothing. What it can still do: turn keys with
// brackets into objects, and refuse a value holding a reserved character. So such an operation
// (known once per parameter list) skips the loop: it runs the validator's own bracket handling when
// a key has a bracket, and the validator's whole modifyRequest when the query holds a reserved
// character at all. Any other operation runs the validator's own code.
//
// It would stop silently if the validator moved these functions, so it refuses to start instead.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

type Normalized = { name: string; schema: object };
interface ParserUtil {
  dereferenceParameter(apiDocs: object, parameter: object): object;
  normalizeParameter(ajv: object, parameter: object): Normalized;
  memoized?: true;
}
interface Parameter {
  name: string;
  in: string;
  content?: unknown;
  allowReserved?: boolean;
  explode?: boolean;
  style?: string;
}
interface Schema {
  type?: string;
  allOf?: unknown;
  oneOf?: unknown;
  anyOf?: unknown;
}
interface MutatorThis {
  _apiDocs: object;
  ajv: object;
  isObjectOrXOf(schema: object): boolean;
  handleBracketNotationQueryFields(query: Record<string, unknown>): Record<string, unknown>;
}
interface MutatedRequest {
  openapi: { schema: { parameters?: object[] } };
  originalUrl: string;
  query: Record<string, unknown>;
}
interface Mutator {
  prototype: MutatorThis & { modifyRequest(req: MutatedRequest): void };
}

/** A two-key memo on objects: (context, object) → answer; further arguments only feed the computation. */
function memo2<A extends object, B extends object, R, X extends unknown[] = []>(compute: (a: A, b: B, ...rest: X) => R): (a: A, b: B, ...rest: X) => R {
  const byContext = new WeakMap<A, WeakMap<B, R>>();
  return (a, b, ...rest) => {
    if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return compute(a, b, ...rest);
    let answers = byContext.get(a);
    if (answers === undefined) byContext.set(a, (answers = new WeakMap()));
    if (answers.has(b)) return answers.get(b) as R;
    const answer = compute(a, b, ...rest);
    answers.set(b, answer);
    return answer;
  };
}

/** What the validator refuses in a query value that is not URL-encoded (its RESERVED_CHARS, less `&` and `=`, which never reach a value, and `#`, which ends the query). */
const RESERVED = /[:/?[\]@!$'()*+,;]/;

/**
 * For an operation whose parameters are all plain, whether the validator checks any of them for
 * reserved characters (a query parameter without `allowReserved`); undefined when a parameter
 * would be reshaped (content, arrays, objects and their combinations, cookie forms).
 */
function plainParameters(mutator: MutatorThis, util: ParserUtil, parameters: object[]): { checked: boolean } | undefined {
  let checked = false;
  for (const p of parameters) {
    const parameter = util.dereferenceParameter(mutator._apiDocs, p) as Parameter;
    // Normalizing also writes the parameter's default style and explode, as the validator's loop does.
    const schema = util.normalizeParameter(mutator.ajv, parameter).schema as Schema;
    if (parameter.content !== undefined || schema.type === 'array' || schema.allOf !== undefined || schema.oneOf !== undefined || schema.anyOf !== undefined) return undefined;
    if (parameter.in === 'query') {
      if (mutator.isObjectOrXOf(schema)) return undefined;
      if (parameter.allowReserved !== true) checked = true;
    } else if (parameter.style === 'form' && parameter.explode === true) {
      return undefined;
    }
  }
  return { checked };
}

export function memoizeValidatorParameterParsing(): void {
  const parsers = join(dirname(require.resolve('express-openapi-validator')), 'middlewares', 'parsers');
  const util = require(join(parsers, 'util.js')) as ParserUtil;
  const { RequestParameterMutator } = require(join(parsers, 'req.parameter.mutator.js')) as { RequestParameterMutator?: Mutator };
  const mutator = RequestParameterMutator?.prototype;
  const isObjectOrXOf = mutator?.isObjectOrXOf;
  const modifyRequest = mutator?.modifyRequest;
  const brackets = mutator?.handleBracketNotationQueryFields;
  if (typeof util.dereferenceParameter !== 'function' || typeof util.normalizeParameter !== 'function' || typeof isObjectOrXOf !== 'function' || typeof modifyRequest !== 'function' || typeof brackets !== 'function') {
    throw new Error('express-openapi-validator no longer has the functions parameter-parsing-memo.ts memoizes: review that file');
  }
  if (util.memoized) return;
  util.dereferenceParameter = memo2(util.dereferenceParameter);
  util.normalizeParameter = memo2(util.normalizeParameter);
  const hasObject = new WeakMap<object, boolean>();
  (RequestParameterMutator as Mutator).prototype.isObjectOrXOf = function (this: unknown, schema: object) {
    if (typeof schema !== 'object' || schema === null) return isObjectOrXOf.call(this, schema);
    let answer = hasObject.get(schema);
    if (answer === undefined) hasObject.set(schema, (answer = isObjectOrXOf.call(this, schema)));
    return answer;
  };
  // Per contract document and parameter list (a mutator is made per request, so not per mutator).
  const plainOf = memo2((_docs: object, parameters: object[], mutator: MutatorThis) => plainParameters(mutator, util, parameters));
  const none: object[] = [];
  (RequestParameterMutator as Mutator).prototype.modifyRequest = function (this: MutatorThis, req: MutatedRequest) {
    const docs = this._apiDocs;
    // A validator that keeps its contract elsewhere gets its own code, never a failed request.
    if (typeof docs !== 'object' || docs === null) return modifyRequest.call(this, req);
    const operation = plainOf(docs, req.openapi.schema.parameters ?? none, this);
    if (operation === undefined) return modifyRequest.call(this, req);
    // A reserved character it may refuse: the validator's own code judges. (It reads the query
    // through url.parse, which only shortens or escapes it, so it finds none where this finds none.
    // The server's query-encoding.ts leaves none; this is for other callers of the validator.)
    const at = req.originalUrl.indexOf('?');
    if (operation.checked && at >= 0 && RESERVED.test(req.originalUrl.slice(at + 1))) return modifyRequest.call(this, req);
    // Otherwise what is left of its work: keys with brackets become objects.
    if (Object.keys(req.query).some((key) => key.includes('['))) req.query = brackets.call(this, req.query);
  };
  util.memoized = true;
}
