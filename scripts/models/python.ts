// Python: `python3 -m py_compile` of the models, then the round trip (round_trip.py) next to them.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseResults, type RoundTripCase, type RoundTripResults } from './round-trip.ts';
import { excerpt, execute, INSTALL } from './toolchain.ts';

export function checkPython(models: string, scratch: string, cases: RoundTripCase[], modelNames: string[]): { problems: string[]; results?: RoundTripResults } {
  const dir = join(scratch, 'python');
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(models, 'models.py'), join(dir, 'models.py'));
  // Every model needs its <model>_from_dict (snake case of the name; matched as round_trip.py matches it).
  const source = readFileSync(join(dir, 'models.py'), 'utf8');
  const fromDict = new Set([...source.matchAll(/^def (\w+)_from_dict\(/gm)].map((m) => (m[1] ?? '').replaceAll('_', '').toLowerCase()));
  const missing = modelNames.filter((name) => !fromDict.has(name.toLowerCase())).map((name) => `Python: no ${name} model (<name>_from_dict)`);
  copyFileSync(join(import.meta.dirname, 'round_trip.py'), join(dir, 'round_trip.py'));
  // The models parse date-times with python-dateutil, the one package they need besides the standard
  // library. A python3 first on PATH (pyenv, say) may lack it where Debian's python3-dateutil serves /usr/bin/python3.
  const python = ['python3', '/usr/bin/python3'].find((p) => execute(p, ['-c', 'import dateutil.parser'], { cwd: dir }).ok);
  if (python === undefined) return { problems: [...missing, `the Python models need python-dateutil (apt-get install ${INSTALL.dateutil})`] };
  const compiled = execute(python, ['-m', 'py_compile', 'models.py', 'round_trip.py'], { cwd: dir });
  if (!compiled.ok) return { problems: [...missing, `python3 -m py_compile failed:\n${excerpt(compiled)}`] };
  writeFileSync(join(dir, 'cases.json'), JSON.stringify(cases));
  const ran = execute(python, ['round_trip.py', 'cases.json'], { cwd: dir });
  if (!ran.ok) return { problems: [...missing, `the Python round trip failed:\n${excerpt(ran)}`] };
  return { problems: missing, results: parseResults(ran.stdout) };
}
