import type { ConversationView } from './conversation-view.ts';
import { intentAsking, intentsOf, QUESTIONS, type Intent } from './intent.ts';
import { gatherFacts } from './turn-facts.ts';
import { ask, handleIntent, type ToolDecision } from './turn-handlers.ts';

/** A turn never takes more calls than this; the loop's own limit is 10 (spec 001 §3.2). */
const MAX_STEPS = 8;
const NOTIFY_LIMIT = 4000;

const UNCLEAR_OPTIONS = ['Give me a full body workout', 'Show my workout history', "I'm at the gym"];

/** The intents of this turn: from the words, or continuing the question the user answers. */
function intentsFor(view: ConversationView, knownLocations: string[]): Intent[] {
  const intents = intentsOf(view.userText, knownLocations);
  if (intents.length > 0 || view.previousAsk === undefined) return intents;
  const asked = intentAsking(view.previousAsk.question);
  if (asked) return [asked.kind === 'location' ? { kind: 'location', phrase: view.userText } : asked];
  const agreed = /\b(yes|yeah|yep|sure|ok|okay|please|do it|go ahead|create)\b/i.test(view.userText);
  return view.previousAsk.question === QUESTIONS.noWorkout && agreed ? [{ kind: 'workout' }] : [];
}

const notify = (message: string, artifactId?: string): ToolDecision => {
  const text = message.length > NOTIFY_LIMIT ? `${message.slice(0, NOTIFY_LIMIT - 3)}...` : message;
  return {
    name: 'message_notify_user',
    input: artifactId ? { message: text, artifact_id: artifactId } : { message: text },
  };
};

/**
 * The offline trainer's policy: one tool per call, decided from the conversation alone, the way
 * the real model works under forced tool use (spec 001 §3). Each of the turn's intents calls
 * its tools in turn (a workout: generate_workout; an edit: swap/adjust/remove_exercise; a log:
 * log_workout; a location: fetch_data then set_current_location; data: fetch_data); once all
 * are done the results go to the user in one message_notify_user (with the workout's
 * artifact_id), and the turn ends with idle. An unclear request gets message_ask_user.
 */
export function decideNextTool(view: ConversationView): ToolDecision {
  const last = view.steps.at(-1);
  if (last?.name === 'message_notify_user') return { name: 'idle', input: { reason: 'The user has the answer.' } };
  if (view.steps.length >= MAX_STEPS) {
    return { name: 'idle', input: { reason: `Stopped after ${view.steps.length} steps without finishing.` } };
  }
  const facts = gatherFacts(view);
  const intents = intentsFor(
    view,
    facts.locations.map((known) => known.name),
  );
  if (intents.length === 0) {
    const outcome = ask(
      `${QUESTIONS.unclear} I can build a workout, adjust the current one, or show your data.`,
      UNCLEAR_OPTIONS,
    );
    return 'call' in outcome ? outcome.call : notify(outcome.summary);
  }
  const summaries: string[] = [];
  let artifactId: string | undefined;
  for (const intent of intents) {
    const outcome = handleIntent(intent, view, facts);
    if ('call' in outcome) return outcome.call;
    summaries.push(outcome.summary);
    artifactId = outcome.artifactId ?? artifactId;
  }
  return notify(summaries.join(' '), artifactId);
}
