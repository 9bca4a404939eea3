import type { ApiContract, Stories } from '../../../protocol/org/deliverables.ts';
import { snake } from './stories-from-prd.ts';

/** The fields of a resource: the words of its story's title longer than three letters. */
function fieldsOf(title: string): string[] {
  const words = title.toLowerCase().match(/[a-z]{4,}/g) ?? [];
  return [...new Set(words.map(snake))].slice(0, 6);
}

/**
 * `backend`'s rule: each story's resource gets `POST /<resource>` (create, its fields required)
 * and `GET /<resource>/{id}`, each with JSON Schemas of its request and response.
 */
export function apiContractFor(stories: Stories): ApiContract {
  return {
    prd_version: stories.prd_version,
    endpoints: stories.stories.flatMap((story) => {
      const fields = fieldsOf(story.title);
      const properties = Object.fromEntries(fields.map((field) => [field, { type: 'string' }]));
      const record = {
        type: 'object' as const,
        properties: {
          id: { type: 'string', format: 'uuid' },
          created_at: { type: 'string', format: 'date-time' },
          ...properties,
        },
        required: ['id', 'created_at', ...fields],
      };
      return [
        {
          id: `create_${story.resource}`,
          method: 'POST' as const,
          path: `/${story.resource}`,
          story_ids: [story.id],
          request_schema: { type: 'object' as const, properties, required: fields },
          response_schema: record,
        },
        {
          id: `get_${story.resource}`,
          method: 'GET' as const,
          path: `/${story.resource}/{id}`,
          story_ids: [story.id],
          response_schema: record,
        },
      ];
    }),
  };
}
