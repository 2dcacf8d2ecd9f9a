// Java: `javac` of the models into the scratch folder, every lint warning an error.
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { JVM_FLAGS } from '../jvm-flags.ts';
import { excerpt, execute } from './toolchain.ts';

export function checkJava(models: string, scratch: string): { problems: string[] } {
  const classes = join(scratch, 'java-classes');
  mkdirSync(classes, { recursive: true });
  const sources = readdirSync(models).filter((f) => f.endsWith('.java')).map((f) => join(models, f));
  const compiled = execute('javac', [...JVM_FLAGS.map((f) => `-J${f}`), '-d', classes, '-Xlint:all', '-Werror', ...sources], { cwd: scratch });
  return { problems: compiled.ok ? [] : [`javac failed:\n${excerpt(compiled)}`] };
}
