// House rules of the Payments Service spec, as a Redocly plugin. Each rule is explained in
// spec/README.md under its name, and proves itself on a failing fixture in
// contract-tests/static/fixtures/lint/.

const GUIDE = 'see spec/README.md#house-rules';
const VERBS = [
  'get', 'list', 'create', 'update', 'delete', 'replace', 'upload', 'execute', 'approve', 'reject',
  'cancel', 'claim', 'export', 'revoke', 'verify', 'challenge', 'redeem', 'fund', 'send', 'receive',
  'lookup',
  'simulate',
  'advance',
];
const OPERATION_ID = new RegExp(`^(${VERBS.join('|')})[A-Z][A-Za-z0-9]*$`);
const CAMEL = /^[a-z][a-zA-Z0-9]*$/;
const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const TRAIN_HEADER = /^[A-Z][A-Za-z0-9]*(-[A-Z][A-Za-z0-9]*)*$/;
const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;
const PERMISSIONS = ['VIEW', 'TRANSACT', 'MANAGE'];
const AGENT_PERMISSIONS = [
  'ANY', 'VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES',
  'MANAGE_EXTERNAL_ACCOUNTS',
];
const MONEY_AGENT_PERMISSIONS = ['CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES'];
/** What an operation that gives power gives (spec/guides/authentication.md: nobody gives more than they hold). */
const GRANTS = ['REQUESTED_PERMISSIONS', 'AGENT_POLICY', 'PAYMENT'];

const isRef = (node) => node !== null && typeof node === 'object' && typeof node.$ref === 'string';
const deref = (node, ctx) => (isRef(node) ? ctx.resolve(node).node : node);
const refName = (ref) => ref.split('/').pop().replace(/\.ya?ml$/, '');

/** operationId is camelCase, starting with one of the house verbs. */
function OperationIdVerbNoun() {
  return {
    Operation(op, ctx) {
      if (typeof op.operationId === 'string' && !OPERATION_ID.test(op.operationId)) {
        ctx.report({
          message: `operationId \`${op.operationId}\` must be camelCase verb + noun, the verb one of: ${VERBS.join(', ')} (${GUIDE}).`,
          location: ctx.location.child(['operationId']),
        });
      }
    },
  };
}

/** Every operation states its security; platform operations their token permission, agent ones their policy permission. */
function OperationDeclaresAccess() {
  const check = (op, ctx, isWebhook) => {
    if (!Array.isArray(op.security)) {
      ctx.report({ message: `Every operation states its own \`security\` (${GUIDE}).`, location: ctx.location.key() });
      return;
    }
    const schemes = op.security.flatMap((req) => Object.keys(req));
    if (isWebhook) return;
    if (schemes.includes('basicAuth') && !PERMISSIONS.includes(op['x-permission'])) {
      ctx.report({
        message: `An operation with basicAuth names the token permission it needs in \`x-permission\` (${PERMISSIONS.join(', ')}) (${GUIDE}).`,
        location: ctx.location.key(),
      });
    }
    if (schemes.includes('bearerAuth') && !AGENT_PERMISSIONS.includes(op['x-agent-permission'])) {
      ctx.report({
        message: `An operation with bearerAuth names the agent permission it needs in \`x-agent-permission\` (${AGENT_PERMISSIONS.join(', ')}) (${GUIDE}).`,
        location: ctx.location.key(),
      });
    }
    if (op['x-grants'] !== undefined && (!GRANTS.includes(op['x-grants']) || !schemes.includes('basicAuth'))) {
      ctx.report({
        message: `\`x-grants\` is one of ${GRANTS.join(', ')}, on an operation with basicAuth (${GUIDE}).`,
        location: ctx.location.child(['x-grants']),
      });
    }
    // The docs show a requirement's roles next to its scheme, so the permission is also listed there
    // (OpenAPI 3.1 allows roles for any scheme), and both must say the same.
    for (const [scheme, key] of [['basicAuth', 'x-permission'], ['bearerAuth', 'x-agent-permission']]) {
      for (const req of op.security.filter((r) => scheme in r)) {
        const roles = req[scheme];
        if (op[key] !== undefined && (roles.length !== 1 || roles[0] !== op[key])) {
          ctx.report({
            message: `The \`${scheme}\` requirement lists the permission of \`${key}\` as its only role: \`${scheme}: [${op[key]}]\` (${GUIDE}).`,
            location: ctx.location.child(['security']),
          });
        }
      }
    }
  };
  return {
    Paths: { PathItem: { Operation: (op, ctx) => check(op, ctx, false) } },
    WebhooksMap: { PathItem: { Operation: (op, ctx) => check(op, ctx, true) } },
  };
}

