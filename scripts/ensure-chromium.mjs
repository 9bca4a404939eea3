// Run by `npm test` before vitest: the browser tests drive Debian's Chromium at /usr/bin/chromium
// (playwright-core, never a downloaded browser). Returns at once when it is there; otherwise installs
// it with apt-get when it can (root), or stops with a message saying how to install it.
import { accessSync, constants } from 'node:fs';
import { spawnSync } from 'node:child_process';

const chromium = '/usr/bin/chromium';
const install = 'apt-get install chromium';

function isInstalled() {
  try {
    accessSync(chromium, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** @param {string[]} args */
function aptGet(args) {
  const result = spawnSync('apt-get', args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.error
    ? result.error.message
    : result.status === 0
      ? null
      : `apt-get ${args[0]} exited ${result.status}`;
}

function fail(reason) {
  console.error(
    `npm test: the browser tests need Debian's Chromium at ${chromium}, and ${reason}.\n` +
      `Install it once with \`sudo ${install}\` (Debian/Ubuntu), then run npm test again.`,
  );
  process.exit(1);
}

if (!isInstalled()) {
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) fail('it is missing (installing it needs root)');
  if (spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).error)
    fail('it is missing and apt-get is not available');
  console.error(`npm test: ${chromium} is missing; installing Debian's chromium with apt-get...`);
  const failure = aptGet(['update', '-qq']) ?? aptGet(['install', '-y', '-qq', 'chromium']);
  if (failure) fail(`installing it failed (${failure})`);
  if (!isInstalled()) fail(`apt-get installed chromium but ${chromium} is still missing`);
}
