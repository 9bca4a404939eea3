import { embeddedForFile } from '../../support/http-host/embedded-host.ts';
import { describeTiersHttp } from '../../support/tiers/tiers-http-suite.ts';

// The shared tiers HTTP tests on the embedded host; tests/cluster/tiers-http.test.ts runs the same
// ones against `npm run start:cluster`. Those that hold a specialist in-process or restart the
// runtime stay embedded-only (tiers-cancel, tiers-messages, tiers-hostile, ...).
const host = embeddedForFile();
describeTiersHttp(host);