/** Request and response bodies reference a named schema: generated types get real names. */
function NoInlineSchemas() {
  const check = (media, ctx) => {
    if (media.schema !== undefined && !isRef(media.schema)) {
      ctx.report({
        message: `Request and response bodies must \`$ref\` a named schema, not declare one inline (${GUIDE}).`,
        location: ctx.location.child(['schema']),
      });
    }
  };
  return {
    Paths: { PathItem: { Operation: { MediaType: check } } },
    WebhooksMap: { PathItem: { Operation: { MediaType: check } } },
  };
}

/** Schema property names are camelCase; a schema may opt into snake_case only with `x-property-casing: snake_case` and a reason. */
function PropertyNamesCamelCase() {
  return {
    Schema(schema, ctx) {
      if (!schema.properties || typeof schema.properties !== 'object') return;
      const snake = schema['x-property-casing'] === 'snake_case';
      if (snake && typeof schema['x-property-casing-reason'] !== 'string') {
        ctx.report({
          message: `\`x-property-casing: snake_case\` needs an \`x-property-casing-reason\` (${GUIDE}).`,
          location: ctx.location.child(['x-property-casing']),
        });
      }
      for (const name of Object.keys(schema.properties)) {
        const ok = snake ? SNAKE.test(name) : CAMEL.test(name);
        if (!ok) {
          ctx.report({
            message: `Property \`${name}\` must be ${snake ? 'snake_case' : 'camelCase'} (${GUIDE}).`,
            location: ctx.location.child(['properties', name]).key(),
          });
        }
      }
    },
  };
}

/** Query and path parameters are camelCase; headers are Train-Case (`Idempotency-Key`). */
function ParameterNamesCamelCase() {
  return {
    Parameter(param, ctx) {
      if (typeof param.name !== 'string') return;
      const header = param.in === 'header';
      if (!(header ? TRAIN_HEADER : CAMEL).test(param.name)) {
        ctx.report({
          message: `${header ? 'Header' : 'Query and path'} parameter \`${param.name}\` must be ${header ? 'Train-Case' : 'camelCase'} (${GUIDE}).`,
          location: ctx.location.child(['name']),
        });
      }
    },
  };
}

/** Enum values are UPPER_SNAKE_CASE. */
function EnumValuesUpperSnakeCase() {
  return {
    Schema(schema, ctx) {
      // Values another standard fixes (WebAuthn transports) are taken as clients receive them.
      if (!Array.isArray(schema.enum) || typeof schema['x-enum-standard'] === 'string') return;
      schema.enum.forEach((value, i) => {
        if (typeof value === 'string' && !UPPER_SNAKE.test(value)) {
          ctx.report({
            message: `Enum value \`${value}\` must be UPPER_SNAKE_CASE (${GUIDE}).`,
            location: ctx.location.child(['enum', i]),
          });
        }
      });
    },
  };
}

/**
 * A non-integer number says `format: double` (or `float`): without it openapi-generator's and
 * oapi-codegen's Go read it as float32 and lose digits of a rate (clients/README.md).
 */
function NumberFormat() {
  return {
    Schema(schema, ctx) {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (!types.includes('number') || schema.format === 'double' || schema.format === 'float') return;
      ctx.report({ message: 'A `number` says `format: double` (Go generators make float32 of a number without a format).', location: ctx.location.child(['type']) });
    },
  };
}

/** A visitor of the operations under `paths`, handed their path item too (for path-level parameters). */
function pathOperations(check) {
  let pathItem;
  return {
    Paths: {
      PathItem: {
        enter(node) { pathItem = node; },
        Operation: (op, ctx) => check(op, ctx, pathItem),
      },
    },
  };
}

const allParameters = (op, pathItem, ctx) =>
  [...(pathItem?.parameters ?? []), ...(op.parameters ?? [])].map((p) => deref(p, ctx));

const usesListEnvelope = (schemaRef, ctx) => {
  const schema = deref(schemaRef, ctx);
  return Array.isArray(schema?.allOf) && schema.allOf.some((s) => isRef(s) && refName(s.$ref) === 'ListEnvelope');
};

/**
 * A list on the envelope has `data` in its own member, required, and the envelope declares none: a
 * generator that merges allOf members (openapi-python-client) would otherwise type every list's
 * `data` as the first list it merged (clients/README.md).
 */
