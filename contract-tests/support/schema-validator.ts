// An independent JSON Schema validator for the contract: @hyperjump/json-schema with the OpenAPI
// 3.1 dialect. The server validates with Ajv (inside express-openapi-validator) and Prism with its
// own Ajv, so a schema or instance that only one of them mishandles is caught here.
import { setShouldValidateFormat, validate, type Validator } from '@hyperjump/json-schema/openapi-3-1';
import '@hyperjump/json-schema/formats';
import { BASIC } from '@hyperjump/json-schema/experimental';
import { specUrl } from './spec.ts';

setShouldValidateFormat(true);

export interface SchemaProblem {
  /** Where in the instance, e.g. `#/accountInfo/routingNumber`. */
  instanceLocation: string;
  /** Which schema keyword failed, e.g. `#/components/schemas/Token/properties/id/pattern`. */
  keyword: string;
}

// Compiling a schema of the bundle takes about 100 ms; a compiled one validates in well under 1 ms.
const compiled = new Map<string, Promise<Validator>>();

/** Validates `value` against the schema at `pointer` (`#/components/schemas/Token`) of the bundle. */
export async function validateAgainst(pointer: string, value: unknown): Promise<SchemaProblem[]> {
  let validator = compiled.get(pointer);
  if (validator === undefined) compiled.set(pointer, (validator = validate(`${specUrl}${pointer}`)));
  const output = (await validator)(value as never, BASIC);
  if (output.valid) return [];
  return (output.errors ?? []).map((e) => ({
    instanceLocation: e.instanceLocation,
    keyword: (e.absoluteKeywordLocation ?? '').replace(specUrl, ''),
  }));
}
