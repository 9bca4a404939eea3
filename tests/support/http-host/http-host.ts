/** One answer of {@link HttpHost.call}: the status, the body parsed as JSON (else its text), the response. */
export interface HttpAnswer {
  status: number;
  body: any;
  response: Response;
}

/**
 * A running server the HTTP e2e suites talk to, whichever host runs it: the embedded runtime in
 * this process (`startEmbeddedHost`) or a real `npm run start:cluster` process group
 * (`startClusterHost`). Each user's bearer token is signed with the server's secret.
 *
 * @example
 * const host = await startEmbeddedHost();
 * const created = await host.call('ada', 'POST', '/pipelines', intake);
 * const stream = await host.fetch('ada', `/pipelines/${created.body.pipeline_run_id}/events?until=settled`);
 * await host.stop();
 */
export interface HttpHost {
  /** Which host serves: `embedded` (in-process) or `cluster` (a process group on Restate). */
  readonly kind: 'embedded' | 'cluster';
  /** Where it listens on this machine (`http://127.0.0.1:NNNN`), for clients that need a URL (A2A). */
  readonly url: string;
  /** The bearer token of `user`, signed with the server's secret. */
  token(user: string): Promise<string>;
  /** Sends a request as `user` (a body is sent as JSON, a string as it is) and reads the whole answer. */
  call(user: string, method: string, path: string, body?: unknown): Promise<HttpAnswer>;
  /** Sends a request as `user` and hands back the response unread (to read a stream, `text/event-stream`). */
  fetch(user: string, path: string, init?: RequestInit): Promise<Response>;
  /** Stops the server and removes its data. */
  stop(): Promise<void>;
}

/** The request `call` sends: JSON content type and body when there is a body. */
export function requestInit(token: string, method: string, body?: unknown): RequestInit {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  return init;
}

/** Reads a whole response: its body as JSON when it parses, else as text. */
export async function readAnswer(response: Response): Promise<HttpAnswer> {
  const text = await response.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, body, response };
}

/** `init` with the user's bearer token added to its headers. */
export function withToken(token: string, init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${token}`);
  return { ...init, headers };
}
