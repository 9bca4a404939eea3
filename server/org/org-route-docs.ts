import { z } from 'zod';
import { OrgEnvelopeSchema } from '../../protocol/org/envelope.ts';
import {
  AmendPrdBodySchema,
  CreateProjectBodySchema,
  ResolveEscalationBodySchema,
} from '../../protocol/org/http-bodies.ts';
import { KnowledgeQuerySchema } from '../../protocol/org/knowledge.ts';
import { defineRouteDocs } from '../openapi/route-doc.ts';

const project = { id: 'The project id.' };

/** The org's routes (`/org`) as the API description shows them. */
export const ORG_ROUTE_DOCS = defineRouteDocs([
  {
    method: 'post',
    path: '/org/projects',
    summary: 'Start a project from a PRD',
    description: 'See `examples/org-project.json`.',
    body: CreateProjectBodySchema,
    admission: true,
    responses: { 201: { description: 'The project.' } },
  },
  {
    method: 'get',
    path: '/org/projects/:id',
    summary: 'One project: status, deliverables, handoffs, escalations',
    params: project,
    responses: { 200: { description: 'The project view (`status`: working, waiting_for_user, done).' } },
  },
  {
    method: 'get',
    path: '/org/projects/:id/messages',
    summary: "The project's messages in journal order",
    params: project,
    responses: { 200: { description: '`{ messages }`' } },
  },
  {
    method: 'get',
    path: '/org/projects/:id/handoffs',
    summary: "The project's handoffs",
    params: project,
    responses: { 200: { description: '`{ handoffs }`' } },
  },
  {
    method: 'get',
    path: '/org/projects/:id/escalations',
    summary: "The project's escalations",
    params: project,
    responses: { 200: { description: '`{ escalations }`' } },
  },
  {
    method: 'post',
    path: '/org/projects/:id/escalations/:eid/resolve',
    summary: "Resolve an escalation with the user's decision",
    params: { ...project, eid: 'The escalation id.' },
    body: ResolveEscalationBodySchema,
    responses: { 200: { description: 'The resolution.' } },
    errors: { 409: 'The escalation is already resolved.' },
  },
  {
    method: 'patch',
    path: '/org/projects/:id/prd',
    summary: "Amend the project's PRD",
    description: 'See `examples/org-amend.json`.',
    params: project,
    body: AmendPrdBodySchema,
    responses: { 202: { description: 'The amendment, accepted.' } },
    errors: { 409: 'The project is done.' },
  },
  {
    method: 'post',
    path: '/org/messages',
    summary: "An external agent's v2.0 message",
    body: OrgEnvelopeSchema,
    responses: { 202: { description: 'Delivered.' } },
    errors: { 422: 'The channel rule refuses this sender, receiver and type (`destination_agent`).' },
  },
  {
    method: 'get',
    path: '/org/knowledge',
    summary: "Query the user's knowledge graph",
    query: KnowledgeQuerySchema,
    responses: { 200: { description: '`{ nodes }`' } },
  },
  {
    method: 'get',
    path: '/org/knowledge/:node_id',
    summary: 'One knowledge node with its relations',
    params: { node_id: 'The knowledge node id.' },
    responses: { 200: { description: '`{ node, relations: { outgoing, incoming } }`' } },
  },
  {
    method: 'get',
    path: '/org/projects/:id/events',
    summary: 'Stream the project',
    params: project,
    query: z.object({ until: z.literal('settled').optional() }),
    sse: '`message` per envelope, `handoff`, `escalation`; `?until=settled` ends with `settled`.',
    responses: {},
  },
]);
