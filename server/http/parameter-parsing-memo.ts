// express-openapi-validator 5.6 works out again, on every request and for every parameter its
// operation declares (present or not), what the contract says of it: it resolves the parameter's
// $ref, normalizes it, and walks its schema for objects, building arrays as it goes
// (RequestParameterMutator.modifyRequest: 7 % of a list request's CPU on PGlite, with a dozen
// filters). Those answers, about half of it, depend only on the contract's objects, which never
// change once loaded, so they are memoized per object: the validator asks the same questions and
// gets the same answers. It would stop silently if the validator moved these functions, so it refuses to
// start instead.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

type Normalized = { name: string; schema: object };
interface ParserUtil {
  dereferenceParameter(apiDocs: object, parameter: object): object;
  normalizeParameter(ajv: object, parameter: object): Normalized;
  memoized?: true;
}
interface Mutator {
  prototype: { isObjectOrXOf(schema: object): boolean };
}

/** A two-key memo on objects: (context, object) → answer. */
function memo2<A extends object, B extends object, R>(compute: (a: A, b: B) => R): (a: A, b: B) => R {
  const byContext = new WeakMap<A, WeakMap<B, R>>();
  return (a, b) => {
    if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return compute(a, b);
    let answers = byContext.get(a);
    if (answers === undefined) byContext.set(a, (answers = new WeakMap()));
    if (answers.has(b)) return answers.get(b) as R;
    const answer = compute(a, b);
    answers.set(b, answer);
    return answer;
  };
}

export function memoizeValidatorParameterParsing(): void {
  const parsers = join(dirname(require.resolve('express-openapi-validator')), 'middlewares', 'parsers');
  const util = require(join(parsers, 'util.js')) as ParserUtil;
  const { RequestParameterMutator } = require(join(parsers, 'req.parameter.mutator.js')) as { RequestParameterMutator?: Mutator };
  const isObjectOrXOf = RequestParameterMutator?.prototype.isObjectOrXOf;
  if (typeof util.dereferenceParameter !== 'function' || typeof util.normalizeParameter !== 'function' || typeof isObjectOrXOf !== 'function') {
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
  util.memoized = true;
}
