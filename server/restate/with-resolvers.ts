/*
 * The Restate SDK calls `Promise.withResolvers`, which Node 20 lacks (it came in Node 22):
 * import this module before the SDK. It defines the standard method only where it is missing.
 */
type Resolvers<T> = {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
};

const promise = Promise as unknown as { withResolvers?: <T>() => Resolvers<T> };
promise.withResolvers ??= function withResolvers<T>(): Resolvers<T> {
  let resolve!: Resolvers<T>['resolve'];
  let reject!: Resolvers<T>['reject'];
  const created = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise: created, resolve, reject };
};

export {};
