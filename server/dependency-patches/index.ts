// The run-time patches of express-openapi-validator's internals, applied once per process before
// the validator is built (README.md here: what each replaces, the upstream issue it waits for, the
// version it was written for; contract-tests/static/dependency-patches.test.ts fails when the
// dependency changes under them).
import { memoizeValidatorParameterParsing } from './parameter-parsing-memo.ts';
import { indexValidatorRouteLookup } from './route-lookup-index.ts';
import { cacheValidatorRouteMatchers } from './route-matcher-cache.ts';
import { lightenValidatorStart } from './validator-startup.ts';

/** The express-openapi-validator version every patch was written for and checked against. */
export const PATCHED_VALIDATOR_VERSION = '5.6.2';

export const DEPENDENCY_PATCHES = {
  'route-matcher-cache': cacheValidatorRouteMatchers,
  'route-lookup-index': indexValidatorRouteLookup,
  'parameter-parsing-memo': memoizeValidatorParameterParsing,
  'validator-startup': lightenValidatorStart,
} as const;

export type DependencyPatch = keyof typeof DEPENDENCY_PATCHES;

let applied = false;

/**
 * Applies every patch, once per process: they change the dependency's own modules, which every
 * app of the process shares. `leftOut` is for `npm run bench -- --patches` only (its entry,
 * scripts/bench/server-without-patches.ts, calls this before the server does), which prices each
 * patch by leaving it out.
 */
export function applyDependencyPatches(leftOut: readonly DependencyPatch[] = []): void {
  if (applied) return;
  applied = true;
  for (const [name, apply] of Object.entries(DEPENDENCY_PATCHES)) if (!leftOut.includes(name as DependencyPatch)) apply();
}
