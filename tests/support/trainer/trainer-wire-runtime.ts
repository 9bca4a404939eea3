import { startFakeModelServer, type FakeModelServerOptions } from '../models/fake-model-server.ts';
import { startRuntime } from '../runtime-harness.ts';

/**
 * The runtime with Claude and GPT-4o-mini configured as in production (API keys and base URLs),
 * the base URLs pointing at a fake model server that plays `scripts`.
 */
export async function startWireRuntime(scripts: FakeModelServerOptions) {
  const server = await startFakeModelServer(scripts);
  const rt = await startRuntime({ systems: { trainer: { consoleLog: false } } }, undefined, {
    anthropicApiKey: 'sk-ant-test',
    anthropicBaseUrl: server.url,
    openaiApiKey: 'sk-test',
    openaiBaseUrl: `${server.url}/v1`,
  });
  return {
    ...rt,
    server,
    async stop() {
      await rt.stop();
      await server.close();
    },
  };
}
