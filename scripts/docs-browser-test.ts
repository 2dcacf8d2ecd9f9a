// `npm run test:docs`: the API reference at `/docs`, rendered by a real browser (Debian's
// /usr/bin/chromium through playwright-core; nothing is downloaded). Starts the sandbox server
// (PGlite in memory), loads /docs with every request to anything but that server aborted (and
// counted: the page must make none), and checks what a reader sees against the bundle: every tag
// in the menu, every x-tagGroups name, every heading of info.description (the guides), and a fixed
// sample of operations (summary in the menu, section rendered, the token permission the operation
// needs, `x-permission` or `x-agent-permission`, shown in its Security block; each of its
// x-codeSamples a tab showing its source). No console errors.
// Saves screenshots to artifacts/ (docs.png: the first guide; docs-operation.png: an operation). Exit 1 with the list of what is missing.
// `DOCS_HTML=<file>` checks that page instead (served alone at /docs), e.g. a docs.html built
// with `redocly build-docs <bundle> -o <file> --inlineBundle` from a changed bundle; the bundle
// it is checked against is then `DOCS_BUNDLE` (JSON or YAML), else generated/openapi.json.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { parse } from 'yaml';
import { startServer } from '../contract-tests/support/server-process.ts';

const root = resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const screenshot = join(root, 'artifacts', 'docs.png');
const SAMPLE_SIZE = 12;
/**
 * A wait for the page: four times what was enough on an idle machine, since `.ci/run` runs this
 * beside the reliability load tests, which keep both cores busy. A wait ends as soon as what it
 * waits for shows, so a passing run pays nothing for the margin.
 */
const waitMs = (idleMs: number) => idleMs * 4;

type Json = Record<string, unknown>;
interface Operation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  permission: string | undefined;
  agent: boolean;
  /** Its x-codeSamples (scripts/code-samples.ts): Redoc shows them as tabs in the right panel. */
  codeSamples: { lang: string; label: string; source: string }[];
}

const bundle = parse(readFileSync(process.env.DOCS_BUNDLE ?? join(root, 'generated', 'openapi.json'), 'utf8')) as Json & {
  info: { description?: string };
  tags?: { name: string }[];
  'x-tagGroups'?: { name: string; tags: string[] }[];
  paths: Record<string, Record<string, Json>>;
};

// ---- what the bundle says the page must show -------------------------------------------------

const tags = (bundle.tags ?? []).map((t) => t.name);
const tagGroups = (bundle['x-tagGroups'] ?? []).map((g) => g.name);
/** `#` and `##` headings of info.description, outside code fences. */
const guides = (() => {
  let fenced = false;
  const out: string[] = [];
  for (const line of (bundle.info.description ?? '').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,2}\s+(.+?)\s*#*\s*$/.exec(line);
    if (m?.[1] !== undefined) out.push(m[1].replace(/[`*_]/g, ''));
  }
  return out;
})();
/** The guides: tags with `x-traitTag`, each with the first words of its text as rendered (markdown stripped). */
const guideTags = ((bundle.tags ?? []) as { name: string; description?: string; 'x-traitTag'?: boolean }[])
  .filter((t) => t['x-traitTag'] === true)
  .map((t) => {
    const firstLine = (t.description ?? '').split('\n').find((l) => l.trim() !== '' && !l.startsWith('|') && !l.startsWith('```')) ?? '';
    const plain = firstLine.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '').trim();
    return { name: t.name, opening: plain.split(/\s+/).slice(0, 6).join(' ') };
  });
const operations: Operation[] = Object.entries(bundle.paths)
  .flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method, op]) => ['get', 'put', 'post', 'delete', 'patch'].includes(method) && typeof op === 'object' && op !== null)
      .map(([method, op]) => {
        const agent = typeof op['x-agent-permission'] === 'string';
        return {
          method,
          path,
          operationId: String(op.operationId),
          summary: String(op.summary ?? ''),
          tag: ((op.tags as string[] | undefined) ?? [])[0] ?? '',
          permission: (agent ? op['x-agent-permission'] : op['x-permission']) as string | undefined,
          agent,
          codeSamples: (op['x-codeSamples'] as Operation['codeSamples'] | undefined) ?? [],
        };
      }),
  )
  .sort((a, b) => a.operationId.localeCompare(b.operationId));
/** Evenly spread over the operations sorted by operationId, agent operations included. */
const sample = (() => {
  const pick = <T>(list: T[], n: number) => (list.length <= n ? list : Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)] as T));
  const agentOps = operations.filter((o) => o.agent);
  const nAgent = Math.min(agentOps.length, 2);
  return [...pick(operations.filter((o) => !o.agent), SAMPLE_SIZE - nAgent), ...pick(agentOps, nAgent)];
})();

// ---- the browser ------------------------------------------------------------------------------

if (!existsSync(CHROMIUM)) {
  console.error(`test:docs: no browser at ${CHROMIUM}. Install Debian's chromium (apt-get install -y --no-install-recommends chromium), or set CHROMIUM_PATH.`);
  process.exit(1);
}

