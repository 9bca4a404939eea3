import type { z } from 'zod';
import { GROUP_SIZE, type ExerciseGroup } from './exercise-group.ts';

type Slot = { order: number; group?: ExerciseGroup | undefined };
type Issue = { path: (string | number)[]; message: string };

/**
 * Rules that span exercises: orders are unique; the members of a group share its type, sit next
 * to each other in the workout, are numbered 1..k in workout order, and number as many as the
 * group type needs (a superset pairs two, a giant set chains three or more).
 */
function workoutStructureIssues(exercises: readonly Slot[]): Issue[] {
  const issues: Issue[] = [];
  const seenOrders = new Map<number, number>();
  exercises.forEach((exercise, index) => {
    const first = seenOrders.get(exercise.order);
    if (first !== undefined) {
      issues.push({ path: [index, 'order'], message: `order ${exercise.order} is already used by exercise ${first}` });
    } else seenOrders.set(exercise.order, index);
  });
  if (issues.length > 0) return issues;

  const indexed = exercises.map((exercise, index) => ({ exercise, index }));
  const byOrder = [...indexed].sort((a, b) => a.exercise.order - b.exercise.order);
  const members = new Map<string, typeof byOrder>();
  for (const entry of byOrder) {
    const group = entry.exercise.group;
    if (!group) continue;
    members.set(group.id, [...(members.get(group.id) ?? []), entry]);
  }
  for (const [id, list] of members) {
    const leader = list[0];
    if (!leader?.exercise.group) continue;
    const type = leader.exercise.group.type;
    const size = GROUP_SIZE[type];
    if (list.length < size.min || list.length > size.max) {
      const wanted = size.max === size.min ? `exactly ${size.min}` : `at least ${size.min}`;
      issues.push({
        path: [leader.index, 'group'],
        message: `group "${id}" is a ${type} and needs ${wanted} exercises, got ${list.length}`,
      });
    }
    list.forEach((entry, k) => {
      const group = entry.exercise.group;
      if (group && group.type !== type) {
        issues.push({ path: [entry.index, 'group', 'type'], message: `group "${id}" mixes ${type} and ${group.type}` });
      }
      if (group && group.position !== k + 1) {
        issues.push({
          path: [entry.index, 'group', 'position'],
          message: `group "${id}" positions must run 1..${list.length} in workout order; expected ${k + 1}, got ${group.position}`,
        });
      }
      const previous = byOrder.indexOf(entry) - 1;
      if (k > 0 && byOrder[previous]?.exercise.group?.id !== id) {
        issues.push({
          path: [entry.index, 'group'],
          message: `members of group "${id}" must be consecutive in the workout`,
        });
      }
    });
  }
  return issues;
}

/** Reports the workout structure issues inside a zod refinement (a `superRefine` callback). */
export function refineWorkoutStructure(exercises: readonly Slot[], ctx: z.core.$RefinementCtx): void {
  for (const issue of workoutStructureIssues(exercises)) ctx.addIssue({ code: 'custom', ...issue });
}
