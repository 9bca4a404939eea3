/**
 * Maps `items` through `fn` with at most `limit` calls under way, keeping the order of `items`:
 * enough to overlap disk work without opening a file per item at once. After a failure no new
 * call starts, and the first error rejects.
 *
 * @example
 * const docs = await mapLimited(files, 16, (file) => readFile(file, 'utf8'));
 */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index] as T);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(limit, 1), items.length) }, worker));
  return results;
}
