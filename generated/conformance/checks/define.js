/** A check of the area named by the first part of its id. */
export function check(id, about, run) {
    const area = id.split('.')[0] ?? id;
    return {
        id,
        operations: about.operations,
        ...(about.status === undefined ? {} : { status: about.status }),
        rule: about.rule,
        tags: [...new Set([area, ...(about.tags ?? [])])],
        needs: about.needs ?? ['state'],
        ...(about.timeoutMs === undefined ? {} : { timeoutMs: about.timeoutMs }),
        run,
    };
}
/** A path segment. */
export const enc = (value) => encodeURIComponent(value);
/** A list's page, checked to be 200. */
export const page = (t, reply, rule) => t.expect(reply, 200, rule);
/** The ids of a list's items. */
export const ids = (items) => items.map((i) => i.id);
