import type { Hono } from 'hono';
import type { Store } from '../../actors/runtime/store.ts';
import type { RouteDoc } from '../openapi/route-doc.ts';
import packageJson from '../../package.json' with { type: 'json' };
import type { A2aMapping } from './a2a-mapping.ts';
import { a2aRouteDocs } from './a2a-route-docs.ts';
import { a2aRoutes } from './a2a-routes.ts';
import { agentCardOf } from './agent-card.ts';
import { RunRequestHandler } from './run-request-handler.ts';
import { RunTaskStore } from './run-task-store.ts';

/** A system as A2A publishes it: its one name, its title, the mapping its module declared. */
export interface A2aSystem {
  name: string;
  title: string;
  mapping: A2aMapping | undefined;
}

/**
 * The A2A routes of every system that declares a mapping: its card at
 * `/a2a/<name>/.well-known/agent-card.json` (public) and its JSON-RPC endpoint at `/a2a/<name>`
 * (behind bearer auth), over the SDK's request handler and a task store on the shared store.
 *
 * @example
 * const { publicRoutes, protectedRoutes } = a2aMounts(systems, store);
 */
export function a2aMounts(systems: readonly A2aSystem[], store: Store) {
  const publicRoutes: Record<string, Hono> = {};
  const protectedRoutes: Record<string, Hono> = {};
  const routeDocs: RouteDoc[] = [];
  for (const { name, title, mapping } of systems) {
    if (!mapping) continue;
    const path = `/a2a/${name}`;
    const cardAt = (url: string) => agentCardOf({ name: title, version: packageJson.version, url, mapping });
    const handler = new RunRequestHandler(cardAt(path), mapping, new RunTaskStore(store, name, mapping));
    const { card, rpc } = a2aRoutes({ handler, cardAt, path });
    publicRoutes[`${path}/.well-known/agent-card.json`] = card;
    protectedRoutes[path] = rpc;
    routeDocs.push(...a2aRouteDocs(path, title));
  }
  return { publicRoutes, protectedRoutes, routeDocs };
}
