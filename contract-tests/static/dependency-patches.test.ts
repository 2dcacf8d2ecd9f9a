// server/dependency-patches/ replaces functions inside express-openapi-validator (and its copy of
// path-to-regexp) at run time. Each patch was written against one version of those files and checks
// little at start, so this fails loudly when the dependency changes under it: another version
// installed, a patched file that is not byte for byte the one the patch was written for, a patched
// function gone. Whoever sees it fails reviews the patch named in the message against the new code
// (server/dependency-patches/README.md: drop it if upstream fixed what it works around), then
// updates the version or the digest here.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyDependencyPatches, DEPENDENCY_PATCHES, PATCHED_VALIDATOR_VERSION, type DependencyPatch } from '../../server/dependency-patches/index.ts';

const root = resolve(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const dist = dirname(require.resolve('express-openapi-validator'));
const pathToRegexpFile = require.resolve('path-to-regexp', { paths: [dist] });
const packageOf = (file: string, name: string) => JSON.parse(readFileSync(join(file.slice(0, file.lastIndexOf(`/node_modules/${name}/`)), 'node_modules', name, 'package.json'), 'utf8')) as { version: string };

/** The dependency files each patch replaces functions of, or relies on the behaviour of, with the SHA-256 of the version it was written for. */
const PATCHED_FILES: Record<DependencyPatch, Record<string, string>> = {
  'route-matcher-cache': {
    'path-to-regexp/dist/index.js': 'f8e7946ca3a4dcc2ed1ea46e3bcffaef014e4abc359a7469a16817f1f79df62f',
    'middlewares/openapi.metadata.js': 'c03c297d5d40e61001e1a96452b678e3c04553643287fcb57960d66167956af0',
  },
  'route-lookup-index': {
    'openapi.validator.js': '4aeeccbf0932a2c1978aac7a82e1c6c6b48ac7925709c3b318a65b77e20d8f99',
    'middlewares/openapi.metadata.js': 'c03c297d5d40e61001e1a96452b678e3c04553643287fcb57960d66167956af0',
  },
  'parameter-parsing-memo': {
    'middlewares/parsers/util.js': '725ab2f8aa5f3289c4a3795b993ff9d5c464cf19a83548a1e78f46081a5aad49',
    'middlewares/parsers/req.parameter.mutator.js': '47fd274775ad50f8dba34b87249c774a28a4c02b2be2f76aff4fc7a126dde812',
  },
  'validator-startup': {
    'middlewares/parsers/schema.preprocessor.js': 'dcef0a737e5a462a2a8f2475d144ecd56cbb6a9a167ec15d259da0103217d9ae',
    'framework/openapi.schema.validator.js': '0342a40615a0063398b956e3dcbdd74381fd137706e57b3747442ac8c2f928ea',
    'framework/index.js': '306d98bd75b07ca906cfd9e90ea84ada86773891efa5b363016373a5a9e061f8',
  },
};
const PATH_TO_REGEXP_VERSION = '8.4.2';

const fileOf = (name: string) => (name.startsWith('path-to-regexp/') ? pathToRegexpFile : join(dist, name));
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

type Fn = (...args: never[]) => unknown;
const load = <T>(name: string) => require(fileOf(name)) as T;

/** The functions each patch replaces or wraps, as the dependency exports them (already patched or not: either way a function). */
const PATCHED_FUNCTIONS: Record<DependencyPatch, () => Record<string, unknown>> = {
  'route-matcher-cache': () => ({ pathToRegexp: load<{ pathToRegexp: Fn }>('path-to-regexp/dist/index.js').pathToRegexp }),
  'route-lookup-index': () => ({ 'OpenApiValidator.prototype.metadataMiddleware': load<{ OpenApiValidator: { prototype: { metadataMiddleware: Fn } } }>('openapi.validator.js').OpenApiValidator.prototype.metadataMiddleware }),
  'parameter-parsing-memo': () => {
    const util = load<Record<string, Fn>>('middlewares/parsers/util.js');
    const mutator = load<{ RequestParameterMutator: { prototype: Record<string, Fn> } }>('middlewares/parsers/req.parameter.mutator.js').RequestParameterMutator.prototype;
    return {
      dereferenceParameter: util.dereferenceParameter,
      normalizeParameter: util.normalizeParameter,
      'RequestParameterMutator.prototype.modifyRequest': mutator.modifyRequest,
      'RequestParameterMutator.prototype.isObjectOrXOf': mutator.isObjectOrXOf,
      'RequestParameterMutator.prototype.handleBracketNotationQueryFields': mutator.handleBracketNotationQueryFields,
    };
  },
  'validator-startup': () => ({
    'SchemaPreprocessor.prototype.resolveSchema': load<{ SchemaPreprocessor: { prototype: { resolveSchema: Fn } } }>('middlewares/parsers/schema.preprocessor.js').SchemaPreprocessor.prototype.resolveSchema,
    OpenAPISchemaValidator: load<{ OpenAPISchemaValidator: Fn }>('framework/openapi.schema.validator.js').OpenAPISchemaValidator,
  }),
};

describe('the dependency patches stand on the code they were written for', () => {
  it(`express-openapi-validator is pinned to ${PATCHED_VALIDATOR_VERSION}, and that is the version installed`, () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
    expect({ ...manifest.dependencies, ...manifest.devDependencies }['express-openapi-validator'], 'package.json must pin the exact version the patches were written for').toBe(PATCHED_VALIDATOR_VERSION);
    expect(packageOf(join(dist, 'index.js'), 'express-openapi-validator').version).toBe(PATCHED_VALIDATOR_VERSION);
    expect(packageOf(pathToRegexpFile, 'path-to-regexp').version, "the validator's path-to-regexp (route-matcher-cache.ts)").toBe(PATH_TO_REGEXP_VERSION);
  });

  it('every patch is listed here, and every file it patches is the one it was written for', () => {
    expect(Object.keys(PATCHED_FILES).sort()).toEqual(Object.keys(DEPENDENCY_PATCHES).sort());
    const changed = Object.entries(PATCHED_FILES).flatMap(([patch, files]) =>
      Object.entries(files)
        .filter(([name, digest]) => sha256(fileOf(name)) !== digest)
        .map(([name]) => `${name} changed: review server/dependency-patches/${patch}.ts against it, then update its digest here`),
    );
    expect(changed).toEqual([]);
  });

  it('every function a patch replaces is still there', () => {
    const missing = Object.entries(PATCHED_FUNCTIONS).flatMap(([patch, functions]) =>
      Object.entries(functions())
        .filter(([, fn]) => typeof fn !== 'function')
        .map(([name]) => `${patch}: ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('applying them marks each patched, and applying one again changes nothing', () => {
    const util = load<{ memoized?: true }>('middlewares/parsers/util.js');
    const applied: Record<DependencyPatch, () => boolean> = {
      'route-matcher-cache': () => (PATCHED_FUNCTIONS['route-matcher-cache']().pathToRegexp as { memoized?: true }).memoized === true,
      'route-lookup-index': () => (PATCHED_FUNCTIONS['route-lookup-index']()['OpenApiValidator.prototype.metadataMiddleware'] as { indexed?: true }).indexed === true,
      'parameter-parsing-memo': () => util.memoized === true,
      'validator-startup': () => Object.values(PATCHED_FUNCTIONS['validator-startup']()).every((fn) => (fn as { light?: true }).light === true),
    };
    applyDependencyPatches();
    expect(Object.entries(applied).filter(([, isApplied]) => !isApplied()).map(([patch]) => patch)).toEqual([]);
    // Each patch keeps its own mark: a second copy of this module (another test file, another app) does not wrap the wrappers.
    for (const [patch, apply] of Object.entries(DEPENDENCY_PATCHES)) {
      const before = PATCHED_FUNCTIONS[patch as DependencyPatch]();
      apply();
      expect(PATCHED_FUNCTIONS[patch as DependencyPatch](), patch).toEqual(before);
    }
  });
});

// scripts/dredd/run-dredd.ts keeps dredd from copying every parsed API description before its
// hooks load (apiaryio/dredd#1813), by making them a non-enumerable property of the configuration
// that TransactionRunner.prototype.config receives; addHooks then copies what is left.
describe('the dredd patch stands on the code it was written for', () => {
  const dreddFile = (name: string) => require.resolve(`dredd/build/${name}`);
  it('dredd 14.1.0, its files as the patch read them', () => {
    expect(packageOf(dreddFile('Dredd.js'), 'dredd').version).toBe('14.1.0');
    expect({
      'addHooks.js': sha256(dreddFile('addHooks.js')),
      'TransactionRunner.js': sha256(dreddFile('TransactionRunner.js')),
      'Dredd.js': sha256(dreddFile('Dredd.js')),
    }, 'review scripts/dredd/run-dredd.ts (skipCopyingApiDescriptions) against the new files, then update the digests').toEqual({
      'addHooks.js': '6d89236e0e6a8c1801c5624584aa435371b13b349ebd601f0adea2a19eeb023c',
      'TransactionRunner.js': '790a7d2d35fc35f57659e79a52d0af135f32ec506d868ea57c87379adf83a3ea',
      'Dredd.js': '3e15042956db70082336bab204293f79675be7ba27020e4d181176d9eb14e320',
    });
    // What it relies on: the copy of the runner's configuration for the hooks, of enumerable properties only.
    expect(readFileSync(dreddFile('addHooks.js'), 'utf8')).toContain('runner.hooks.configuration = clone_1.default(runner.configuration);');
  });
});
