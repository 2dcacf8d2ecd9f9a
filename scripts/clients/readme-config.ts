// The oapi-codegen configuration clients/README.md tells teams to use, read from the README itself,
// so that `npm run check:clients` generates the Go client with the README's configuration and
// command as written: the fenced YAML block after MARKER, which must be the same configuration as
// clients/go-oapi-codegen/oapi-codegen.yaml (the file a team copies), and the README's command line.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import { CLIENTS } from './tools.ts';

export const README = join(CLIENTS, 'README.md');
export const CONFIG_FILE = join(CLIENTS, 'go-oapi-codegen', 'oapi-codegen.yaml');
/** The comment in the README right before the configuration's YAML block. */
export const MARKER = '<!-- oapi-codegen.yaml: npm run check:clients generates the Go client with this block -->';
/** The README's command, after `$SPEC` and the file names are put in. */
export const README_COMMAND = 'go tool oapi-codegen -config oapi-codegen.yaml -o payments.gen.go $SPEC';

export type ReadmeConfig = { ok: true; yaml: string } | { ok: false; problem: string };

/** The README's block, or what is wrong with it: missing, not the committed file's configuration, or its command gone. */
export function readmeOapiCodegenConfig(readme = readFileSync(README, 'utf8'), committed = readFileSync(CONFIG_FILE, 'utf8')): ReadmeConfig {
  const at = readme.indexOf(MARKER);
  if (at < 0) return { ok: false, problem: `clients/README.md has no "${MARKER}" before the oapi-codegen configuration` };
  const block = /^\s*```yaml\n([\s\S]*?)\n```/.exec(readme.slice(at + MARKER.length));
  if (block?.[1] === undefined) return { ok: false, problem: 'clients/README.md: no ```yaml block right after the oapi-codegen marker' };
  const yaml = `${block[1]}\n`;
  if (!isDeepStrictEqual(parse(yaml), parse(committed))) {
    return { ok: false, problem: 'the oapi-codegen configuration in clients/README.md is not the one in clients/go-oapi-codegen/oapi-codegen.yaml: make them the same' };
  }
  if (!readme.includes(README_COMMAND)) return { ok: false, problem: `clients/README.md no longer runs oapi-codegen as \`${README_COMMAND}\`, the command the check runs` };
  return { ok: true, yaml };
}
