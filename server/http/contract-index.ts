// What the dispatcher needs to know of each operation, read once from the validators' copy of the
// contract: its parameters (resolved), whether it takes an Idempotency-Key, whether its body is
// required, and the schema of each documented response.
type Json = Record<string, unknown>;

export interface ParameterInfo {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  schema: Json;
}

export interface OperationInfo {
  operationId: string;
  parameters: ParameterInfo[];
  takesIdempotencyKey: boolean;
  bodyRequired: boolean;
  /** Per documented status: the pointer of its JSON schema, or null for a response without a body. */
  responses: Map<number, string | null>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

export function indexOperations(spec: Json): Map<string, OperationInfo> {
  const deref = <T = Json>(node: unknown): T => {
    let current = node as Json;
    while (typeof current?.$ref === 'string') {
      current = (current.$ref as string)
        .replace(/^#\//, '')
        .split('/')
        .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
        .reduce<Json>((acc, key) => acc[key] as Json, spec);
    }
    return current as T;
  };
  const index = new Map<string, OperationInfo>();
  for (const pathItem of Object.values(spec.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = pathItem[method] as Json | undefined;
      if (op === undefined) continue;
      const parameters = [...((pathItem.parameters as unknown[] | undefined) ?? []), ...((op.parameters as unknown[] | undefined) ?? [])].map((p) => deref<ParameterInfo>(p));
      const responses = new Map<number, string | null>();
      for (const [status, response] of Object.entries(op.responses as Json)) {
        const content = deref(response).content as Record<string, { schema?: { $ref?: string } }> | undefined;
        responses.set(Number(status), content?.['application/json']?.schema?.$ref ?? null);
      }
      const body = op.requestBody === undefined ? undefined : deref(op.requestBody);
      index.set(op.operationId as string, {
        operationId: op.operationId as string,
        parameters,
        takesIdempotencyKey: parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'),
        bodyRequired: body?.required === true,
        responses,
      });
    }
  }
  return index;
}
