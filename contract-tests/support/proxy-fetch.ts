// fetch for the PGlite target (its server is behind the Prism proxy): a request to the proxy's base URL goes through `prism proxy --errors`
// (which checks the request and the server's answer); when Prism refuses the request as invalid,
// the same request is sent straight to the server, so the test still asserts the server's own
// answer, and the server must refuse it too: a request Prism calls invalid and the server accepts
// fails the test (one of the two is wrong about the contract). Requests Prism cannot pass on
// unchanged go straight to the server and are counted as unchecked. Violations in the answers are
// reported by checkResponse.
import { prismVerdict } from './prism-verdict.ts';
import { recordProxyEvent, type ProxyEvent } from './proxy-tally.ts';

/** Prism parses request bodies up to 10 MB (micri's limit). */
const PRISM_BODY_LIMIT = 10 * 1024 * 1024;

/** JSON text without the whitespace between tokens. */
const compact = (text: string): string => text.replace(/"(?:[^"\\]|\\.)*"|\s+/g, (m) => (m.startsWith('"') ? m : ''));

/**
 * Why Prism cannot pass this body on unchanged, if it cannot. Prism parses a JSON body and
 * forwards its own JSON.stringify of it (duplicate keys, 1e400, 1.0 or \u escapes would reach the
 * server changed), never answers a body it cannot parse, and forwards other bodies as UTF-8 text.
 */
function unforwardable(contentType: string, body: Uint8Array | undefined): string | undefined {
  if (body === undefined) return undefined;
  if (body.byteLength > PRISM_BODY_LIMIT) return 'body over 10 MB, Prism never answers';
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return 'binary body, Prism forwards it as text';
  }
  if (!/^application\/([\w.-]+\+)?json\b/i.test(contentType)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'malformed JSON, Prism never answers';
  }
  return JSON.stringify(parsed) === compact(text) ? undefined : 'JSON Prism would rewrite';
}

/**
 * A fetch that sends requests to the proxy's origin (`proxyBaseUrl`, which has no path: Prism
 * routes without the version prefix) through it, and to `serverBaseUrl` when Prism cannot check them.
 */
export function proxyFetch(proxyBaseUrl: string, serverBaseUrl: string, record: (e: ProxyEvent) => void = recordProxyEvent) {
  return async function send(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    if (new URL(request.url).origin !== new URL(proxyBaseUrl).origin) return fetch(request);
    const body = ['GET', 'HEAD'].includes(request.method) ? undefined : new Uint8Array(await request.arrayBuffer());
    const sent = body === undefined || body.byteLength === 0 ? undefined : body;
    const headers = new Headers(request.headers);
    const direct = () => fetch(serverBaseUrl + request.url.slice(new URL(proxyBaseUrl).origin.length), { method: request.method, headers, ...(sent === undefined ? {} : { body: sent }) });
    const reason = unforwardable(headers.get('content-type') ?? '', sent);
    if (reason !== undefined) {
      record({ event: 'direct', reason });
      return direct();
    }
    const response = await fetch(request.url, { method: request.method, headers, ...(sent === undefined ? {} : { body: sent }) });
    const verdict = await prismVerdict(response);
    if (verdict.kind === 'upstream-501') {
      // Forwarded and answered 501 (NOT_IMPLEMENTED changes nothing); Prism hides the server's body.
      record({ event: 'direct', reason: 'server answered 501, Prism replaces the body' });
      return direct();
    }
    if (verdict.kind !== 'refused') return response;
    const own = await direct();
    record({ event: 'refused', type: verdict.type, status: own.status });
    if (own.status < 400 || own.status >= 500) {
      throw new Error(`${request.method} ${request.url}: Prism refuses the request (${verdict.type}) but the server answers ${own.status}:\n${verdict.details}\nserver: ${await own.text()}`);
    }
    return own;
  };
}
