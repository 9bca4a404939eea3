import { describe, expect, it } from 'vitest';
import { clusterForFile } from '../support/http-host/cluster-host.ts';
import { describeNutritionA2a } from '../support/nutrition/nutrition-a2a-suite.ts';
import { describePipelineCheckins } from '../support/nutrition/pipeline-checkins-suite.ts';
import { describePipelineHttp } from '../support/nutrition/pipeline-http-suite.ts';

/*
 * The pipeline's HTTP e2e tests of tests/e2e/nutrition (pipelines, check-ins) and the nutrition
 * A2A tests, the same test bodies as on the embedded host, against one `npm run start:cluster`
 * process group (2 service processes) started once for the file. Those that swap a brain
 * in-process or drive a simulated clock stay embedded-only.
 */
const cluster = clusterForFile(2);
describePipelineHttp(cluster);
describePipelineCheckins(cluster);
describeNutritionA2a(cluster);

describe('the cluster behind those tests', () => {
  // Runs after the suites above (a file's tests run in order): their runs went through Restate,
  // not an embedded fallback.
  it("served the nutrition runs above through Restate (invocations of the system's services)", async () => {
    const rows = await cluster().query(
      "select count(*) as n from sys_invocation where target_service_name like 'nutrition-%'",
    );
    expect(Number(rows[0]?.n)).toBeGreaterThan(0);
  });
});
