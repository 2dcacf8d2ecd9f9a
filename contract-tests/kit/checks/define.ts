// Shorthands for writing checks: `check(id, about, run)` with the defaults most checks take (they
// need state), and helpers the area files share.
import type { Check, Need } from '../check.ts';
import type { Reply } from '../http.ts';
import type { Page } from '../fixtures.ts';
import type { World } from '../world.ts';

export interface About {
  operations: string[];
  status?: number;
  rule: string;
  tags?: string[];
  /** Default: `['state']`. */
  needs?: Need[];
  timeoutMs?: number;
}

/** A check of the area named by the first part of its id. */
export function check(id: string, about: About, run: (t: World) => Promise<void>): Check {
  const area = id.split('.')[0] ?? id;
  return {
    id,
    operations: about.operations,
    ...(about.status === undefined ? {} : { status: about.status }),
    rule: about.rule,
    tags: [...new Set([area, ...(about.tags ?? [])])],
    needs: about.needs ?? ['state'],
    ...(about.timeoutMs === undefined ? {} : { timeoutMs: about.timeoutMs }),
    run,
  };
}

/** A path segment. */
export const enc = (value: string): string => encodeURIComponent(value);

/** A list's page, checked to be 200. */
export const page = <T>(t: World, reply: Reply, rule: string): Page<T> => t.expect<Page<T>>(reply, 200, rule);

/** The ids of a list's items. */
export const ids = (items: { id: string }[]): string[] => items.map((i) => i.id);
