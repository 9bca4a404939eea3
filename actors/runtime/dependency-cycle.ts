/**
 * A dependency cycle among `tasks` (each id with the ids it depends on), as the path that closes
 * it (`['a', 'b', 'a']`), or undefined when there is none. Ids that are not keys of `tasks`
 * (tasks already queued, which cannot depend on new ones) end a path. Iterative, so a chain of
 * any length cannot overflow the stack.
 *
 * @example
 * findDependencyCycle(new Map([['a', ['b']], ['b', ['a']]])); // ['a', 'b', 'a']
 */
export function findDependencyCycle(tasks: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const done = new Set<string>();
  const onPath = new Map<string, number>(); // id -> its index in `path`
  for (const root of tasks.keys()) {
    if (done.has(root)) continue;
    const path: string[] = [root];
    const next: number[] = [0]; // per path entry: the index of the next dependency to visit
    onPath.set(root, 0);
    while (path.length > 0) {
      const depth = path.length - 1;
      const id = path[depth]!;
      const dependencies = tasks.get(id)!;
      const i = next[depth]!;
      if (i === dependencies.length) {
        path.pop();
        next.pop();
        onPath.delete(id);
        done.add(id);
        continue;
      }
      next[depth] = i + 1;
      const dependency = dependencies[i]!;
      const at = onPath.get(dependency);
      if (at !== undefined) return [...path.slice(at), dependency];
      if (done.has(dependency) || !tasks.has(dependency)) continue;
      onPath.set(dependency, path.length);
      path.push(dependency);
      next.push(0);
    }
  }
  return undefined;
}
