import { isDeepStrictEqual } from 'node:util';
import type { IntakeData } from '../../../protocol/nutrition/intake-data.ts';
import type { WeeklyCheckin } from '../../../protocol/nutrition/weekly-checkin.ts';
import { VALID_PAYLOADS } from '../../unit/protocol/nutrition/fixtures.ts';
import type { CrashApi, CrashResponse, CrashWorkload } from './kill-harness.ts';
import { sleep } from './server-process.ts';

export interface NutritionWorkloadOptions {
  /** The users that create pipelines, in turn (3). */
  users?: string[];
  /** Creators running at once (1). */
  concurrency?: number;
  /** The pause of a creator after each answer (200 ms), so the machine is not swamped. */
  pauseMs?: number;
  /** Every how many creations one is a referral run (an amenorrhea intake: PHYSICIAN pauses) (4). */
  referralEvery?: number;
  /** The pause of the check-in loop after each check-in or confirmation it sent (300 ms). */
  checkinPauseMs?: number;
  /** The most check-ins one run is sent (10). */
  maxCheckinsPerRun?: number;
  /**
   * The first runs created, visited every third step of the check-in loop (the others go round
   * all the runs and the referral runs not yet confirmed), so that they get many check-ins (off
   * weeks, new versions) (8).
   */
  regulars?: number;
  /** How long `verify` waits for every run to reach `output_ready` (90 s). */
  settleTimeoutMs?: number;
}

/** A check-in the server answered 200: its `adjustment_result` envelope. */
export interface AcknowledgedCheckin {
  round: number;
  /** The check-in's week as this workload counts it (every one it sent, answered or not). */
  week: number;
  message_id: string;
  payload: unknown;
}

/** What the workload knows of one run answered 201. */
export interface RunRecord {
  user: string;
  round: number;
  /** Created from an amenorrhea intake: the PHYSICIAN pauses it for a referral. */
  referral: boolean;
  /** Check-ins sent whose answer was 200 or unknown (no answer, or one that does not refuse it). */
  sent: number;
  /** The check-ins answered 200, in order. */
  checkins: AcknowledgedCheckin[];
  /** Whether the last check-in sent was measured (waist and hip) and answered 200. */
  lastMeasuredAcknowledged: boolean;
  /** A check-in sent after the last acknowledged one got no 200 (its outcome is unknown). */
  unansweredSinceLastAck: number;
  /** The round a referral confirmation was answered 200 in. */
  confirmedInRound?: number;
  /** Confirmations sent that got no answer. */
  confirmationsUnanswered: number;
}

/** How long verify waits for a run's `last_adjustment` to become the last acknowledged one's. */
const LAST_ADJUSTMENT_WAIT_MS = 20_000;

/** Answers that show the request itself was wrong: the test is broken, not the server. */
const TEST_FAULTS = new Set([400, 401, 404, 413]);

/** The example intake's weight: every check-in weight is relative to it. */
const START_KG = VALID_PAYLOADS.intake_data.current_weight_kg;
/** Weekly gains in kg, cycled: mostly quiet weeks, some that fire §7.3 triggers (a re-run). */
const WEEKLY_GAIN_KG = [0.3, 0.1, 0.1, 0.8, 0.3, 0.4];

/** The check-in of `week` (1-based); waist and hip null when `offWeek` (§7.2: biweekly). */
function weeklyCheckin(week: number, offWeek: boolean): WeeklyCheckin {
  let gain = 0;
  for (let w = 0; w < week; w++) gain += WEEKLY_GAIN_KG[w % WEEKLY_GAIN_KG.length]!;
  const weight_kg = Math.round((START_KG + gain) * 1000) / 1000;
  if (offWeek) return { weight_kg, waist_cm: null, hip_cm: null };
  return { weight_kg, waist_cm: 68 + (week % 3 === 0 ? 1 : 0), hip_cm: 92 };
}

const describe = (answer: CrashResponse) => `${answer.status}: ${JSON.stringify(answer.body).slice(0, 1_000)}`;

