import type { MedicalSource, PipelineAction, Urgency } from '../../../protocol/nutrition/medical-context.ts';
import type { RedFlagKind } from './red-flags.ts';
import {
  DE_SOUZA_2014,
  GORDON_2017,
  LOUCKS_2003,
  MOUNTJOY_2018,
  NATTIV_2007,
  NICE_2006,
  NICE_2017,
  WHO_1995,
} from './physician-sources.ts';

/** The PHYSICIAN's answer to one kind of finding. */
export interface PhysicianFinding {
  readonly pipeline_action: PipelineAction;
  readonly urgency: Urgency;
  /** The specialist to see; null for an advisory. */
  readonly referral_target: string | null;
  readonly response: string;
  readonly mechanism: string;
  readonly timeline: string;
  readonly sources: readonly MedicalSource[];
}

/**
 * What the PHYSICIAN says about each red flag. Abort for what a weight-gain program could make
 * worse without medical supervision (an eating disorder, BMI < 16); pause for what needs a
 * clinician's look before going on (amenorrhea); continue with advice for the rest (irregular).
 */
export const PHYSICIAN_FINDINGS: Readonly<Record<RedFlagKind, PhysicianFinding>> = {
  eating_disorder: {
    pipeline_action: 'abort',
    urgency: 'urgent',
    referral_target: 'eating-disorder specialist service or physician experienced in eating disorders',
    response:
      'An eating disorder in the medical history means a calorie-tracking, weight-focused program can reinforce disordered patterns. This program stops here; care from an eating-disorder specialist team comes first, and a new program needs their clearance.',
    mechanism:
      'Counting calories, weighing food and weekly weigh-ins keep attention on numbers and body weight, which is what eating-disorder treatment works to loosen; restriction-refeeding cycles also strain the heart and electrolytes.',
    timeline: 'See a specialist as soon as possible; restart only after written medical clearance.',
    sources: [NICE_2017, MOUNTJOY_2018],
  },
  low_bmi: {
    pipeline_action: 'abort',
    urgency: 'urgent',
    referral_target: 'physician (general practitioner or internal medicine) for medical assessment',
    response:
      'A BMI under 16 is severe thinness. Raising intake quickly at this weight can cause refeeding syndrome, so weight restoration has to start under medical supervision, not from a self-managed plan.',
    mechanism:
      'After a long energy shortage, a sudden rise in carbohydrate releases insulin, which pulls phosphate, potassium and magnesium into the cells; blood levels can fall low enough to disturb heart rhythm and breathing.',
    timeline:
      'Medical assessment within days; a supervised refeeding plan usually spans weeks before a program like this one is safe.',
    sources: [WHO_1995, NICE_2006, MOUNTJOY_2018],
  },
  amenorrhea: {
    pipeline_action: 'pause_pending_referral',
    urgency: 'soon',
    referral_target: 'gynecologist or sports-medicine physician',
    response:
      'Absent periods need a medical evaluation before training and nutrition targets are set: other causes must be ruled out, and if energy deficiency is the cause, the program has to be built around restoring it with clinical follow-up. The program waits until you confirm you have seen the referral.',
    mechanism:
      'When energy intake does not cover what the body spends, the brain turns down the hormone signals (GnRH, LH) that drive ovulation to save energy; low estrogen then also slows bone building.',
    timeline:
      'Book an appointment within 2-4 weeks. Once energy availability is restored, periods commonly return within several months, sometimes up to a year.',
    sources: [DE_SOUZA_2014, GORDON_2017, MOUNTJOY_2018],
  },
  irregular_menstruation: {
    pipeline_action: 'continue',
    urgency: 'routine',
    referral_target: null,
    response:
      'Irregular cycles can be an early sign of low energy availability. The program may continue; the planned surplus should help. Track your cycle, and mention it to your doctor at a routine visit, sooner if periods stop for 3 months.',
    mechanism:
      'Menstrual function sits on a continuum: small energy shortfalls first shorten the luteal phase or skip ovulation before periods stop altogether.',
    timeline: 'Track cycles for the next 3 months; cycles often become more regular as energy intake rises.',
    sources: [NATTIV_2007, LOUCKS_2003],
  },
};

/** No finding: a general health question. */
export const NO_FINDING: PhysicianFinding = {
  pipeline_action: 'continue',
  urgency: 'routine',
  referral_target: null,
  response:
    'Nothing in this query calls for stopping or pausing the program. General guidance applies: keep to the planned gradual gain and report new symptoms at the weekly check-in.',
  mechanism:
    'A gradual surplus of a few hundred kcal a day with resistance training builds tissue without stressing the body.',
  timeline: 'No specific timeline.',
  sources: [MOUNTJOY_2018],
};

/** Severity order of the pipeline actions: the most severe wins when findings are batched. */
export const PIPELINE_ACTION_SEVERITY: Readonly<Record<PipelineAction, number>> = {
  continue: 0,
  pause_pending_referral: 1,
  abort: 2,
};

/** Severity order of urgencies. */
export const URGENCY_SEVERITY: Readonly<Record<Urgency, number>> = { routine: 0, soon: 1, urgent: 2 };
