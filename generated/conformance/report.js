// How a run reads on a terminal: a line per check as it ends, the failures in full, the skipped
// checks grouped by what the deployment would have to offer for them, and the summary line last.
import { CheckFailure } from "./check.js";
/** What a check is about, in one line: its id, operations and status. */
export const headline = (check) => `${check.id}  ${check.operations.join(', ')}${check.status === undefined ? '' : ` ${check.status}`}`;
/** A failure in full: the rule, what was expected, what came back, the request and its X-Request-Id. */
export function describeFailure(result) {
    const failure = result.failure;
    const lines = [`check: ${result.check.rule}`];
    if (failure instanceof CheckFailure) {
        lines.push(`rule: ${failure.rule}`, `expected: ${failure.expected}`, `got: ${failure.actual}`);
        if (failure.reply !== undefined)
            lines.push(`request: ${failure.reply.summary}`);
    }
    else {
        lines.push(`error: ${failure?.stack ?? failure?.message ?? 'unknown'}`);
    }
    return lines.join('\n');
}
export const resultLine = (result) => {
    const mark = { passed: 'ok  ', failed: 'FAIL', skipped: 'skip' }[result.outcome];
    return `${mark} ${headline(result.check)}${result.outcome === 'skipped' ? '' : ` (${result.ms} ms)`}`;
};
export function summaryLine(report) {
    const n = (o) => report.results.filter((r) => r.outcome === o).length;
    return `conformance: ${n('passed')} passed, ${n('failed')} failed, ${n('skipped')} skipped`;
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
    out.push('', `data made under the prefix ${report.prefix}; ${(report.ms / 1000).toFixed(1)} s`, summaryLine(report));
    return out.join('\n');
}
