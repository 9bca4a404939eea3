import { describe, expect, it } from 'vitest';
import {
  findExercise,
  removeExerciseAt,
  renumberExercises,
} from '../../../../../actors/trainer/tools/workout-edits.ts';
import type { ExerciseGroup } from '../../../../../protocol/trainer/tools/exercise-group.ts';

type Slot = { id: string; order: number; group?: ExerciseGroup };

describe('findExercise', () => {
  const list: Slot[] = [
    { id: 'a', order: 1 },
    { id: '2', order: 3 },
    { id: 'c', order: 2 },
  ];

  it('finds by id first, then by order number', () => {
    expect(findExercise(list, 'a')?.index).toBe(0);
    expect(findExercise(list, '2')?.exercise.id).toBe('2'); // an id that looks like an order wins
    expect(findExercise(list, '3')?.exercise.id).toBe('2');
    expect(findExercise(list, ' #1 ')?.exercise.id).toBe('a');
    expect(findExercise(list, '9')).toBeUndefined();
    expect(findExercise(list, 'zzz')).toBeUndefined();
  });
});

describe('renumberExercises', () => {
  it('sorts by order and numbers 1..n without touching the input', () => {
    const input: Slot[] = [
      { id: 'x', order: 7 },
      { id: 'y', order: 3 },
    ];
    expect(renumberExercises(input)).toEqual([
      { id: 'y', order: 1 },
      { id: 'x', order: 2 },
    ]);
    expect(input[0]?.order).toBe(7);
  });

  it('renumbers group positions and keeps leader fields on the first member', () => {
    const group = (position: number, extra: Partial<ExerciseGroup> = {}): ExerciseGroup => ({
      id: 'g',
      type: 'circuit',
      position,
      ...extra,
    });
    const out = renumberExercises<Slot>([
      { id: 'a', order: 1, group: group(2) },
      { id: 'b', order: 2, group: group(1, { name: 'Burner', rounds: 2 }) },
    ]);
    expect(out.map((e) => e.group)).toEqual([group(1, { name: 'Burner', rounds: 2 }), group(2)]);
  });
});

describe('removeExerciseAt', () => {
  it('dissolves a superset that lost a member', () => {
    const out = removeExerciseAt<Slot>(
      [
        { id: 'a', order: 1, group: { id: 's', type: 'superset', position: 1, name: 'Pair' } },
        { id: 'b', order: 2, group: { id: 's', type: 'superset', position: 2 } },
        { id: 'c', order: 3 },
      ],
      0,
    );
    expect(out).toEqual([
      { id: 'b', order: 1 },
      { id: 'c', order: 2 },
    ]);
  });
});
