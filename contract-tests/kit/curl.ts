// A curl command that sends a request again as the kit sent it, for a failure's report. Secrets the
// run was given are named by their environment variable, never printed: the kit's own secret is
// $PAYMENTS_CLIENT_SECRET, the second platform's $PAYMENTS_OTHER_CLIENT_SECRET. Credentials the run
// made itself (tokens, agents' bearer tokens) are shown: they are deleted when the run ends.
import type { SentRequest } from './reply.ts';

/** A shell word in single quotes. */
const quote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** The secrets to hide, by the environment variable that holds them. */
export type Redactions = { secret: string; variable: string }[];

function authorizationArgs(value: string, redactions: Redactions): string[] {
  const basic = /^Basic\s+(\S+)$/i.exec(value)?.[1];
  if (basic !== undefined) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const secret = colon < 0 ? '' : decoded.slice(colon + 1);
    const hidden = redactions.find((r) => r.secret !== '' && r.secret === secret);
    if (colon >= 0 && hidden !== undefined) return ['-u', `"${decoded.slice(0, colon).replaceAll(/["$`\\]/g, '\\$&')}:$${hidden.variable}"`];
  }
  return ['-H', quote(`Authorization: ${value}`)];
}

export function curlOf(request: SentRequest, redactions: Redactions): string {
  const args = ['curl', '-sS', '-i', '-X', request.method, quote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === 'authorization') args.push(...authorizationArgs(value, redactions));
    else args.push('-H', quote(`${name}: ${value}`));
  }
  if (request.body !== undefined) args.push('--data-binary', quote(request.body));
  for (const [name, value] of request.form ?? []) args.push('-F', typeof value === 'string' ? quote(`${name}=${value}`) : quote(`${name}=@${value.fileName};type=${value.type}`));
  return args.join(' ');
}
