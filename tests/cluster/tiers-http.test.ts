import { describe, expect, it } from 'vitest';
import { clusterForFile } from '../support/http-host/cluster-host.ts';
import { describeTiersHttp } from '../support/tiers/tiers-http-suite.ts';

/*
 * The tiers' HTTP e2e tests of tests/e2e/tiers (tasks, external messages, clarifications), the
 * same test bodies as on the embedded host, against one `npm run start:cluster` process group
 * (2 service processes) started once for the file. Those that hold a specialist in-process or
 * restart the runtime stay embedded-only.
 */
const cluster = clusterForFile(2);
describeTiersHttp(cluster);

describe('the cluster behind those tests', () => {
  // Runs after the suite above (a file's tests run in order): its tasks went through Restate, not
  // an embedded fallback: each task its tiers-host object, its tier calls made by tiers-run.
  it.each(['tiers-host', 'tiers-run'])(
    'served the tiers tasks above through Restate (invocations of %s)',
    async (service) => {
      const rows = await cluster().query(
        `select count(*) as n from sys_invocation where target_service_name = '${service}'`,
      );
      expect(Number(rows[0]?.n)).toBeGreaterThan(0);
    },
  );
});