const ownsData = (schemaRef, ctx) => {
  const members = (deref(schemaRef, ctx)?.allOf ?? []).map((member) => ({ envelope: isRef(member) && refName(member.$ref) === 'ListEnvelope', schema: deref(member, ctx) }));
  const envelopeDeclares = members.some((m) => m.envelope && m.schema?.properties?.data !== undefined);
  return !envelopeDeclares && members.some((m) => !m.envelope && m.schema?.properties?.data !== undefined && m.schema.required?.includes('data'));
};

/** An unpaginated list: an object whose only property is a required, bounded `data` array. */
const isDataOnlyList = (schemaRef, ctx) => {
  const schema = deref(schemaRef, ctx);
  const keys = Object.keys(schema?.properties ?? {});
  return schema?.type === 'object' && keys.length === 1 && keys[0] === 'data' && schema.required?.includes('data') && typeof schema.properties.data.maxItems === 'number';
};

/** Paginated operations answer with a `<Name>ListResponse` built on the list envelope; every `<Name>ListResponse` is built on it. */
function ListResponseEnvelope() {
  return pathOperations((op, ctx, pathItem) => {
    const params = allParameters(op, pathItem, ctx);
    const paginated = params.some((p) => p?.in === 'query' && (p.name === 'limit' || p.name === 'cursor'));
    const ok = deref(op.responses?.['200'], ctx);
    const schema = ok?.content?.['application/json']?.schema;
    const name = isRef(schema) ? refName(schema.$ref) : undefined;
    if (paginated) {
      const hasBoth = ['limit', 'cursor'].every((n) => params.some((p) => p?.in === 'query' && p.name === n));
      if (!hasBoth || !name?.endsWith('ListResponse') || !usesListEnvelope(schema, ctx)) {
        ctx.report({
          message: `A paginated operation takes both \`limit\` and \`cursor\` and answers 200 with a \`<Name>ListResponse\` that is \`allOf\` the ListEnvelope (${GUIDE}).`,
          location: ctx.location.key(),
        });
      } else if (!ownsData(schema, ctx)) {
        ctx.report({
          message: `\`${name}\` declares its \`data\` array, required, in its own \`allOf\` member; the ListEnvelope declares none (${GUIDE}).`,
          location: ctx.location.key(),
        });
      }
    } else if (name?.endsWith('ListResponse') && !usesListEnvelope(schema, ctx) && !isDataOnlyList(schema, ctx)) {
      ctx.report({
        message: `\`${name}\` must be \`allOf\` the ListEnvelope, or a bounded \`{data}\` object for an unpaginated list (${GUIDE}).`,
        location: ctx.location.key(),
      });
    }
  });
}

/** Money-moving POSTs (TRANSACT, or an agent's transfer/quote permission) take the shared Idempotency-Key header. */
function MoneyMovementIdempotencyKey() {
  return pathOperations((op, ctx, pathItem) => {
    if (ctx.key !== 'post') return;
    const moves = op['x-permission'] === 'TRANSACT' || MONEY_AGENT_PERMISSIONS.includes(op['x-agent-permission']);
    // A POST answering 201 creates something: a retry must not create it twice.
    const creates = Object.keys(op.responses ?? {}).includes('201');
    if (!moves && !creates) return;
    const refs = [...(pathItem?.parameters ?? []), ...(op.parameters ?? [])].filter(isRef).map((p) => refName(p.$ref));
    if (!refs.includes('IdempotencyKey')) {
      ctx.report({
        message: `A POST that ${moves ? 'moves money' : 'creates something (201)'} must reference the shared \`IdempotencyKey\` header parameter (${GUIDE}).`,
        location: ctx.location.key(),
      });
    }
  });
}

/** Every 4xx/5xx response has a JSON body whose schema is `Error<status>`. */
function ErrorResponsesUseErrorSchema() {
  return pathOperations((op, ctx) => {
    for (const [code, raw] of Object.entries(op.responses ?? {})) {
      if (!/^[45]\d\d$/.test(code)) continue;
      const schema = deref(raw, ctx)?.content?.['application/json']?.schema;
      // An area may narrow its own codes in a schema of its own (SandboxError409), so that adding
      // one changes no other operation's enum.
      if (!isRef(schema) || !new RegExp(`^([A-Z][a-z]+)?Error${code}$`).test(refName(schema.$ref))) {
        ctx.report({
          message: `Response ${code} must have an application/json body with schema \`Error${code}\` or an area's \`<Area>Error${code}\` (${GUIDE}).`,
          location: ctx.location.child(['responses', code]).key(),
        });
      }
    }
  });
}

