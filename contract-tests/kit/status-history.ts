// Statuses move only along their state machine (each status schema's `x-state-machine` in the
// bundle): every status the kit reads of an object is recorded, whichever check read it, and a read
// that shows a status the earlier ones cannot lead to breaks the machine (COMPLETED, then
// PROCESSING). Only reads that started after an earlier one was answered are compared, so two
// requests in flight at once never raise a false alarm.
import { bundle } from './bundle.ts';
import type { Reply } from './reply.ts';

interface Machine {
  name: string;
  /** Each status and the statuses it can lead to, itself included. */
  reach: Map<string, Set<string>>;
}

type Schema = { properties?: Record<string, { $ref?: string; pattern?: string }>; 'x-state-machine'?: { transitions: { from: string; to: string }[] }; enum?: string[] };

/** The machines, by the type prefix of the ids of the objects they move (`Transaction`). */
function machines(): Map<string, Machine> {
  const schemas = (bundle.components as { schemas: Record<string, Schema> }).schemas;
  const out = new Map<string, Machine>();
  for (const schema of Object.values(schemas)) {
    const ref = schema.properties?.status?.$ref;
    const prefix = /^\^([A-Z][A-Za-z]*):/.exec(schema.properties?.id?.pattern ?? '')?.[1];
    const name = ref?.split('/').at(-1) ?? '';
    const spec = schemas[name]?.['x-state-machine'];
    if (prefix === undefined || spec === undefined) continue;
    const next = new Map<string, string[]>();
    for (const { from, to } of spec.transitions) next.set(from, [...(next.get(from) ?? []), to]);
    const reach = new Map<string, Set<string>>();
    for (const status of schemas[name]?.enum ?? []) {
      const seen = new Set([status]);
      for (const s of seen) for (const n of next.get(s) ?? []) seen.add(n);
      reach.set(status, seen);
    }
    out.set(prefix, { name, reach });
  }
  return out;
}

interface Read {
  status: string;
  sentAt: number;
  answeredAt: number;
}

/** Why a status read breaks its machine: the rule and what was read. */
export interface StatusRegression {
  rule: string;
  problem: string;
}

export class StatusHistory {
  private readonly machines = machines();
  private readonly reads = new Map<string, Read[]>();

  /** Records the statuses an answer shows (its body, or its list's items); the first regression, if any. */
  see(reply: Reply, sentAt: number, answeredAt: number): StatusRegression | undefined {
    if (reply.status >= 300) return undefined;
    const body = reply.body as { data?: unknown } | undefined;
    const objects = Array.isArray(body?.data) ? body.data : [body];
    let found: StatusRegression | undefined;
    for (const object of objects) {
      const { id, status } = (object ?? {}) as { id?: unknown; status?: unknown };
      if (typeof id !== 'string' || typeof status !== 'string') continue;
      const machine = this.machines.get(id.split(':')[0] ?? '');
      if (machine === undefined) continue;
      const reads = this.reads.get(id) ?? [];
      const before = reads.filter((r) => r.answeredAt <= sentAt);
      const back = before.find((r) => !(machine.reach.get(r.status)?.has(status) ?? true));
      reads.push({ status, sentAt, answeredAt });
      this.reads.set(id, reads);
      if (back !== undefined && found === undefined) {
        found = {
          rule: `a status moves only along its state machine, never back (spec: ${machine.name}, x-state-machine): nothing leads from ${back.status} to ${status}`,
          problem: `the statuses read of ${id}, in order: ${reads.map((r) => r.status).join(', ')}`,
        };
      }
    }
    return found;
  }
}
