// Queries built and compiled once per shape, then sent with each call's values. kysely builds a
// tree of frozen nodes for every query and compiles it to SQL again on every call, a large share
// of a list request's CPU (filters, the count subquery, the cursor, the order: bench/README.md).
//
// A template's `build` gets placeholders instead of values: each present parameter is a `Slot`
// that kysely passes through as a query parameter, and an absent one is undefined. The first call
// of a shape builds and compiles the query; later calls of that shape only put their values where
// the slots landed. The shape is which parameters are present, plus the `variant` the caller names
// (a sort order, say): `build` may branch on those and on nothing else of the call, which is why
// templates are declared once, at module level, where they capture no call's values.
//
// A value the query holds that did not come from a slot would be sent to every later call: a
// captured id, a clock reading. Compiling refuses that, and a parameter its query never sends.
import { CompiledQuery } from 'kysely';
import type { Db } from './database.ts';

/** A template's parameters by name: an interface or a type literal. */
export type TemplateParams = object;

/** What kysely sees in place of a parameter's value while a template is built. */
class Slot {
  readonly key: string;
  constructor(key: string) {
    this.key = key;
  }
}

interface Compiled {
  sql: string;
  /** For each parameter of `sql`, in order, the key of the value that goes there. */
  keys: string[];
}

/** Its variant is an argument only when the template has variants. */
export type QueryTemplate<P extends TemplateParams, V extends string, R> = (db: Db, params: P, ...variant: V extends '' ? [] : [V]) => CompiledQuery<R>;

/** A query builder: its result type is the template's `R`, which the caller states. */
type Buildable = { compile(): CompiledQuery<unknown> };

export function queryTemplate<P extends TemplateParams, R, V extends string = ''>(
  build: (db: Db, p: P, variant: V) => Buildable,
): QueryTemplate<P, V, R> {
  const shapes = new Map<string, Compiled>();
  return (db, params, ...rest) => {
    const variant = ((rest as V[])[0] ?? '') as V;
    const values = params as Record<string, unknown>;
    let key: string = variant;
    for (const name in values) if (values[name] !== undefined) key += `|${name}`;
    let compiled = shapes.get(key);
    if (compiled === undefined) {
      compiled = compile(build, db, params, variant);
      shapes.set(key, compiled);
    }
    const parameters = new Array<unknown>(compiled.keys.length);
    for (let i = 0; i < parameters.length; i++) parameters[i] = values[compiled.keys[i] as string];
    return CompiledQuery.raw(compiled.sql, parameters) as CompiledQuery<R>;
  };
}

function compile<P extends TemplateParams, V extends string>(build: (db: Db, p: P, variant: V) => Buildable, db: Db, params: P, variant: V): Compiled {
  const slots: Record<string, Slot> = {};
  for (const [name, value] of Object.entries(params)) if (value !== undefined) slots[name] = new Slot(name);
  const query = build(db, slots as P, variant).compile();
  const keys = query.parameters.map((value, i) => {
    if (!(value instanceof Slot)) throw new Error(`query template: parameter $${i + 1} of "${query.sql}" is a value of the template, not of the call`);
    return value.key;
  });
  const unsent = Object.keys(slots).filter((name) => !keys.includes(name));
  if (unsent.length > 0) throw new Error(`query template: "${query.sql}" does not send ${unsent.join(', ')}`);
  return { sql: query.sql, keys };
}

/** The template's first row for these values, or undefined: a lookup by key. */
export async function firstRow<P extends TemplateParams, R>(db: Db, template: QueryTemplate<P, '', R>, params: P): Promise<R | undefined> {
  return (await db.executeQuery(template(db, params))).rows[0];
}