const missing: string[] = [];
const notes: string[] = [];
const blocked: string[] = [];
const consoleErrors: string[] = [];

const server = process.env.DOCS_HTML === undefined ? await startServer() : await serveFile(process.env.DOCS_HTML);
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  // Loading, clicks and screenshots too (playwright's own default is 30 s).
  page.setDefaultTimeout(waitMs(30_000));
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(`uncaught: ${e.message}`));
  // The network is the server, nothing else.
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.host === `127.0.0.1:${server.port}` || url.protocol === 'data:' || url.protocol === 'blob:') return route.continue();
    blocked.push(route.request().url());
    return route.abort('blockedbyclient');
  });

  const started = Date.now();
  await page.goto(`${server.origin}/docs`, { waitUntil: 'load' });
  await page.locator('[data-text]').first().waitFor({ timeout: waitMs(30_000) });
  const loadMs = Date.now() - started;

  const menu = async () => new Set(await page.$$eval('[data-text]', (els) => els.map((e) => e.getAttribute('data-text') ?? '')));
  const headings = new Set(await page.$$eval('h1, h2, h3', (els) => els.map((e) => (e as unknown as { innerText: string }).innerText.trim())));
  const entries = await menu();

  for (const tag of tags) if (!entries.has(tag)) missing.push(`tag "${tag}" is not in the menu`);
  // (Strings, not functions: the type check has no DOM library.)
  const pageText = String(await page.evaluate('document.body.innerText'));
  for (const group of tagGroups) if (!entries.has(group) && !pageText.includes(group)) missing.push(`tag group "${group}" (x-tagGroups) is not on the page`);
  for (const guide of guides) {
    if (!entries.has(guide)) missing.push(`guide "${guide}" (a heading of info.description) is not in the menu`);
    if (![...headings].some((h) => h === guide || h.startsWith(`${guide}\n`) || h.startsWith(guide))) missing.push(`guide "${guide}" has no heading on the page`);
  }

  // Each guide (a tag without operations, spec/guides/) opens from the menu and shows its own text.
  for (const guide of guideTags) {
    const item = menuItem(page, guide.name);
    if ((await item.count()) === 0) continue; // reported above as a tag missing from the menu
    await item.click();
    const shown = await page
      .getByText(guide.opening, { exact: false })
      .first()
      .waitFor({ state: 'visible', timeout: waitMs(10_000) })
      .then(() => true, () => false);
    if (!shown) missing.push(`guide "${guide.name}": its text ("${guide.opening}") is not shown when it is opened from the menu`);
  }
  // The screenshot CI keeps: the first guide, as a reader meets the page.
  mkdirSync(join(root, 'artifacts'), { recursive: true });
  const first = guideTags[0];
  if (first !== undefined) await menuItem(page, first.name).click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: screenshot });

  const permissions: string[] = [];
  let samplesShown = 0;
  for (const op of sample) {
    const label = `${op.method.toUpperCase()} ${op.path} (${op.operationId})`;
    const section = await openOperation(page, op);
    if (section === undefined) {
      missing.push(`${label}: "${op.summary}" not in the menu under "${op.tag}", or its section did not render`);
      continue;
    }
    if (!section.includes(op.summary)) missing.push(`${label}: summary "${op.summary}" not in its section`);
    // Every code sample is a choice of the request samples' language menu; chosen, it shows its source.
    if (op.codeSamples.length < 4) missing.push(`${label}: ${op.codeSamples.length} x-codeSamples in the bundle, not 4 (npm run build)`);
    const samplesPanel = page.locator(`[id$="/${op.operationId.toLowerCase()}"] .panel-request-samples`).first();
    const labels = op.codeSamples.map((c) => c.label);
    for (const codeSample of op.codeSamples) {
      const menuButton = samplesPanel.locator('[data-testid="dropdown"] > button').filter({ hasText: new RegExp(`^(${labels.map(escapeRegExp).join('|')})$`) }).first();
      if ((await menuButton.count()) === 0) {
        missing.push(`${label}: no code sample language menu in its request samples`);
        break;
      }
      await menuButton.click();
      // The menu opens at the page's level, outside the panel.
      const choice = page.locator('[role="menuitem"]:visible', { hasText: new RegExp(`^${escapeRegExp(codeSample.label)}$`) }).first();
      if (!(await choice.waitFor({ state: 'visible', timeout: waitMs(5_000) }).then(() => true, () => false))) {
        missing.push(`${label}: "${codeSample.label}" is not in the code sample language menu`);
        await page.keyboard.press('Escape');
        continue;
      }
      await choice.click();
      const firstLine = codeSample.source.split('\n')[0] ?? '';
      const shown = await samplesPanel
        .locator('pre', { hasText: firstLine })
        .first()
        .waitFor({ state: 'visible', timeout: waitMs(5_000) })
        .then(() => true, () => false);
      if (shown) samplesShown += 1;
      else missing.push(`${label}: the "${codeSample.label}" code sample is not shown when chosen ("${firstLine}")`);
    }
    if (op.permission === undefined) continue;
    const security = securityBlock(section);
    const word = new RegExp(`\\b${op.permission}\\b`);
    const field = op.agent ? 'x-agent-permission' : 'x-permission';
    if (word.test(security)) permissions.push(`${op.operationId}: ${op.permission} shown (${security.replace(/\s+/g, ' ')})`);
    else {
      missing.push(`${label}: the permission it needs (${field}: ${op.permission}) is not shown in its Security block ("${security.replace(/\s+/g, ' ')}")${word.test(section) ? '; the word appears elsewhere in the section' : ''}`);
    }
  }

  // And the last sampled operation, with its Security block.
  await page.screenshot({ path: join(root, 'artifacts', 'docs-operation.png') });

  notes.push(`page loaded and menu rendered in ${loadMs} ms`);
  notes.push(`menu: ${tags.length} tags, ${tagGroups.length} tag groups, ${guideTags.length} guides opened (${guideTags.map((g) => g.name).join(', ')}), ${guides.length} headings of info.description (${guides.join(', ')})`);
  notes.push(`sampled ${sample.length} of ${operations.length} operations: ${sample.map((o) => o.operationId).join(', ')}`);
  notes.push(`code samples: ${samplesShown} of ${sample.reduce((n, o) => n + o.codeSamples.length, 0)} shown when chosen from the language menu (${sample.length} operations)`);
  for (const p of permissions) notes.push(p);
} finally {
  await browser.close();
  await server.stop();
}

