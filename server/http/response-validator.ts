// Checks a handler's result against the contract (the documented status, the JSON schema of its
// body) before the request's transaction commits, so a response that would break the contract
// becomes a 500 that leaves no effect behind, instead of a 500 after a committed write.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { isValidDate, isValidDateTime } from '../shared/dates.ts';
import type { OperationInfo } from './contract-index.ts';

// ajv-formats is CommonJS: imported from ESM its function is the module, and also its `default`.
const addFormats = ajvFormats.default;

const SPEC_ID = 'urn:payments:contract';

export class ResponseValidator {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(spec: Record<string, unknown>) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv, { mode: 'full' });
    this.ajv.addFormat('date', isValidDate);
    this.ajv.addFormat('date-time', isValidDateTime);
    this.ajv.addSchema({ ...spec, $id: SPEC_ID });
  }

  /** The problems of a response, or an empty list when it matches the contract. */
  check(operation: OperationInfo, status: number, body: unknown): string[] {
    if (!operation.responses.has(status)) return [`status ${status} is not documented for ${operation.operationId}`];
    const pointer = operation.responses.get(status);
    if (pointer === null || pointer === undefined) return body === undefined ? [] : [`status ${status} of ${operation.operationId} is documented without a body`];
    let validate = this.compiled.get(pointer);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: `${SPEC_ID}${pointer}` });
      this.compiled.set(pointer, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
  }
}
