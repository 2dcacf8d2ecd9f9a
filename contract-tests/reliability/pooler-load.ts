// The load of issue 46: clients at once sending a fixed number of requests, one in three a
// POST /customers and the rest GET /customers?limit=5, to a cluster's processes in turn, while the
// pooler's counters are sampled. Answers the statuses and what the pooler saw at most.
import type { Cluster } from '../support/cluster.ts';
import type { ServerProcess } from '../support/server-process.ts';
import { tryCall } from './faults-helpers.ts';

export interface LoadResult {
  statuses: Record<string, number>;
  /** A few 5xx answers, for the failure message. */
  errors: string[];
  /** The most client connections the pooler held for the database at once, and server connections. */
  peak: { clients: number; waiting: number; servers: number };
}

export async function customersLoad(cluster: Cluster, clients: number, requests: number): Promise<LoadResult> {
  const pooler = cluster.pooler;
  const database = new URL(cluster.databaseUrl).pathname.slice(1);
  const statuses: Record<string, number> = {};
  const errors: string[] = [];
  const peak = { clients: 0, waiting: 0, servers: 0 };
  let done = false;
  const sampling = (async () => {
    while (!done && pooler !== undefined) {
      const pool = await pooler.show('pools', database);
      const n = (key: string) => Number(pool[key] ?? 0);
      peak.clients = Math.max(peak.clients, n('cl_active') + n('cl_waiting'));
      peak.waiting = Math.max(peak.waiting, n('cl_waiting'));
      peak.servers = Math.max(peak.servers, n('sv_active') + n('sv_idle') + n('sv_used') + n('sv_tested') + n('sv_login'));
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = next++; i < requests; i = next++) {
        const server = cluster.servers[i % cluster.servers.length] as ServerProcess;
        const reply =
          i % 3 === 0
            ? await tryCall(server, cluster.token, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: `Load Customer ${i}`, currencies: ['USD'] })
            : await tryCall(server, cluster.token, 'GET', '/customers?limit=5');
        statuses[reply.status] = (statuses[reply.status] ?? 0) + 1;
        if (reply.status >= 500 && errors.length < 5) errors.push(`${reply.status} ${reply.text.slice(0, 200)}`);
      }
    }),
  );
  done = true;
  await sampling;
  return { statuses, errors, peak };
}