if (blocked.length > 0) missing.push(`the page requested ${blocked.length} resource(s) off the server (aborted; it must work offline): ${[...new Set(blocked)].join(', ')}`);
if (consoleErrors.length > 0) missing.push(`${consoleErrors.length} console error(s): ${consoleErrors.join(' | ')}`);

for (const n of notes) console.log(`test:docs: ${n}`);
console.log(`test:docs: screenshot ${screenshot}`);
if (missing.length > 0) {
  console.error(`test:docs: FAILED, ${missing.length} problem(s) on ${'/docs'}:\n${missing.map((m) => `  - ${m}`).join('\n')}`);
  process.exit(1);
}
console.log('test:docs: passed');

/**
 * Opens an operation the way a reader does (its tag, then its summary in the menu) and returns
 * the rendered text of its section, or undefined when either is missing.
 */
async function openOperation(page: Page, op: Operation): Promise<string | undefined> {
  const item = menuItem(page, op.summary);
  if ((await item.count()) === 0) {
    const tag = menuItem(page, op.tag);
    if ((await tag.count()) === 0) return undefined;
    // A tag's click toggles its group, and the page also opens and closes groups itself as the
    // reader moves through it: a click is sent only while the group is seen closed (its items'
    // container hidden), never on the strength of an item not rendered yet (a click on a group
    // still opening closes it: an operation "not in the menu", twice in .ci/run on a busy machine).
    const group = page.locator('[data-component-name="Menu/MenuItem"]').filter({ has: page.locator(`:scope > a [data-text="${cssString(op.tag)}"]`) }).first();
    const closed = group.locator(':scope > div[style*="display:none"], :scope > div[style*="display: none"]');
    const deadline = Date.now() + waitMs(10_000);
    while (!(await item.isVisible())) {
      if (Date.now() > deadline) return undefined;
      if ((await closed.count()) > 0) await tag.click();
      await item.waitFor({ timeout: 1_000 }).catch(() => undefined);
    }
  }
  await item.click();
  const section = page.locator(`[id$="/${op.operationId.toLowerCase()}"]`).first();
  if (!(await section.waitFor({ timeout: waitMs(10_000) }).then(() => true, () => false))) return undefined;
  await section.scrollIntoViewIfNeeded();
  return section.innerText();
}

/** The text of an operation's Security block: the scheme lines after "View security details". */
function securityBlock(section: string): string {
  const start = section.indexOf('View security details');
  if (start < 0) return '';
  const lines = section.slice(start).split('\n').slice(1);
  const first = lines[0] ?? '';
  if (!first.includes('(')) return first;
  const end = lines.findIndex((l) => l.includes(')'));
  return lines.slice(0, end < 0 ? 1 : end + 1).join('\n');
}

/** A server of one page at /docs, for DOCS_HTML. */
async function serveFile(file: string): Promise<{ port: number; origin: string; stop(): Promise<unknown> }> {
  const html = readFileSync(file);
  const http = createServer((req, res) => (req.url === '/docs' ? res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html) : res.writeHead(404).end()));
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  const port = (http.address() as AddressInfo).port;
  return { port, origin: `http://127.0.0.1:${port}`, stop: () => new Promise((done) => http.close(done)) };
}

/** The menu entry whose text is `text` (Redoc's menu items carry it in `data-text`). */
function menuItem(page: Page, text: string) {
  return page.locator(`[data-text="${cssString(text)}"]`).first();
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function cssString(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}
