// `npm run check:clients` generates oapi-codegen's Go client with the configuration clients/README.md
// shows, as written (scripts/clients/readme-config.ts): the README's block must be the committed
// clients/go-oapi-codegen/oapi-codegen.yaml, and the README must still run the command the check runs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_FILE, MARKER, README, README_COMMAND, readmeOapiCodegenConfig } from '../../scripts/clients/readme-config.ts';

const readme = readFileSync(README, 'utf8');
const committed = readFileSync(CONFIG_FILE, 'utf8');

describe("clients/README.md's oapi-codegen configuration", () => {
  it('is the committed one, with oapi-codegen\'s defaults (no output-options, so pruning is on) and the enum prefix option', () => {
    const config = readmeOapiCodegenConfig(readme, committed);
    expect(config.ok).toBe(true);
    expect(parse(config.ok ? config.yaml : '')).toEqual({ package: 'payments', generate: { models: true, client: true }, compatibility: { 'always-prefix-enum-values': true } });
  });

  it('fails when the README shows another configuration, has no marked block, or no longer runs the command', () => {
    const withSkipPrune = readme.replace(`${MARKER}\n\`\`\`yaml\n`, `${MARKER}\n\`\`\`yaml\noutput-options:\n  skip-prune: true\n`);
    expect(withSkipPrune).not.toBe(readme);
    expect(readmeOapiCodegenConfig(withSkipPrune, committed)).toMatchObject({ ok: false, problem: expect.stringContaining('not the one in clients/go-oapi-codegen/oapi-codegen.yaml') });
    expect(readmeOapiCodegenConfig(readme.replace(MARKER, ''), committed)).toMatchObject({ ok: false, problem: expect.stringContaining('has no') });
    expect(readmeOapiCodegenConfig(readme.replace(README_COMMAND, 'go tool oapi-codegen -config oapi-codegen.yaml $SPEC'), committed)).toMatchObject({ ok: false, problem: expect.stringContaining('no longer runs') });
  });
});
