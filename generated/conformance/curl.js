/** A shell word in single quotes. */
const quote = (text) => `'${text.replaceAll("'", `'\\''`)}'`;
function authorizationArgs(value, redactions) {
    const basic = /^Basic\s+(\S+)$/i.exec(value)?.[1];
    if (basic !== undefined) {
        const decoded = Buffer.from(basic, 'base64').toString('utf8');
        const colon = decoded.indexOf(':');
        const secret = colon < 0 ? '' : decoded.slice(colon + 1);
        const hidden = redactions.find((r) => r.secret !== '' && r.secret === secret);
        if (colon >= 0 && hidden !== undefined)
            return ['-u', `"${decoded.slice(0, colon).replaceAll(/["$`\\]/g, '\\$&')}:$${hidden.variable}"`];
    }
    return ['-H', quote(`Authorization: ${value}`)];
}
export function curlOf(request, redactions) {
    const args = ['curl', '-sS', '-i', '-X', request.method, quote(request.url)];
    for (const [name, value] of Object.entries(request.headers)) {
        if (name.toLowerCase() === 'authorization')
            args.push(...authorizationArgs(value, redactions));
        else
            args.push('-H', quote(`${name}: ${value}`));
    }
    if (request.body !== undefined)
        args.push('--data-binary', quote(request.body));
    for (const [name, value] of request.form ?? [])
        args.push('-F', typeof value === 'string' ? quote(`${name}=${value}`) : quote(`${name}=@${value.fileName};type=${value.type}`));
    return args.join(' ');
}
