// `npm run fetch:tools`: everything check:clients and check:samples download from a registry,
// fetched ahead of them (.ci/run runs it beside `npm test`, while the machine's cores are busy and
// its network idle): openapi-generator's jar, the virtualenv, the Java flow's Maven dependencies and
// plugins, the Go flows' modules. Installing compiles nothing but the virtualenv's bytecode; the
// checks then reuse what is here (scripts/clients/tools.ts) and fetch only what a build picks
// itself. Prints a line per tool with its time; exits 1 if one could not be fetched (a language not
// installed yet is only reported: its check fetches the tool itself).
import { mkdirSync } from 'node:fs';
import { NOT_INSTALLED, tail } from './clients/command.ts';
import { prefetchGoModules, prefetchMaven, prepareGeneratorJar, preparePython, SCRATCH, type Prepared } from './clients/tools.ts';

mkdirSync(SCRATCH, { recursive: true });
const started = performance.now();
// Maven's two one after the other (one local repository), beside pip and go.
const fetched: Prepared[] = (
  await Promise.all([
    (async () => [await prepareGeneratorJar(), await prefetchMaven()])(),
    preparePython().then((p) => [p]),
    prefetchGoModules().then((p) => [p]),
  ])
).flat();
let failed = false;
for (const prepared of fetched) {
  const ok = prepared.reused || prepared.ran?.ok === true;
  // The setup may still be installing the language beside this.
  const missing = !ok && prepared.ran?.output.includes(NOT_INSTALLED) === true;
  console.log(`tools: ${prepared.what}: ${prepared.reused ? 'already there' : ok ? `fetched (${prepared.ran?.seconds.toFixed(1)} s)` : missing ? `not fetched: ${prepared.ran?.line.split(' ')[0]} is not installed` : 'FAILED'}`);
  if (!ok && !missing && prepared.ran !== undefined) {
    console.error(tail(prepared.ran));
    failed = true;
  }
}
console.log(`tools: ${((performance.now() - started) / 1000).toFixed(1)} s in all`);
process.exit(failed ? 1 : 0);
