// How a run reads on a terminal: a line per check as it ends, the failures in full, the skipped
// checks grouped by what the deployment would have to offer for them, and the summary line last.
import { CheckFailure } from "./check.js";
/** What a check is about, in one line: its id, operations and status. */
export const headline = (check) => `${check.id}  ${check.operations.join(', ')}${check.status === undefined ? '' : ` ${check.status}`}`;
/** A failure in full: the rule, what was expected, what came back, the request and its X-Request-Id. */
export function describeFailure(result) {
    const failure = result.failure;
    const lines = [];
    // The rule broken first: what the check was about follows it.
    if (failure instanceof CheckFailure) {
        lines.push(`rule: ${failure.rule}`, `expected: ${failure.expected}`, `got: ${failure.actual}`);
        if (failure.reply !== undefined)
            lines.push(`request: ${failure.reply.summary}`, `curl: ${failure.reply.curl}`);
    }
    else {
        lines.push(`error: ${failure?.stack ?? failure?.message ?? 'unknown'}`);
    }
    lines.push(`check: ${result.check.rule}`);
    return lines.join('\n');
}
export const resultLine = (result) => {
    const mark = { passed: 'ok  ', failed: 'FAIL', skipped: 'skip', expected: 'xfail' }[result.outcome];
    return `${mark} ${headline(result.check)}${result.outcome === 'skipped' ? '' : ` (${result.ms} ms)`}`;
};
export function summaryLine(report) {
    const n = (o) => report.results.filter((r) => r.outcome === o).length;
    const expected = report.expectedFailuresFile === undefined ? '' : `, ${n('expected')} expected failure${n('expected') === 1 ? '' : 's'}`;
    return `conformance: ${n('passed')} passed, ${n('failed')} failed, ${n('skipped')} skipped${expected}`;
}
/** The score of every operation a check of the run is about, lowest first, then by operationId. */
export function scores(report) {
    const by = new Map();
    for (const result of report.results) {
        if (result.outcome === 'skipped')
            continue;
        for (const operationId of result.check.operations) {
            const score = by.get(operationId) ?? { operationId, passed: 0, applicable: 0 };
            score.applicable++;
            if (result.outcome === 'passed')
                score.passed++;
            by.set(operationId, score);
        }
    }
    const ratio = (s) => s.passed / s.applicable;
    return [...by.values()].sort((a, b) => ratio(a) - ratio(b) || a.operationId.localeCompare(b.operationId));
}
/** The scores as the summary prints them: each operation below 100 % on a line, the others together. */
export function scoreLines(report) {
    const all = scores(report);
    if (all.length === 0)
        return [];
    const short = all.filter((s) => s.passed < s.applicable);
    const full = all.filter((s) => s.passed === s.applicable);
    const out = [`Score per operation (checks passed of those that apply): ${full.length} of ${all.length} operations at 100 %`];
    for (const s of short)
        out.push(`  ${s.operationId} ${s.passed} of ${s.applicable} (${Math.floor((100 * s.passed) / s.applicable)} %)`);
    const words = full.map((s) => `${s.operationId} ${s.passed}/${s.applicable}`);
    let line = '  100 %:';
    for (const word of words) {
        if (line.length + word.length > 110) {
            out.push(`${line},`);
            line = '   ';
        }
        line += `${line.endsWith(':') || line === '   ' ? ' ' : ', '}${word}`;
    }
    if (words.length > 0)
        out.push(line);
    return out;
}
/** The closing part of the output: failures in full, skips by reason, cleanup problems. */
export function closing(report) {
    const out = [];
    const failed = report.results.filter((r) => r.outcome === 'failed');
    if (failed.length > 0) {
        out.push('', `Failures (${failed.length}):`);
        for (const result of failed)
            out.push('', `FAIL ${headline(result.check)}`, ...describeFailure(result).split('\n').map((l) => `  ${l}`));
    }
    const expected = report.results.filter((r) => r.outcome === 'expected');
    if (expected.length > 0) {
        out.push('', `Expected failures (${expected.length}, listed in ${report.expectedFailuresFile ?? 'the file'}):`);
        for (const result of expected)
            out.push(`  ${result.check.id}: ${result.failure instanceof CheckFailure ? result.failure.rule : (result.failure?.message ?? '')}`);
    }
    const skipped = new Map();
    for (const r of report.results.filter((x) => x.outcome === 'skipped'))
        skipped.set(r.reason ?? '', [...(skipped.get(r.reason ?? '') ?? []), r.check.id]);
    if (skipped.size > 0) {
        out.push('', 'Skipped:');
        for (const [reason, ids] of skipped)
            out.push(`  ${ids.length} ${ids.length === 1 ? 'check' : 'checks'}: ${reason}${ids.length <= 5 ? ` (${ids.join(', ')})` : ''}`);
    }
    if (report.cleanupProblems.length > 0)
        out.push('', 'Could not undo:', ...report.cleanupProblems.map((p) => `  ${p}`));
    const { documented, produced, missing } = report.successes;
    out.push('', `documented successes the answers produced: ${produced} of ${documented}${missing.length === 0 ? '' : missing.length <= 12 ? ` (not: ${missing.join(', ')})` : ''}`);
    out.push('', ...scoreLines(report));
    out.push('', `data made under the prefix ${report.prefix}; ${(report.ms / 1000).toFixed(1)} s`, summaryLine(report));
    return out.join('\n');
}
