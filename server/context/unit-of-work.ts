// One database transaction with its after-commit work: the tasks a service hands to `afterCommit`
// run only once the transaction has committed, and never when it rolled back. A failing task is
// logged; it cannot undo a commit, so it must not fail the request or the job either. A transaction
// that met a deadlock, a serialization failure or statements made stale by a schema change runs
// again (db/transaction-retry.ts).
import type { Kysely } from 'kysely';
import type { Runtime, ServiceContext } from './context.ts';
import type { Database } from '../db/schema.ts';
import { retryTransaction } from '../db/transaction-retry.ts';

type Task = () => void | Promise<void>;

export async function runTasks(runtime: Pick<Runtime, 'log'>, tasks: Task[]): Promise<void> {
  for (const task of tasks) {
    try {
      await task();
    } catch (err) {
      runtime.log.error({ err }, 'after-commit task failed');
    }
  }
}

/** A context whose `afterCommit` collects tasks for the caller to run (or drop). */
export function collectingContext(runtime: Runtime, db: ServiceContext['db']): { ctx: ServiceContext; tasks: Task[] } {
  const tasks: Task[] = [];
  return { ctx: { ...runtime, db, afterCommit: (task) => void tasks.push(task) }, tasks };
}

export async function unitOfWork<T>(runtime: Runtime, db: Kysely<Database>, work: (ctx: ServiceContext) => Promise<T>): Promise<T> {
  let tasks: Task[] = [];
  const result = await retryTransaction(() =>
    db.transaction().execute(async (trx) => {
      const collected = collectingContext(runtime, trx);
      tasks = collected.tasks;
      return work(collected.ctx);
    }),
  );
  await runTasks(runtime, tasks);
  return result;
}
