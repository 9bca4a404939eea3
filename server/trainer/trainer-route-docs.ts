import { z } from 'zod';
import { ChatBodySchema, CreateSessionBodySchema, SessionListQuerySchema } from '../../protocol/trainer/chat-body.ts';
import { UserDataSourceNameSchema } from '../../protocol/trainer/data-source.ts';
import { USER_DATA_DOCUMENT_SCHEMAS } from '../../protocol/trainer/user-data-documents.ts';
import { defineRouteDocs } from '../openapi/route-doc.ts';
import { USER_DATA_ALIASES } from './user-routes.ts';

const session = { id: 'The session id.' };
const source = {
  source: `The document: ${[...UserDataSourceNameSchema.options, ...Object.keys(USER_DATA_ALIASES)].join(', ')} (an unknown one is 404).`,
};
/** Any one of the stored documents; the server checks the body against the `source` named in the path. */
const AnyUserDocumentSchema = z.union(Object.values(USER_DATA_DOCUMENT_SCHEMAS));
const failedTurn = {
  502: 'The model call failed (its code, e.g. `model_error`); the session is `error` and the next message continues it.',
  503: 'The model was rate limited (`model_rate_limited`), or the system is at capacity (`overloaded`, with `Retry-After`).',
  504: 'The model call timed out (`model_timeout`).',
};

/** The trainer's routes (`/agent`, `/users/me`) as the API description shows them. */
export const TRAINER_ROUTE_DOCS = defineRouteDocs([
  {
    method: 'post',
    path: '/agent/chat',
    summary: 'One turn of the trainer',
    description:
      'Without `sessionId` it continues the latest active session or starts one. The `X-Session-Id` header names the session.',
    body: ChatBodySchema,
    admission: true,
    responses: {
      200: {
        description:
          '`{ sessionId, response: { messages, exercises, question }, iterations, actions, status, stopReason }`',
      },
    },
    errors: { ...failedTurn, 404: 'No such session for this user.' },
  },
  {
    method: 'post',
    path: '/agent/stream',
    summary: 'One turn, streamed',
    description: 'Bad input and unknown sessions fail as plain JSON errors before the stream opens.',
    body: ChatBodySchema,
    admission: true,
    sse: '`knowledge`, `status`, `tool_start`, `tool_result`, then `done` with the `sessionId`, or `error` (spec 001 §8.3).',
    responses: {},
    errors: { 404: 'No such session for this user.' },
  },
  {
    method: 'get',
    path: '/agent/sessions',
    summary: "The user's sessions, newest first",
    query: SessionListQuerySchema,
    responses: { 200: { description: '`{ sessions }`' } },
  },
  {
    method: 'post',
    path: '/agent/sessions',
    summary: 'A new active session',
    body: CreateSessionBodySchema,
    bodyOptional: true,
    responses: { 201: { description: '`{ session }`' } },
  },
  {
    method: 'get',
    path: '/agent/sessions/:id',
    summary: 'One session and its recent actions',
    params: session,
    responses: { 200: { description: '`{ session, recentActions }`' } },
  },
  {
    method: 'get',
    path: '/agent/sessions/:id/events',
    summary: "The session's whole timeline",
    params: session,
    responses: { 200: { description: '`{ events }`, each with its `sequence_number`' } },
  },
  {
    method: 'get',
    path: '/agent/sessions/:id/artifacts/:artifactId',
    summary: 'One artifact of a session',
    params: { ...session, artifactId: 'The artifact id.' },
    responses: { 200: { description: '`{ artifact }`' } },
  },
  {
    method: 'get',
    path: '/users/me',
    summary: 'Every data document of the user',
    responses: { 200: { description: '`{ user_id, <source>: document }`' } },
  },
  {
    method: 'get',
    path: '/users/me/:source',
    summary: 'One data document',
    params: source,
    responses: { 200: { description: 'The document.', schema: AnyUserDocumentSchema } },
  },
  {
    method: 'put',
    path: '/users/me/:source',
    summary: 'Replace one data document',
    description:
      'The body is the document of the `source` named in the path; an invalid one is a 400 naming the field.',
    params: source,
    body: AnyUserDocumentSchema,
    responses: { 200: { description: 'The stored document.', schema: AnyUserDocumentSchema } },
  },
]);
