import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import {
  openModelBackends,
  type ModelBackends,
  type ModelClientOptions,
} from '../../../actors/models/model-backends.ts';
import type { ModelSettings } from '../../../actors/models/model-settings.ts';
import type { FakeModelServer } from './fake-model-server.ts';

/** Both keys set and both base URLs on the fake server; `settings` overrides any of them. */
export function fakeServerSettings(
  server: Pick<FakeModelServer, 'url'>,
  settings: Partial<ModelSettings> = {},
): ModelSettings {
  return {
    anthropicApiKey: 'sk-ant-test',
    anthropicBaseUrl: server.url,
    openaiApiKey: 'sk-test',
    openaiBaseUrl: `${server.url}/v1`,
    primaryModel: 'claude-haiku-4-5',
    ...settings,
  };
}

/** The model layer on the fake server, with no SDK retries by default (a scripted error is final). */
export function fakeServerBackends(
  server: Pick<FakeModelServer, 'url'>,
  settings: Partial<ModelSettings> = {},
  options: ModelClientOptions = { maxRetries: 0 },
): ModelBackends {
  return openModelBackends(fakeServerSettings(server, settings), options);
}

const noOffline = (): never => {
  throw new Error('The fake server backends always have both keys; offline was chosen.');
};

/** The clients the model layer hands its callers, pointed at the fake server. */
export function fakeServerClients(
  server: Pick<FakeModelServer, 'url'>,
  options: ModelClientOptions = { maxRetries: 0 },
) {
  const backends = fakeServerBackends(server, {}, options);
  return {
    anthropic: backends.choose<Anthropic>({ offline: noOffline, anthropic: ({ client }) => client }),
    openai: backends.choose<OpenAI>({ offline: noOffline, openai: ({ client }) => client }),
  };
}