/** An operation that takes any input (parameters or a body) documents how it rejects bad input: 400. */
function InputValidationResponse() {
  return pathOperations((op, ctx, pathItem) => {
    const takesInput = (pathItem?.parameters ?? []).length > 0 || (op.parameters ?? []).length > 0 || op.requestBody !== undefined;
    if (takesInput && op.responses?.['400'] === undefined) {
      ctx.report({
        message: `An operation with parameters or a request body documents \`400\` for invalid input (${GUIDE}).`,
        location: ctx.location.child(['responses']).key(),
      });
    }
  });
}

/**
 * What the server answers before any operation's own logic runs is documented on every operation
 * it applies to: `413` and `415` where there is a request body (size and media type), `429` where
 * HTTP Basic is accepted (too many failed authentications).
 */
function TransportErrorResponses() {
  return pathOperations((op, ctx) => {
    const basic = (op.security ?? []).some((s) => s && 'basicAuth' in s);
    const needed = [...(op.requestBody !== undefined ? ['413', '415'] : []), ...(basic ? ['429'] : [])];
    const missing = needed.filter((code) => op.responses?.[code] === undefined);
    if (missing.length > 0) {
      ctx.report({
        message: `Document ${missing.join(', ')}: every operation with a body answers 413 and 415, every Basic operation 429 (${GUIDE}).`,
        location: ctx.location.child(['responses']).key(),
      });
    }
  });
}

/** Every request body and every response body has at least one named example. */
function MediaTypesHaveNamedExamples() {
  const checkContent = (content, ctx, where) => {
    for (const [type, media] of Object.entries(content ?? {})) {
      const examples = media?.examples;
      if (!examples || typeof examples !== 'object' || Object.keys(examples).length === 0) {
        ctx.report({
          message: `${where} (${type}) needs at least one named example under \`examples\` (${GUIDE}).`,
          location: ctx.location.key(),
        });
      }
    }
  };
  const check = (op, ctx) => {
    checkContent(deref(op.requestBody, ctx)?.content, ctx, 'The request body');
    for (const [code, raw] of Object.entries(op.responses ?? {})) {
      checkContent(deref(raw, ctx)?.content, ctx, `Response ${code}`);
    }
  };
  return {
    Paths: { PathItem: { Operation: check } },
    WebhooksMap: { PathItem: { Operation: check } },
  };
}

/** `x-state-machine` names only values of the schema's enum, and reaches every one of them. */
function StateMachineValid() {
  return {
    Schema(schema, ctx) {
      const machine = schema['x-state-machine'];
      if (machine === undefined) return;
      const report = (message) => ctx.report({ message: `${message} (${GUIDE}).`, location: ctx.location.child(['x-state-machine']) });
      if (!Array.isArray(schema.enum)) return report('`x-state-machine` belongs on a schema with an `enum`');
      const states = new Set(schema.enum);
      const initial = machine.initial ?? [];
      const terminal = machine.terminal ?? [];
      const transitions = machine.transitions ?? [];
      if (!Array.isArray(initial) || initial.length === 0) return report('`x-state-machine.initial` lists at least one state');
      const named = [...initial, ...terminal, ...transitions.flatMap((t) => [t.from, t.to])];
      for (const s of named) if (!states.has(s)) report(`State \`${s}\` is not a value of the enum`);
      for (const t of transitions) {
        if (typeof t.trigger !== 'string' || t.trigger.length === 0) report(`Transition ${t.from} -> ${t.to} needs a \`trigger\``);
        if (terminal.includes(t.from)) report(`Terminal state \`${t.from}\` cannot have an outgoing transition`);
      }
      const reached = new Set([...initial, ...transitions.map((t) => t.to)]);
      for (const s of states) if (!reached.has(s)) report(`State \`${s}\` is neither initial nor reached by a transition`);
    },
  };
}

export default function houseRules() {
  return {
    id: 'house',
    rules: {
      oas3: {
        'operation-id-verb-noun': OperationIdVerbNoun,
        'operation-declares-access': OperationDeclaresAccess,
        'no-inline-schemas': NoInlineSchemas,
        'property-names-camel-case': PropertyNamesCamelCase,
        'parameter-names-camel-case': ParameterNamesCamelCase,
        'enum-values-upper-snake-case': EnumValuesUpperSnakeCase,
        'number-format': NumberFormat,
        'list-response-envelope': ListResponseEnvelope,
        'money-movement-idempotency-key': MoneyMovementIdempotencyKey,
        'error-responses-use-error-schema': ErrorResponsesUseErrorSchema,
        'input-validation-response': InputValidationResponse,
        'transport-error-responses': TransportErrorResponses,
        'media-types-have-named-examples': MediaTypesHaveNamedExamples,
        'state-machine-valid': StateMachineValid,
      },
    },
  };
}

