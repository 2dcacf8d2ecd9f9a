// The contract the kit checks against: the bundle this package ships (generated/openapi.json),
// found from the kit's own location, so the same code reads it from the repository's source, from
// its compiled copy in generated/conformance/ and from node_modules/ once installed.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { matchPathTemplate } from "./path-template.js";
export const PACKAGE_NAME = '@payments-service/contract';
/** The folder of this package: the first parent of the kit that holds its package.json. */
function packageRoot() {
    for (let dir = import.meta.dirname;; dir = dirname(dir)) {
        const manifest = join(dir, 'package.json');
        if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === PACKAGE_NAME)
            return dir;
        if (dirname(dir) === dir)
            throw new Error(`conformance: cannot find the ${PACKAGE_NAME} package around ${import.meta.dirname}`);
    }
}
export const packageDir = packageRoot();
export const packageVersion = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version;
export const bundle = JSON.parse(readFileSync(join(packageDir, 'generated', 'openapi.json'), 'utf8'));
export const API_VERSION = bundle.info.version;
export const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
/** Resolves a local `$ref` (`#/components/...`) of the bundle, repeatedly. */
export function deref(node) {
    let current = node;
    while (current !== null && typeof current === 'object' && typeof current.$ref === 'string') {
        const pointer = current.$ref.replace(/^#\//, '').split('/').map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
        current = pointer.reduce((acc, key) => acc[key], bundle);
    }
    return current;
}
export const operations = Object.entries(bundle.paths).flatMap(([path, pathItem]) => METHODS.filter((m) => pathItem[m] !== undefined).map((method) => {
    const operation = pathItem[method];
    return { path, method, operationId: operation.operationId, operation, pathItem };
}));
export const operationById = (operationId) => {
    const op = operations.find((o) => o.operationId === operationId);
    if (op === undefined)
        throw new Error(`conformance: no operation ${operationId} in the bundle`);
    return op;
};
/** The parameters of an operation, its path item's included, resolved. */
export const parametersOf = (op) => [...(op.pathItem.parameters ?? []), ...(op.operation.parameters ?? [])].map((p) => deref(p));
/** The operation of a request (its path relative to the API's base URL). */
export function findOperation(method, path) {
    const candidates = operations.filter((o) => o.method === method.toLowerCase());
    const template = matchPathTemplate(candidates.map((o) => o.path), path);
    return candidates.find((o) => o.path === template);
}
export const securityOf = (op) => {
    const security = op.operation.security ?? bundle.security ?? [];
    return security.some((s) => 'basicAuth' in s) ? 'basic' : security.some((s) => 'bearerAuth' in s) ? 'bearer' : 'none';
};
/** The permission an operation needs: the API token's (`MANAGE`...) or the agent policy's (`CREATE_QUOTES`, `ANY`). */
export const permissionOf = (op) => {
    const security = op.operation.security ?? [];
    return security.flatMap((s) => [...(s.basicAuth ?? []), ...(s.bearerAuth ?? [])])[0];
};
/** The documented statuses of an operation. */
export const statusesOf = (op) => Object.keys(op.operation.responses).map(Number);
/** The request body's media types. */
export const bodyTypesOf = (op) => Object.keys((deref(op.operation.requestBody)?.content ?? {}));
/** Whether the operation documents an `Idempotency-Key` header. */
export const takesIdempotencyKey = (op) => parametersOf(op).some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
/** Each webhook event `type` and the schema of its body. */
export const webhookSchemas = new Map(Object.values(bundle.webhooks).flatMap((item) => {
    const schema = item.post.requestBody.content['application/json']?.schema.$ref ?? '';
    const parts = (deref({ $ref: schema }).allOf ?? []).map((p) => deref(p));
    const types = parts.flatMap((p) => (p.properties?.type?.enum ?? []));
    return types.map((type) => [type, schema]);
}));