/**
 * Nutrition (spec 000) under kill -9, with one creator loop and one check-in loop:
 * - the creator creates pipelines continuously (`POST /pipelines`), every `referralEvery`-th from
 *   an amenorrhea intake (the PHYSICIAN pauses it, `pause_pending_referral`), and remembers each
 *   `pipeline_run_id` answered 201;
 * - the check-in loop goes round the runs created so far: it confirms the referral of a run in
 *   `paused_physician` awaiting confirmation (`POST /pipelines/:id/physician/confirm`), and sends
 *   a weekly check-in (`POST /pipelines/:id/checkins`) to a run at rest in `output_ready` (woken
 *   from its snapshot by it), remembering each confirmation and each check-in answered 200 (the
 *   check-in's `adjustment_result` envelope), and each one sent whose outcome is unknown.
 *
 * Verify: each run reaches `output_ready` (a referral run whose confirmation was never answered
 * 200 may wait for it: it is confirmed then); a referral run kept its PHYSICIAN pause; every
 * acknowledged `adjustment_result` is in the run's messages, in order; `last_adjustment` is the
 * last acknowledged one's payload (unless a check-in sent after it was not answered); the run's
 * messages have unique `message_id`s.
 */
export function nutritionWorkload(
  options: NutritionWorkloadOptions = {},
): CrashWorkload & { acknowledged: Map<string, string>; runs: Map<string, RunRecord> } {
  const users = options.users ?? ['kill9-ada', 'kill9-bo', 'kill9-cy'];
  const concurrency = options.concurrency ?? 1;
  const pauseMs = options.pauseMs ?? 200;
  const referralEvery = options.referralEvery ?? 4;
  const checkinPauseMs = options.checkinPauseMs ?? 300;
  const maxCheckinsPerRun = options.maxCheckinsPerRun ?? 10;
  const regulars = options.regulars ?? 8;
  const settleTimeoutMs = options.settleTimeoutMs ?? 90_000;
  /** pipeline_run_id -> user, of every 201. */
  const acknowledged = new Map<string, string>();
  const runs = new Map<string, RunRecord>();
  /** The runs in the order they were answered 201 (the check-in loop goes round them). */
  const order: string[] = [];
  const refused = new Map<string, number>();
  const refuse = (what: string, status: number) =>
    refused.set(`${what} ${status}`, (refused.get(`${what} ${status}`) ?? 0) + 1);
  let next = 0;
  let cursor = 0;
  let regularCursor = 0;
  let referralCursor = 0;
  let steps = 0;
  let reruns = 0;
  let thisRound = 0;
  let checkinsThisRound = 0;
  let checkinsAcknowledged = 0;
  let checkinsUnanswered = 0;
  let busy = 0;
  let confirmations = 0;
  /** Verify's own: referral runs it confirmed, runs whose last_adjustment it had to wait for. */
  let confirmedInVerify = 0;
  let lateAdjustments = 0;

  async function creator(api: CrashApi, signal: AbortSignal) {
    while (!signal.aborted) {
      const n = next++;
      const user = users[n % users.length]!;
      const referral = n % referralEvery === referralEvery - 1;
      const intake: IntakeData = structuredClone(VALID_PAYLOADS.intake_data);
      if (referral) intake.menstrual_status = 'amenorrhea';
      let answer;
      try {
        answer = await api.call(user, 'POST', '/pipelines', intake);
      } catch {
        if (signal.aborted) return;
        await sleep(pauseMs); // not an answer: the server is going away
        continue;
      }
      if (answer.status === 201) {
        const id = answer.body?.pipeline_run_id;
        if (typeof id !== 'string')
          throw new Error(`POST /pipelines answered 201 without a pipeline_run_id: ${JSON.stringify(answer.body)}`);
        acknowledged.set(id, user);
        runs.set(id, {
          user,
          round: api.round,
          referral,
          sent: 0,
          checkins: [],
          lastMeasuredAcknowledged: false,
          unansweredSinceLastAck: 0,
          confirmationsUnanswered: 0,
        });
        order.push(id);
        thisRound += 1;
      } else if (TEST_FAULTS.has(answer.status)) {
        throw new Error(`POST /pipelines answered ${describe(answer)}`);
      } else {
        refuse('create', answer.status);
      }
      await sleep(pauseMs);
    }
  }

  /** Confirms a referral run's pause. */
  async function confirm(api: CrashApi, id: string, run: RunRecord): Promise<void> {
    let answer;
    try {
      answer = await api.call(run.user, 'POST', `/pipelines/${id}/physician/confirm`);
    } catch {
      run.confirmationsUnanswered += 1; // sent or not, its outcome is unknown
      return;
    }
    if (answer.status === 200) {
      run.confirmedInRound ??= api.round;
      confirmations += 1;
    } else if (TEST_FAULTS.has(answer.status)) {
      throw new Error(`POST /pipelines/${id}/physician/confirm answered ${describe(answer)}`);
    } else if (answer.status === 409) {
      refuse('confirm', 409); // no longer waiting (an unanswered confirmation went through)
    } else {
      run.confirmationsUnanswered += 1;
      refuse('confirm', answer.status);
    }
  }

  /** Sends the run its next weekly check-in. */
  async function checkin(api: CrashApi, id: string, run: RunRecord): Promise<void> {
    const week = run.sent + 1;
    // Null girths only right after an acknowledged measured week, so the server's count of weeks
    // (which includes a check-in sent but unanswered) can never make them due.
    const body = weeklyCheckin(week, run.lastMeasuredAcknowledged);
    let answer;
    try {
      answer = await api.call(run.user, 'POST', `/pipelines/${id}/checkins`, body);
    } catch {
      // No answer: it may have been taken (the server counts it, the run may evaluate it later).
      run.sent = week;
      run.unansweredSinceLastAck += 1;
      run.lastMeasuredAcknowledged = false;
      checkinsUnanswered += 1;
      return;
    }
    if (answer.status === 200) {
      const envelope = answer.body;
      if (
        envelope?.data_type !== 'adjustment_result' ||
        envelope.from_agent !== 'SCIENTIST' ||
        typeof envelope.message_id !== 'string' ||
        envelope.payload === undefined
      )
        throw new Error(
          `POST /pipelines/${id}/checkins answered 200 without an adjustment_result envelope: ${describe(answer)}`,
        );
      run.sent = week;
      run.checkins.push({ round: api.round, week, message_id: envelope.message_id, payload: envelope.payload });
      run.unansweredSinceLastAck = 0;
      run.lastMeasuredAcknowledged = body.waist_cm !== null;
      checkinsAcknowledged += 1;
      if (Array.isArray(envelope.payload.agents_re_run) && envelope.payload.agents_re_run.length > 0) reruns += 1;
      checkinsThisRound += 1;
    } else if (answer.status === 409) {
      busy += 1; // not_ready: the run was busy (refused before it counted), try later
    } else if (TEST_FAULTS.has(answer.status)) {
      throw new Error(
        `POST /pipelines/${id}/checkins (week ${week} as sent by the test, ${run.checkins.length} acknowledged, ` +
          `${run.unansweredSinceLastAck} unanswered since) with ${JSON.stringify(body)} answered ${describe(answer)}`,
      );
    } else {
      // e.g. 503 checkin_failed: answered, but whether the server counted it is not for the test to assume.
      run.sent = week;
      run.unansweredSinceLastAck += 1;
      run.lastMeasuredAcknowledged = false;
      refuse('checkin', answer.status);
    }
  }

  /**
   * The run to visit at a step of the check-in loop: in turn, the next of all the runs, the next
   * of the regulars, and the next referral run not yet confirmed (else the next of all).
   */
  function pick(step: number): string {
    if (step % 3 === 1) return order[regularCursor++ % Math.min(regulars, order.length)]!;
    if (step % 3 === 2) {
      const waiting = order.filter((id) => runs.get(id)!.referral && runs.get(id)!.confirmedInRound === undefined);
      if (waiting.length > 0) return waiting[referralCursor++ % waiting.length]!;
    }
    return order[cursor++ % order.length]!;
  }

  /** Goes round the runs created so far: confirms the paused, checks in the ready. */
  async function tender(api: CrashApi, signal: AbortSignal) {
    while (!signal.aborted) {
      if (order.length === 0) {
        await sleep(checkinPauseMs);
        continue;
      }
      const id = pick(steps++);
      const run = runs.get(id)!;
      if (run.sent >= maxCheckinsPerRun && (!run.referral || run.confirmedInRound !== undefined)) {
        await sleep(10);
        continue;
      }
      let view;
      try {
        view = await api.call(run.user, 'GET', `/pipelines/${id}`);
      } catch {
        if (signal.aborted) return;
        await sleep(checkinPauseMs);
        continue;
      }
      if (view.status !== 200) {
        if (TEST_FAULTS.has(view.status)) throw new Error(`GET /pipelines/${id} answered ${describe(view)}`);
        refuse('view', view.status);
        await sleep(checkinPauseMs);
        continue;
      }
      const { state, physician } = view.body;
      if (state === 'paused_physician' && physician?.awaiting_confirmation === true && run.referral) {
        await confirm(api, id, run);
        await sleep(checkinPauseMs);
      } else if (state === 'output_ready' && run.sent < maxCheckinsPerRun) {
        await checkin(api, id, run);
        await sleep(checkinPauseMs);
      } else {
        await sleep(20);
      }
    }
  }

  /** Waits for every run to reach output_ready, confirming a referral whose confirmation was never answered. */
  async function settle(api: CrashApi) {
    const deadline = Date.now() + settleTimeoutMs;
    const pending = new Set(order);
    const verifyConfirmed = new Set<string>();
    let last = new Map<string, string>();
    while (pending.size > 0) {
      for (const id of pending) {
        const run = runs.get(id)!;
        const view = await api.call(run.user, 'GET', `/pipelines/${id}`);
        if (view.status !== 200)
          throw new Error(
            `GET /pipelines/${id} (answered 201 to ${run.user} in round ${run.round}) answered ${describe(view)}`,
          );
        const { state, physician } = view.body;
        const shown = () => JSON.stringify(view.body).slice(0, 2_000);
        if (state === 'output_ready') {
          if (run.referral && physician?.response?.pipeline_action !== 'pause_pending_referral')
            throw new Error(
              `referral run ${id} is output_ready without its PHYSICIAN pause_pending_referral: ${shown()}`,
            );
          pending.delete(id);
          continue;
        }
        if (state === 'error') throw new Error(`pipeline ${id} settled in error, not output_ready: ${shown()}`);
        if (state === 'paused_physician') {
          if (!run.referral) throw new Error(`pipeline ${id} (not a referral run) is paused_physician: ${shown()}`);
          if (physician?.awaiting_confirmation !== true)
            throw new Error(`referral run ${id} is paused_physician but not awaiting confirmation: ${shown()}`);
          if (run.confirmedInRound !== undefined)
            throw new Error(
              `referral run ${id}: its confirmation was answered 200 in round ${run.confirmedInRound}, ` +
                `yet it waits for confirmation again: ${shown()}`,
            );
          if (!verifyConfirmed.has(id)) {
            // Never acknowledged: it may legitimately still wait. Confirm it now.
            const answer = await api.call(run.user, 'POST', `/pipelines/${id}/physician/confirm`);
            if (answer.status !== 200)
              throw new Error(`POST /pipelines/${id}/physician/confirm in verify answered ${describe(answer)}`);
            verifyConfirmed.add(id);
          }
        }
        last.set(id, state);
      }
      if (pending.size === 0) break;
      if (Date.now() > deadline) {
        const states = [...pending].slice(0, 20).map((id) => `${id}: ${String(last.get(id))}`);
        throw new Error(
          `${pending.size} of ${order.length} acknowledged pipelines did not reach output_ready within ${settleTimeoutMs} ms:\n${states.join('\n')}`,
        );
      }
      last = new Map();
      await sleep(250);
    }
    return verifyConfirmed.size;
  }

  /** The run's messages hold every acknowledged adjustment_result, in order, each message id once. */
  async function checkMessages(api: CrashApi, id: string, run: RunRecord) {
    const answer = await api.call(run.user, 'GET', `/pipelines/${id}/messages`);
    if (answer.status !== 200) throw new Error(`GET /pipelines/${id}/messages answered ${describe(answer)}`);
    const messages = answer.body.messages as { message_id: string; data_type: string; payload: unknown }[];
    const ids = messages.map((m) => m.message_id);
    const repeated = ids.filter((m, i) => ids.indexOf(m) !== i);
    if (repeated.length > 0)
      throw new Error(`pipeline ${id} lists message ids more than once: ${[...new Set(repeated)].join(', ')}`);
    let previous = -1;
    for (const [n, ack] of run.checkins.entries()) {
      const at = ids.indexOf(ack.message_id);
      const what = `pipeline ${id}: check-in ${n + 1} of ${run.checkins.length} acknowledged (week ${ack.week}, round ${ack.round}, adjustment_result ${ack.message_id})`;
      if (at < 0)
        throw new Error(
          `${what} is not in its messages (${messages.filter((m) => m.data_type === 'adjustment_result').length} adjustment_results there)`,
        );
      const found = messages[at]!;
      if (found.data_type !== 'adjustment_result' || !isDeepStrictEqual(found.payload, ack.payload))
        throw new Error(
          `${what} is in its messages as something else: ${JSON.stringify(found).slice(0, 1_000)}\nanswered: ${JSON.stringify(ack.payload).slice(0, 1_000)}`,
        );
      if (at <= previous) throw new Error(`${what} comes before the one acknowledged earlier in its messages`);
      previous = at;
    }
  }

  /**
   * `last_adjustment` is the last acknowledged check-in's result (unless one sent after it went
   * unanswered). A run rebuilt from its journal replays its check-ins in the background, passing
   * through output_ready with an older result: so it is waited for (`LAST_ADJUSTMENT_WAIT_MS`);
   * true when it had to be.
   */
  async function checkLastAdjustment(api: CrashApi, id: string, run: RunRecord): Promise<boolean> {
    const lastAck = run.checkins.at(-1);
    const expected = lastAck?.payload ?? null;
    const deadline = Date.now() + LAST_ADJUSTMENT_WAIT_MS;
    for (let attempt = 0; ; attempt++) {
      const view = await api.call(run.user, 'GET', `/pipelines/${id}`);
      if (view.status !== 200) throw new Error(`GET /pipelines/${id} answered ${describe(view)}`);
      const actual = view.body.last_adjustment;
      if (run.unansweredSinceLastAck > 0) {
        // A check-in after the last acknowledged one may or may not have been evaluated.
        if (!lastAck || actual !== null) return attempt > 0;
      } else if (isDeepStrictEqual(actual, expected)) return attempt > 0;
      if (Date.now() > deadline) {
        if (run.unansweredSinceLastAck > 0)
          throw new Error(
            `pipeline ${id}: ${run.checkins.length} check-ins acknowledged, yet last_adjustment is null after ${LAST_ADJUSTMENT_WAIT_MS} ms: ` +
              JSON.stringify(view.body).slice(0, 2_000),
          );
        throw new Error(
          `pipeline ${id}: last_adjustment is not the last acknowledged check-in's result after ${LAST_ADJUSTMENT_WAIT_MS} ms ` +
            `(${run.checkins.length} acknowledged, the last in round ${lastAck?.round ?? '-'}, ${lastAck?.message_id ?? 'none'}; ` +
            `state ${String(view.body.state)}, version ${String(view.body.version)}):\n` +
            `expected ${JSON.stringify(expected).slice(0, 1_500)}\nfound ${JSON.stringify(actual).slice(0, 1_500)}`,
        );
      }
      await sleep(250);
    }
  }

  return {
    name: 'nutrition',
    acknowledged,
    runs,
    async drive(api, signal) {
      thisRound = 0;
      checkinsThisRound = 0;
      await Promise.all([...Array.from({ length: concurrency }, () => creator(api, signal)), tender(api, signal)]);
    },
    async verify(api) {
      if (acknowledged.size === 0) throw new Error('no pipeline was ever acknowledged: the workload tested nothing');
      if (checkinsAcknowledged === 0) throw new Error('no check-in was ever acknowledged: the workload tested nothing');
      confirmedInVerify = await settle(api);
      for (const id of order) {
        const run = runs.get(id)!;
        await checkMessages(api, id, run);
        if (await checkLastAdjustment(api, id, run)) lateAdjustments += 1;
      }
    },
    summary() {
      const referrals = [...runs.values()].filter((r) => r.referral).length;
      const most = Math.max(0, ...[...runs.values()].map((r) => r.checkins.length));
      const others = [...refused].map(([what, n]) => `${n}×${what}`).join(' ');
      return (
        `${acknowledged.size} pipelines (+${thisRound}; ${referrals} referral, ${confirmations} confirmed), ` +
        `${checkinsAcknowledged} check-ins (+${checkinsThisRound}; ${reruns} with re-runs, up to ${most} on a run, ${checkinsUnanswered} unanswered, ${busy}×409 busy)` +
        (others ? ` (refused: ${others})` : '') +
        (confirmedInVerify + lateAdjustments > 0
          ? `; verify confirmed ${confirmedInVerify} referrals, waited for ${lateAdjustments} last_adjustments`
          : '')
      );
    },
  };
}
