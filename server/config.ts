import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DEFAULT_ADMISSION, SERVER_LOOP_DELAY_TARGET_MS, type AdmissionLimits } from './run-host/admission.ts';

/** The runtime's configuration, read from the environment (README, Configuration). */
export interface Config {
  port: number;
  dataDir: string;
  jwtSecret: string;
  anthropicApiKey?: string;
  anthropicBaseUrl?: string;
  openaiApiKey?: string;
  openaiBaseUrl?: string;
  primaryModel: string;
  /**
   * Admission limits of every system's run host (`MAX_WORKING_RUNS`, `MIN_WORKING_RUNS`,
   * `MAX_WORKING_RUNS_PER_USER`, `ADMISSION_LOOP_DELAY_MS`): the delay target always (the server
   * adapts its bounds unless told 0), the others where given.
   */
  admission?: Partial<AdmissionLimits>;
}

const SECRET_FILE = 'auth-secret';

/**
 * The HS256 secret: `AUTH_JWT_SECRET` when set, else a random one kept in `DATA_DIR` so that
 * tokens stay valid across restarts (and `npm run token` signs with the server's secret).
 */
async function resolveJwtSecret(dataDir: string, fromEnv: string | undefined): Promise<string> {
  if (fromEnv) return fromEnv;
  const file = join(dataDir, SECRET_FILE);
  try {
    const stored = (await readFile(file, 'utf8')).trim();
    if (stored) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  // `wx` never overwrites a secret another process wrote first.
  try {
    await writeFile(file, `${secret}\n`, { flag: 'wx', mode: 0o600 });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await readFile(file, 'utf8')).trim();
    throw error;
  }
}

/** `DATA_DIR` as an absolute path (`./data` by default). */
export function dataDirOf(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.DATA_DIR || './data');
}

export async function loadConfig(env: NodeJS.ProcessEnv = process.env): Promise<Config> {
  const dataDir = dataDirOf(env);
  const port = Number(env.PORT || 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`PORT must be an integer from 0 to 65535, got "${env.PORT}".`);
  }
  const config: Config = {
    port,
    dataDir,
    jwtSecret: await resolveJwtSecret(dataDir, env.AUTH_JWT_SECRET),
    primaryModel: env.PRIMARY_MODEL || 'claude-haiku-4-5',
  };
  // The server adapts each system's bound to the event loop's delay unless told not to (0).
  const admission: Partial<AdmissionLimits> = {
    loopDelayTargetMs: wholeNumber(env, 'ADMISSION_LOOP_DELAY_MS', 0) ?? SERVER_LOOP_DELAY_TARGET_MS,
  };
  const maxWorking = wholeNumber(env, 'MAX_WORKING_RUNS');
  if (maxWorking !== undefined) admission.maxWorking = maxWorking;
  const minWorking = wholeNumber(env, 'MIN_WORKING_RUNS');
  if (minWorking !== undefined) admission.minWorking = minWorking;
  const maxPerOwner = wholeNumber(env, 'MAX_WORKING_RUNS_PER_USER');
  if (maxPerOwner !== undefined) admission.maxPerOwner = maxPerOwner;
  const ceiling = maxWorking ?? DEFAULT_ADMISSION.maxWorking;
  if (minWorking !== undefined && minWorking > ceiling) {
    throw new Error(`MIN_WORKING_RUNS (${minWorking}) must not be more than MAX_WORKING_RUNS (${ceiling}).`);
  }
  config.admission = admission;
  if (env.ANTHROPIC_API_KEY) config.anthropicApiKey = env.ANTHROPIC_API_KEY;
  if (env.ANTHROPIC_BASE_URL) config.anthropicBaseUrl = env.ANTHROPIC_BASE_URL;
  if (env.OPENAI_API_KEY) config.openaiApiKey = env.OPENAI_API_KEY;
  if (env.OPENAI_BASE_URL) config.openaiBaseUrl = env.OPENAI_BASE_URL;
  return config;
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, min = 1): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be ${min === 0 ? 'a whole number' : 'a positive integer'}, got "${raw}".`);
  return value;
}
