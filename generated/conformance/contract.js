// The check every answer gets, whatever the check that asked for it: the status is one the
// operation documents, the body is JSON valid under the documented schema of the shipped bundle
// (JSON Schema 2020-12, validated with Ajv), the documented required headers are there, every answer
// has an X-Request-Id, and an error body repeats its status. Webhook bodies are checked the same way.
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { bundle, deref, statusesOf, webhookSchemas } from "./bundle.js";
// ajv-formats is CommonJS: imported from ESM, its function is the module's `default`.
const addFormats = ajvFormats.default;
const BUNDLE_ID = 'urn:payments:contract';
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv, { mode: 'full' });
// Times are in UTC (conventions guide): a date-time valid under RFC 3339 with any other offset than
// `Z` breaks that rule, which the schemas' `format: date-time` alone would accept.
const rfc3339 = ajv.formats['date-time'];
const validDateTime = (s) => (typeof rfc3339 === 'object' && rfc3339 !== null && 'validate' in rfc3339 ? rfc3339.validate(s) : typeof rfc3339 === 'function' ? rfc3339(s) : true);
ajv.addFormat('date-time', { type: 'string', validate: (s) => validDateTime(s) && /[zZ]$/.test(s) });
export const UTC_RULE = 'times are ISO 8601 date-times in UTC, written with `Z` (conventions guide: "Times are ISO 8601 date-times in UTC")';
ajv.addSchema({ ...bundle, $id: BUNDLE_ID });
const compiled = new Map();
function validator(pointer) {
    let validate = compiled.get(pointer);
    if (validate === undefined) {
        validate = ajv.compile({ $ref: `${BUNDLE_ID}${pointer}` });
        compiled.set(pointer, validate);
    }
    return validate;
}
const ID_PATTERN = /^\^([A-Z][A-Za-z]*):/;
/** Ajv's errors as sentences; an id without its `<Type>:` prefix is named as such. */
function describe(errors, value) {
    // A failed `oneOf` lists every branch's errors; the ones of its closest branch say the most, so
    // the summary keeps the deepest errors and drops the umbrella ones.
    const deepest = errors.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf' && e.keyword !== 'if');
    const chosen = deepest.length > 0 ? deepest : errors;
    const seen = new Set();
    const out = [];
    for (const e of chosen) {
        const at = e.instancePath === '' ? 'the body' : e.instancePath;
        let violation;
        const pattern = typeof e.params.pattern === 'string' ? e.params.pattern : '';
        const prefix = ID_PATTERN.exec(pattern)?.[1];
        if (e.keyword === 'pattern' && prefix !== undefined) {
            const actual = e.instancePath.split('/').slice(1).reduce((node, key) => node?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], value);
            violation = { rule: 'ids carry their type: `<Type>:<uuid>` (spec: the id patterns)', problem: `${at} is ${JSON.stringify(actual)}, expected a \`${prefix}:\` id` };
        }
        else if (e.keyword === 'required') {
            const schema = [...e.schemaPath.matchAll(/schemas\/([^/]+)/g)].at(-1)?.[1] ?? 'its schema';
            violation = { rule: `${schema} requires \`${String(e.params.missingProperty)}\` (spec: components/schemas/${schema})`, problem: `${at} has no \`${String(e.params.missingProperty)}\`` };
        }
        else if (e.keyword === 'format' && e.params.format === 'date-time') {
            const actual = e.instancePath.split('/').slice(1).reduce((node, key) => node?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], value);
            violation = { rule: UTC_RULE, problem: `${at} is ${JSON.stringify(actual)}${typeof actual === 'string' && /[+-]\d{2}:\d{2}$/.test(actual) ? `, a time with the offset ${actual.slice(-6)}` : ', not an RFC 3339 date-time'}` };
        }
        else if (e.keyword === 'type' && e.params.type === 'integer') {
            const actual = e.instancePath.split('/').slice(1).reduce((node, key) => node?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], value);
            violation = { rule: 'money is an integer in the smallest unit of its currency, as are the counts and other integers of the spec (conventions guide: "Money is an integer in the smallest unit of its currency")', problem: `${at} is ${JSON.stringify(actual)}, not an integer` };
        }
        else if (e.keyword === 'additionalProperties') {
            violation = { rule: 'no undocumented properties', problem: `${at} has \`${String(e.params.additionalProperty)}\`, which the schema does not define` };
        }
        else {
            violation = { rule: `schema ${e.schemaPath}`, problem: `${at} ${e.message ?? 'is invalid'}` };
        }
        const key = `${violation.rule}|${violation.problem}`;
        if (!seen.has(key)) {
            seen.add(key);
            out.push(violation);
        }
    }
    return out;
}
/** The violations of `value` under the schema at `pointer` (`#/components/schemas/Customer`). */
export function schemaViolations(pointer, value) {
    const validate = validator(pointer);
    if (validate(value))
        return [];
    const where = pointer.replace('#/components/schemas/', '');
    return describe(validate.errors ?? [], value).map((v) => ({ ...v, rule: v.rule.startsWith('schema ') ? `${where}: ${v.rule}` : v.rule }));
}
/** What an answer to `op` breaks of the contract (nothing: an empty list). */
export function answerViolations(op, status, headers, text, firstPage = false) {
    const id = op.operationId;
    const out = [];
    if (headers.get('x-request-id') === null)
        out.push({ rule: 'every response carries an X-Request-Id header (errors guide)', problem: 'no X-Request-Id header' });
    const documented = op.operation.responses[String(status)];
    if (documented === undefined) {
        out.push({ rule: `${id} answers only its documented statuses (${statusesOf(op).join(', ')})`, problem: `status ${status} is not documented for ${id}` });
        return out;
    }
    const response = deref(documented);
    for (const [name, header] of Object.entries(response.headers ?? {})) {
        if (deref(header).required === true && headers.get(name) === null) {
            out.push({ rule: `${id} ${status} has the header ${name} (spec: its response headers)`, problem: `no ${name} header` });
        }
    }
    if (status === 401 && headers.get('www-authenticate') === null) {
        out.push({ rule: '401 answers carry a WWW-Authenticate header (authentication guide)', problem: 'no WWW-Authenticate header' });
    }
    if (response.content === undefined) {
        if (text !== '')
            out.push({ rule: `${id} ${status} has no body (spec: its response)`, problem: `a body: ${text.slice(0, 200)}` });
        return out;
    }
    const type = headers.get('content-type') ?? '';
    const shown = `content-type ${type === '' ? '(none)' : type}, the body begins ${firstBytes(text)}`;
    if (!type.startsWith('application/json')) {
        out.push({ rule: status >= 400 ? `${id} ${status} answers the JSON error shape, application/json (errors guide; spec: its response)` : `${id} ${status} answers application/json (spec: its response)`, problem: shown });
        return out;
    }
    const pointer = response.content['application/json']?.schema?.$ref;
    let body;
    try {
        body = JSON.parse(text);
    }
    catch {
        out.push({ rule: `${id} ${status} answers JSON (spec: its response)`, problem: `the body is not JSON: ${shown}` });
        return out;
    }
    // A body that is not even an object says most with what it is.
    if (pointer !== undefined)
        out.push(...schemaViolations(pointer, body).map((v) => (body === null || typeof body !== 'object' || Array.isArray(body) ? { ...v, problem: `${v.problem} (${shown})` } : v)));
    const envelope = listEnvelopeViolation(body, firstPage);
    if (envelope !== undefined)
        out.push(envelope);
    if (status >= 400 && body !== null && typeof body === 'object' && 'status' in body && body.status !== status) {
        out.push({ rule: 'an error body repeats the HTTP status in `status` (errors guide)', problem: `body.status is ${JSON.stringify(body.status)}, the answer ${status}` });
    }
    return out;
}
/** The first bytes of a body, quoted, for a message. */
export const firstBytes = (text) => (text === '' ? '(empty)' : `${JSON.stringify(text.slice(0, 120))}${text.length > 120 ? '…' : ''}`);
/**
 * A list's only page (no cursor, `hasMore: false`) holds all the matches, so its `totalCount` is
 * their number (pagination guide): checked on every answer, a miscount is named as such before any
 * check that reads the list blames something else for it.
 */
function listEnvelopeViolation(body, firstPage) {
    if (!firstPage || body === null || typeof body !== 'object' || !('totalCount' in body) || !('hasMore' in body))
        return undefined;
    const page = body;
    if (!Array.isArray(page.data) || page.hasMore !== false || typeof page.totalCount !== 'number' || page.totalCount === page.data.length)
        return undefined;
    return { rule: '`totalCount` is how many items match the filters, as of the first page: a first page that is also the last holds them all (pagination guide)', problem: `totalCount ${page.totalCount} on a first page of ${page.data.length} items with hasMore: false` };
}
/** What a webhook body breaks: an unknown event type, or the schema of its type. */
export function webhookViolations(event) {
    const type = event?.type;
    const pointer = typeof type === 'string' ? webhookSchemas.get(type) : undefined;
    if (pointer === undefined)
        return [{ rule: 'webhook event types are those of the spec (webhooks:)', problem: `unknown event type ${JSON.stringify(type)}` }];
    return schemaViolations(pointer, event);
}
