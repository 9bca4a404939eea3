import { describe, expect, it } from 'vitest';
import { daysBackIn, historyWindowOf } from '../../../../../actors/trainer/initializer/initializer-time-range.ts';
import { intentsOf, locationPhraseIn } from '../../../../../actors/trainer/offline-model/intent.ts';
import {
  equipmentIn,
  goalsIn,
  minutesIn,
  musclesIn,
  nameOverlap,
  positionIn,
  typesIn,
} from '../../../../../actors/trainer/offline-model/text-cues.ts';

describe('offline text cues', () => {
  it('reads muscles, without reading "lower back" as back or "pull-ups" as a pull day', () => {
    expect(musclesIn('chest and triceps')).toEqual(['Chest', 'Triceps']);
    expect(musclesIn('my lower back hurts')).toEqual(['Lower Back']);
    expect(musclesIn('leg day')).toEqual(['Quadriceps', 'Hamstrings', 'Glutes', 'Calves']);
    expect(musclesIn('I want to do pull-ups')).toEqual([]);
    expect(musclesIn('give me a workout')).toEqual([]);
  });

  it('reads goals, types, equipment, length and positions', () => {
    expect(goalsIn('I want to get stronger and build muscle')).toEqual(['strength', 'hypertrophy']);
    expect(typesIn('a HIIT session with planks')).toEqual(['intervals', 'hold']);
    expect(equipmentIn('bodyweight only please')).toEqual([]);
    expect(equipmentIn('a workout using a kettlebell and resistance bands')).toEqual(['kettlebell', 'resistance_band']);
    expect(equipmentIn('a chest workout')).toBeUndefined();
    expect(minutesIn('a 45-minute session')).toBe(45);
    expect(minutesIn('half an hour')).toBe(30);
    expect(positionIn('swap exercise 3', 6)).toBe(3);
    expect(positionIn('remove the last one', 6)).toBe(6);
    expect(positionIn('the second', 6)).toBe(2);
    expect(nameOverlap('Barbell Bench Press', 'swap the bench presses')).toBe(2);
  });

  it('reads history windows', () => {
    expect(daysBackIn('over the last 3 weeks')).toBe(21);
    expect(daysBackIn('this month')).toBe(30);
    expect(daysBackIn('in the past year')).toBe(365);
    expect(daysBackIn('give me a workout')).toBeUndefined();
    expect(historyWindowOf('2 workouts in the last 14 days, most recent first (limit 10):')).toBe(14);
    expect(historyWindowOf('2 workouts, most recent first (limit 10):')).toBeNull();
  });

  it('tells places from moods, and classifies requests', () => {
    expect(locationPhraseIn("i'm at the gym")).toBe('gym');
    expect(locationPhraseIn("i'm in the mood for legs")).toBeUndefined();
    expect(locationPhraseIn("i'm at dave's", ["Dave's"])).toBe("dave's");
    expect(intentsOf("I'm at home, give me a leg workout").map((i) => i.kind)).toEqual(['location', 'workout']);
    expect(intentsOf('Show my workout history').map((i) => i.kind)).toEqual(['data']);
    expect(intentsOf('Show me a leg workout').map((i) => i.kind)).toEqual(['workout']);
    expect(intentsOf('replace the squats with lunges').map((i) => i.kind)).toEqual(['swap']);
    expect(intentsOf('make the bench press 5 sets').map((i) => i.kind)).toEqual(['adjust']);
    expect(intentsOf('I skipped the plank, log it').map((i) => i.kind)).toEqual(['log']);
    expect(intentsOf('purple')).toEqual([]);
  });
});
