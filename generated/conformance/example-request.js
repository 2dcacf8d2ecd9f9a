// A valid request for any operation, made of the spec's own examples of its parameters and request
// body (JSON or multipart): what the checks generated over every operation send, changed in the
// one place each check is about (no credentials, an unknown field, an id that does not exist).
import { randomBytes, randomUUID } from 'node:crypto';
import { bodyTypesOf, deref, parametersOf } from "./bundle.js";
/** The first named example of the request body of `type`. */
export function exampleBody(op, type) {
    const media = (deref(op.operation.requestBody)?.content ?? {})[type];
    if (media === undefined)
        return undefined;
    const first = Object.values((media.examples ?? {}))[0];
    return first === undefined ? media.example : deref(first).value;
}
/** A multipart body from an example object: `file` becomes a small PDF. */
export function formOf(example) {
    const form = new FormData();
    for (const [name, value] of Object.entries(example)) {
        if (name === 'file')
            form.append('file', new Blob([`%PDF-1.7\n${String(value)}`.padEnd(400, ' ')], { type: 'application/pdf' }), 'example.pdf');
        else
            form.append(name, String(value));
    }
    return form;
}
/** The operation's example request; `path` values replace the examples of those parameters. */
export function exampleRequest(op, pathValues = {}) {
    const values = {};
    let path = op.path;
    const query = {};
    for (const p of parametersOf(op)) {
        if (p.in === 'path') {
            const value = pathValues[p.name] ?? String(p.example ?? p.schema?.examples?.[0]);
            values[p.name] = value;
            path = path.replace(`{${p.name}}`, encodeURIComponent(value));
        }
        if (p.in === 'query' && p.required === true)
            query[p.name] = String(p.example);
    }
    const options = { query };
    const [type] = bodyTypesOf(op);
    if (type === 'application/json')
        options.body = exampleBody(op, type) ?? {};
    if (type === 'multipart/form-data')
        options.form = formOf((exampleBody(op, type) ?? {}));
    return { method: op.method.toUpperCase(), path, pathValues: values, options };
}
/** A well-formed value of a path parameter that names nothing: an id of the right type, a code of the right shape. */
export function unknownValueOf(op, name) {
    const param = parametersOf(op).find((p) => p.in === 'path' && p.name === name);
    const pattern = String(deref(param?.schema).pattern ?? '');
    const type = /^\^\(?([A-Z][A-Za-z]*)[|:]/.exec(pattern)?.[1];
    if (type !== undefined)
        return `${type}:${randomUUID()}`;
    if (pattern === '^[0-9a-f]{8}$')
        return randomBytes(4).toString('hex');
    if (pattern.startsWith('^AGENT-')) {
        const part = () => Array.from(randomBytes(4), (b) => 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[b % 32]).join('');
        return `AGENT-${part()}-${part()}`;
    }
    return undefined;
}
