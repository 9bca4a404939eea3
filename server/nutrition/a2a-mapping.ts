import { IntakeDataSchema } from '../../protocol/nutrition/intake-data.ts';
import type { A2aArtifact, A2aMapping, A2aView } from '../a2a/a2a-mapping.ts';
import { a2aStatusOf } from '../a2a/a2a-status.ts';
import { parseInput } from '../a2a/parse-input.ts';
import type { PipelineRuns } from './pipeline-runs.ts';

type PipelineView = Awaited<ReturnType<PipelineRuns['view']>>;

/** What each output is, for its artifact's description. */
const OUTPUTS: Readonly<Record<string, string>> = {
  macro_targets: "The SCIENTIST's calorie and macro targets",
  training_input: "The SCIENTIST's training inputs",
  nutrition_strategy: "The NUTRITIONIST's strategy",
  weekly_meal_plan: "The DIETITIAN's weekly meal plan",
  recipes: "The CHEF's recipes",
  training_program: "The COACH's training program",
};

/** A run's status: its referral pause is `input-required`, a medical stop `rejected`. */
const statusOf = a2aStatusOf<PipelineView>({
  state(view) {
    if (view.status === 'completed') return 'completed';
    if (view.status === 'terminated_medical') return 'rejected';
    if (view.status === 'error') return 'failed';
    return view.physician?.awaiting_confirmation ? 'input-required' : 'working';
  },
  messages: {
    'input-required': (view) =>
      `The PHYSICIAN asks you to see a doctor before the plan goes on (${JSON.stringify(view.physician?.response)}). Reply to this task to confirm you saw the referral.`,
    failed: (view) => ('failure' in view ? view.failure.message : JSON.stringify(view.error)),
    rejected: (view) => `The pipeline stopped for medical reasons: ${JSON.stringify(view.error)}`,
  },
});

/** An output envelope of the run as an artifact. */
function artifactOf(type: string, data: unknown): A2aArtifact {
  return { name: type, description: OUTPUTS[type] ?? type, schema: `nutrition/${type}`, data };
}

/** A pipeline run as an A2A task (`GET /pipelines/:id` read as task state and artifacts). */
export function pipelineTaskView(view: PipelineView): A2aView {
  const artifacts = Object.entries(view.outputs).map(([type, data]) => artifactOf(type, data));
  return { ...statusOf(view), artifacts };
}

/**
 * The nutrition pipeline over A2A: a `data` part holding `intake_data` (spec 000 §4.1) starts a
 * run (the task's context); the run's outputs (targets, strategy, meal plan, recipes, training
 * program) are its artifacts, a stream replaying each output envelope of its journal in turn; the PHYSICIAN's referral pause is `input-required`, and any reply
 * to the task confirms the referral. A run is not cancelable (spec 000 has no cancel).
 */
export function nutritionA2a(runs: PipelineRuns): A2aMapping {
  return {
    description:
      'Spec 000: from an intake, the SCIENTIST, NUTRITIONIST, DIETITIAN, CHEF and COACH produce macro targets, a weekly meal plan with recipes and a training program; the PHYSICIAN may pause for a referral.',
    skills: [
      {
        id: 'nutrition-plan',
        name: 'Nutrition and training plan',
        description: 'Send a data part with the intake (spec 000 §4.1 intake_data); reply to confirm a referral.',
        tags: ['nutrition', 'training', 'meal-plan'],
        examples: ['{"age": 34, "sex": "female", "weight_kg": 62, "height_cm": 168, "goal": "fat_loss", ...}'],
      },
    ],
    parse: (input) => parseInput(IntakeDataSchema, input.data, 'data'),
    async start({ owner, request }) {
      const { pipeline_run_id } = await runs.create(owner, request as never);
      return { ref: pipeline_run_id, contextId: pipeline_run_id };
    },
    view: async (owner, runId) => pipelineTaskView(await runs.view(owner, runId)),
    // Each output envelope once (by message id), in journal order: a rebuilt output is a new version.
    async produced(owner, runId) {
      const seen = new Set<string>();
      return (await runs.messages(owner, runId)).flatMap((envelope) => {
        if (!(envelope.data_type in OUTPUTS) || seen.has(envelope.message_id)) return [];
        seen.add(envelope.message_id);
        return [{ ...artifactOf(envelope.data_type, envelope.payload), recordId: envelope.message_id }];
      });
    },
    async follow(owner, runId, onChange) {
      const { stop } = await runs.watch(owner, runId, onChange);
      return stop;
    },
    async resume(owner, runId) {
      await runs.confirmReferral(owner, runId);
    },
  };
}
