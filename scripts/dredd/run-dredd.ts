// The core of the dredd oracle, shared by the runner (scripts/dredd.ts) and its self-test: run
// dredd in this process on a spec against a base URL with the contract's hooks, and count.
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { operations } from '../../contract-tests/support/spec.ts';
import { contractHooks, UNTESTABLE_ON_SERVER, type HookOptions } from './contract-hooks.ts';

const require = createRequire(import.meta.url);

/**
 * Waits for apiaryio/dredd#1813 (open; dredd is no longer maintained): before the hooks load,
 * dredd deep-copies the runner's configuration into `hooks.configuration`, every parsed API
 * description with it, and the copy's bookkeeping of circular references is quadratic: 17 of the
 * 22 s of one run on this spec (bench/README.md, "Dependency patches"). The hooks read only
 * `hooks.configuration.endpoint`. The descriptions stay on the configuration, read as before, but
 * not enumerable, so the copy (of enumerable properties) leaves them out. Written against dredd
 * 14.1.0; contract-tests/static/dependency-patches.test.ts fails when dredd's files change.
 */
function skipCopyingApiDescriptions(): void {
  const { default: TransactionRunner } = require('dredd/build/TransactionRunner') as { default: { prototype: { config(configuration: Record<string, unknown>): void } } };
  const original = TransactionRunner.prototype.config;
  if ((original as { skipsCopy?: true }).skipsCopy) return;
  const config = Object.assign(function config(this: unknown, configuration: Record<string, unknown>) {
    Object.defineProperty(configuration, 'apiDescriptions', { value: configuration.apiDescriptions, enumerable: false, writable: true, configurable: true });
    original.call(this, configuration);
  }, { skipsCopy: true as const });
  TransactionRunner.prototype.config = config;
}
const HOOKS_KEY = Symbol.for('payments-service.dredd-hooks');
export const hookFile = resolve(import.meta.dirname, 'hooks.cjs');
export const spec30 = resolve(import.meta.dirname, '..', '..', 'generated', 'openapi-3.0.yaml');

interface DreddStats {
  tests: number;
  passes: number;
  failures: number;
  errors: number;
  skipped: number;
}
interface DreddTest {
  title?: string;
  message?: string;
  request?: { method: string; uri: string };
  expected?: { statusCode?: string };
}

/** A test's request as sent (its title has the URI from the spec's examples, before the hooks). */
const describeTest = (test: DreddTest) => (test.request === undefined ? (test.title ?? '?') : `${test.request.method} (${test.expected?.statusCode ?? '?'}) ${test.request.uri}`);
type DreddClass = new (config: Record<string, unknown>) => { run(callback: (error: Error | null, stats: DreddStats) => void): void };

export interface DreddResult {
  passed: number;
  failed: number;
  /** Successful statuses skipped because the hooks list them as untestable on the server. */
  skippedListed: number;
  /** Response bodies checked against the 3.1 schema. */
  bodiesChecked: number;
  /** What failed, one line each: `METHOD (status) path: message`. */
  failures: string[];
}

/** Runs dredd on `spec` (a 3.0 file) against `options.baseUrl` with the contract hooks. */
export async function runDredd(options: HookOptions & { spec?: string }): Promise<DreddResult> {
  const Dredd = (require('dredd') as { default?: DreddClass } & DreddClass).default ?? (require('dredd') as DreddClass);
  skipCopyingApiDescriptions();
  // dredd's reporters print a line per transaction (hundreds of skipped error statuses): silenced,
  // failures are collected from the events instead.
  const reporterLogger = require('dredd/build/reporters/reporterOutputLogger') as { default: { transports: { console: { silent: boolean } } } };
  reporterLogger.default.transports.console.silent = true;
  const { register, counts } = contractHooks(options);
  const emitter = new EventEmitter();
  const failures: string[] = [];
  emitter.on('test fail', (test: DreddTest) => failures.push(`${describeTest(test)}: ${(test.message ?? '').trim()}`));
  emitter.on('test error', (error: Error, test: DreddTest) => failures.push(`${describeTest(test)}: error: ${error.message}`));

  // Keyed by endpoint, so runs against different targets can go at the same time.
  const registry = ((globalThis as Record<symbol, unknown>)[HOOKS_KEY] ??= new Map()) as Map<string, typeof register>;
  if (registry.has(options.baseUrl)) throw new Error(`dredd is already running against ${options.baseUrl}`);
  registry.set(options.baseUrl, register);
  try {
    const stats = await new Promise<DreddStats>((done, fail) => {
      new Dredd({ endpoint: options.baseUrl, path: [options.spec ?? spec30], hookfiles: [hookFile], loglevel: 'error', color: false, emitter }).run((error, result) =>
        error === null || error === undefined ? done(result) : fail(error),
      );
    });
    // Every successful status of every operation (of `only`) must have been run, or be listed.
    const notRun = operations
      .filter((o) => options.only === undefined || options.only.includes(o.operation.operationId))
      .flatMap((o) => Object.keys(o.operation.responses).filter((s) => s.startsWith('2')).map((s) => `${o.operation.operationId} ${s}`))
      .filter((key) => !counts.run.has(key) && !(options.kind === 'server' && key in UNTESTABLE_ON_SERVER));
    for (const key of notRun) failures.push(`${key}: never run (dredd made no transaction for it)`);
    const skippedByHooks = counts.listed + counts.errorStatuses + counts.filtered;
    if (stats.skipped !== skippedByHooks) {
      failures.push(`dredd skipped ${stats.skipped} transactions, the hooks ${skippedByHooks}: something was skipped without a reason`);
    }
    return {
      passed: stats.passes,
      failed: stats.failures + stats.errors + (stats.skipped === skippedByHooks ? 0 : 1) + notRun.length,
      skippedListed: counts.listed,
      bodiesChecked: counts.bodiesChecked,
      failures,
    };
  } finally {
    registry.delete(options.baseUrl);
  }
}
