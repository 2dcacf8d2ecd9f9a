// The server as `npm start` runs it (server/main.ts), with the dependency patches named on the
// command line left out: `npm run bench:patches` prices each patch against the server with all.
import { applyDependencyPatches, DEPENDENCY_PATCHES, type DependencyPatch } from '../../server/dependency-patches/index.ts';

const leaveOut = process.argv.slice(2);
const unknown = leaveOut.filter((name) => !(name in DEPENDENCY_PATCHES));
if (unknown.length > 0) throw new Error(`no such dependency patch: ${unknown.join(', ')} (known: ${Object.keys(DEPENDENCY_PATCHES).join(', ')})`);
// Before the server applies them: the first call is the one that counts.
applyDependencyPatches(leaveOut as DependencyPatch[]);
await import('../../server/main.ts');
