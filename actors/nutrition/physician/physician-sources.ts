import type { MedicalSource } from '../../../protocol/nutrition/medical-context.ts';

// The PHYSICIAN's reference list: real, citable publications, each with the finding it is cited for.

/** Female Athlete Triad consensus: menstrual dysfunction needs evaluation and energy repair. */
export const DE_SOUZA_2014: MedicalSource = {
  author: 'De Souza MJ, Nattiv A, Joy E, et al.',
  year: 2014,
  publication:
    '2014 Female Athlete Triad Coalition Consensus Statement on Treatment and Return to Play of the Female Athlete Triad. Br J Sports Med 48(4):289',
  finding:
    'Amenorrhea is a Triad component that calls for medical evaluation and a risk-stratified clearance decision; first-line treatment is restoring energy availability under a multidisciplinary team.',
};

/** RED-S: low energy availability disturbs menstrual function, bone, metabolism. */
export const MOUNTJOY_2018: MedicalSource = {
  author: 'Mountjoy M, Sundgot-Borgen JK, Burke LM, et al.',
  year: 2018,
  publication:
    'IOC consensus statement on relative energy deficiency in sport (RED-S): 2018 update. Br J Sports Med 52(11):687-697',
  finding:
    'Low energy availability impairs menstrual function, bone health, metabolic rate and protein synthesis; disordered eating and amenorrhea place an athlete in the high-risk category.',
};

/** Functional hypothalamic amenorrhea is a diagnosis of exclusion. */
export const GORDON_2017: MedicalSource = {
  author: 'Gordon CM, Ackerman KE, Berga SL, et al.',
  year: 2017,
  publication:
    'Functional Hypothalamic Amenorrhea: An Endocrine Society Clinical Practice Guideline. J Clin Endocrinol Metab 102(5):1413-1439',
  finding:
    'Amenorrhea must be evaluated (pregnancy, thyroid, prolactin, ovarian causes) before it is attributed to energy deficit; bone density assessment is advised after 6 months of amenorrhea.',
};

/** The menstrual-function continuum. */
export const NATTIV_2007: MedicalSource = {
  author: 'Nattiv A, Loucks AB, Manore MM, et al.',
  year: 2007,
  publication:
    'American College of Sports Medicine position stand. The female athlete triad. Med Sci Sports Exerc 39(10):1867-1882',
  finding:
    'Menstrual function lies on a continuum from eumenorrhea through subclinical and oligomenorrheic disturbances to amenorrhea, tracking energy availability.',
};

/** LH pulsatility is disrupted below an energy-availability threshold. */
export const LOUCKS_2003: MedicalSource = {
  author: 'Loucks AB, Thuma JR',
  year: 2003,
  publication:
    'Luteinizing hormone pulsatility is disrupted at a threshold of energy availability in regularly menstruating women. J Clin Endocrinol Metab 88(1):297-311',
  finding:
    'LH pulsatility, which drives ovulation, is disrupted when energy availability falls below about 30 kcal/kg fat-free mass per day.',
};

/** WHO BMI classes. */
export const WHO_1995: MedicalSource = {
  author: 'World Health Organization',
  year: 1995,
  publication: 'Physical status: the use and interpretation of anthropometry. WHO Technical Report Series 854',
  finding: 'A BMI under 16 kg/m2 is classified as severe thinness.',
};

/** NICE refeeding criteria. */
export const NICE_2006: MedicalSource = {
  author: 'National Institute for Health and Care Excellence (NICE)',
  year: 2006,
  publication:
    'Nutrition support for adults: oral nutrition support, enteral tube feeding and parenteral nutrition. Clinical guideline CG32',
  finding:
    'A BMI under 16 kg/m2 alone places a person at high risk of refeeding problems; nutrition must be reintroduced slowly under medical supervision with electrolyte monitoring.',
};

/** NICE eating-disorder guideline. */
export const NICE_2017: MedicalSource = {
  author: 'National Institute for Health and Care Excellence (NICE)',
  year: 2017,
  publication: 'Eating disorders: recognition and treatment. NICE guideline NG69',
  finding:
    'People with a suspected or known eating disorder should be assessed and treated by specialist eating-disorder services; calorie-focused programs should not replace that care.',
};
