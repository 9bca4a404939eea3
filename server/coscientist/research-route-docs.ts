import {
  CreateResearchBodySchema,
  EventsQuerySchema,
  GuidanceBodySchema,
  MemoryQuerySchema,
} from '../../protocol/coscientist/research-body.ts';
import { defineRouteDocs, type RouteDoc } from '../openapi/route-doc.ts';

const goal = { id: 'The research goal id (`research_id`).' };
const view = (path: string, summary: string, answer: string): RouteDoc => ({
  method: 'get',
  path: `/research/:id${path}`,
  summary,
  params: goal,
  responses: { 200: { description: answer } },
});

/** The co-scientist's routes (`/research`) as the API description shows them. */
export const RESEARCH_ROUTE_DOCS = defineRouteDocs([
  {
    method: 'post',
    path: '/research',
    summary: 'Start a research goal',
    description: 'See `examples/coscientist-goal.json`.',
    body: CreateResearchBodySchema,
    admission: true,
    responses: { 201: { description: '`{ research_id, state }`' } },
  },
  view('', 'One goal: state, iteration, counts', 'The goal.'),
  view('/hypotheses', 'Hypotheses ranked by Elo', '`{ hypotheses }`'),
  view('/matches', 'The tournament matches', '`{ matches }`'),
  view('/tasks', 'The task queue of the goal', '`{ tasks }`'),
  { ...view('/memory', 'The context memory', '`{ entries }`'), query: MemoryQuerySchema },
  {
    method: 'post',
    path: '/research/:id/guidance',
    summary: "Steer the goal with the scientist's guidance",
    params: goal,
    body: GuidanceBodySchema,
    responses: { 202: { description: 'The guidance entry.' } },
  },
  view('/overview', 'The research overview', 'The latest overview and feedback per agent.'),
  {
    method: 'post',
    path: '/research/:id/stop',
    summary: 'Stop the goal',
    params: goal,
    responses: { 202: { description: '`{ research_id, state: "stopping" }`' } },
  },
  {
    method: 'get',
    path: '/research/:id/events',
    summary: 'Stream the goal',
    params: goal,
    query: EventsQuerySchema,
    sse: '`state`, `task`, `match` and `memory`; `?until=settled` closes once the goal settles.',
    responses: {},
  },
]);
