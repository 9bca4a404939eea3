import { z } from 'zod';

/**
 * The equipment vocabulary of the exercise library. Locations name their equipment freely
 * ("Dumbbells", "Pull-up Bar"); the library maps those names onto these ids.
 */
export const EQUIPMENT = [
  'barbell',
  'dumbbell',
  'kettlebell',
  'ez_bar',
  'weight_plate',
  'bench',
  'squat_rack',
  'pull_up_bar',
  'dip_station',
  'cable_machine',
  'lat_pulldown_machine',
  'leg_press_machine',
  'leg_curl_machine',
  'leg_extension_machine',
  'hip_abduction_machine',
  'hip_adduction_machine',
  'pec_deck_machine',
  'hyperextension_bench',
  'resistance_band',
  'suspension_trainer',
  'medicine_ball',
  'stability_ball',
  'ab_wheel',
  'plyo_box',
  'jump_rope',
  'treadmill',
  'stationary_bike',
  'rowing_machine',
  'elliptical',
  'mat',
] as const;

export const EquipmentSchema = z.enum(EQUIPMENT);
export type Equipment = z.infer<typeof EquipmentSchema>;
