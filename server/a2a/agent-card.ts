import { A2A_PROTOCOL_VERSION, type AgentCard } from '@a2a-js/sdk';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';
import type { A2aMapping } from './a2a-mapping.ts';

/** The media types every system takes and gives: a `data` part (JSON) and text. */
const MODES = ['application/json', 'text/plain'];

/** The card's one security scheme: the bearer JWT of the whole API (`sub` = the user). */
export const BEARER_SCHEME = 'bearer';

/**
 * A system's agent card (A2A v1.0): its skills from its mapping, streaming, the JSON-RPC interface
 * at `url` in protocol versions 1.0 and 0.3, and the bearer-JWT scheme that every call needs.
 *
 * @example
 * agentCardOf({ name: 'Nutrition', version: '0.1.0', url: 'http://localhost:3000/a2a/nutrition', mapping });
 */
export function agentCardOf(options: { name: string; version: string; url: string; mapping: A2aMapping }): AgentCard {
  const { mapping } = options;
  return {
    name: options.name,
    description: mapping.description,
    supportedInterfaces: duplicateInterfacesForLegacy(
      [{ url: options.url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION }],
      ['JSONRPC'],
    ),
    provider: undefined,
    version: options.version,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {
      [BEARER_SCHEME]: {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: {
            description: 'A JWT signed HS256 with the server secret, `sub` = user id (`npm run token -- <userId>`).',
            scheme: 'Bearer',
            bearerFormat: 'JWT',
          },
        },
      },
    },
    securityRequirements: [{ schemes: { [BEARER_SCHEME]: { list: [] } } }],
    defaultInputModes: MODES,
    defaultOutputModes: MODES,
    skills: mapping.skills.map((skill) => ({
      id: skill.id,
      name: skill.name,
      description: skill.description,
      tags: [...skill.tags],
      examples: [...skill.examples],
      inputModes: MODES,
      outputModes: MODES,
      securityRequirements: [],
    })),
    signatures: [],
  };
}
