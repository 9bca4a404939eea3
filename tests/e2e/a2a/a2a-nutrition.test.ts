import { embeddedForFile } from '../../support/http-host/embedded-host.ts';
import { describeNutritionA2a } from '../../support/nutrition/nutrition-a2a-suite.ts';

// The shared nutrition A2A tests on the embedded host; tests/cluster/pipeline-http.test.ts runs
// the same ones against `npm run start:cluster`.
const host = embeddedForFile();
describeNutritionA2a(host);
