/**
 * The sandbox's harness: a script (not a module; never imported) that the child, sandbox-child.mjs,
 * runs inside the vm context before the solution. It captures the builtins it needs (the solution
 * may replace them afterwards); puts throwing stand-ins where a Node program would find `process`,
 * `require`, `Buffer` and `fetch`, noting the first attempt even when the solution catches the
 * error; gives a silent `console` and a `module.exports` to read; and installs `__sandbox__`, which
 * the child drives (`note` records an attempt the child saw itself: an import()). It answers in
 * strings only, so no object crosses between the realms:
 * `bind` '' or what was found instead, `status` a state name, `result` 'v' + JSON, 'u' (undefined),
 * 'p' (a promise still pending), 'f' + the forbidden attempt, or 'e' + kind + message, where kind is
 * 'g' (code generation), 'i' (import()), 'm' (memory) or 'x' (anything else).
 */
(() => {
  'use strict';
  const g = globalThis;
  const apply = Reflect.apply,
    defineProperty = Object.defineProperty,
    freeze = Object.freeze;
  const parse = JSON.parse,
    stringify = JSON.stringify,
    toText = String;
  const ErrorType = Error,
    PromiseType = Promise,
    promiseResolve = Promise.resolve,
    promiseThen = Promise.prototype.then;
  const slice = String.prototype.slice,
    includes = String.prototype.includes;
  const clip = (text) => (text.length > 2000 ? apply(slice, text, [0, 2000]) + '...' : text);
  let attempt = '';
  const deny = (what, hint) => {
    if (attempt === '') attempt = what;
    throw new ErrorType(what + ' is not available in the sandbox: ' + hint);
  };
  const quote = (value) => {
    try {
      return stringify(toText(value));
    } catch {
      return '?';
    }
  };
  for (const [name, hint] of [
    ['process', 'there is no process to reach'],
    ['Buffer', 'use Uint8Array'],
  ]) {
    defineProperty(g, name, {
      get() {
        deny(name, hint);
      },
      configurable: false,
    });
  }
  defineProperty(g, 'require', {
    value: function require(id) {
      deny('require(' + quote(id) + ')', 'there are no modules, file system, network or processes');
    },
    configurable: false,
  });
  defineProperty(g, 'fetch', {
    value: function fetch(url) {
      deny('fetch(' + quote(url) + ')', 'there is no network');
    },
    configurable: false,
  });
  delete g.WebAssembly;
  const quiet = () => undefined;
  g.console = {
    log: quiet,
    info: quiet,
    warn: quiet,
    error: quiet,
    debug: quiet,
    trace: quiet,
    dir: quiet,
    table: quiet,
    assert: quiet,
  };
  const mod = { exports: {} };
  g.module = mod;
  g.exports = mod.exports;

  let fn,
    args,
    state = 'idle',
    value,
    error;
  const describe = (e) => {
    try {
      if ((typeof e === 'object' && e !== null) || typeof e === 'function') {
        const name = e.name,
          message = e.message;
        if (typeof message === 'string')
          return clip((typeof name === 'string' && name !== '' ? name + ': ' : '') + message);
      }
      return clip('threw ' + toText(e));
    } catch {
      return 'threw a value that cannot be described';
    }
  };
  const kindOf = (e) => {
    try {
      const message = typeof e?.message === 'string' ? e.message : '';
      if (apply(includes, message, ['Code generation from strings disallowed'])) return 'g';
      if (e?.code === 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING') return 'i';
      if (message === 'Array buffer allocation failed') return 'm';
    } catch {
      // a getter that throws says nothing about the kind
    }
    return 'x';
  };
  const settle = (nextState, v) => {
    if (state !== 'pending') return;
    state = nextState;
    if (nextState === 'returned') value = v;
    else error = v;
  };
  const harness = {
    bind(found, name) {
      let candidate = found;
      if (typeof candidate !== 'function') {
        const exported = mod.exports;
        if (typeof exported === 'function' && (exported.name === name || found === undefined)) candidate = exported;
        else if (exported !== null && typeof exported === 'object' && typeof exported[name] === 'function')
          candidate = exported[name];
      }
      if (typeof candidate === 'function') {
        fn = candidate;
        return '';
      }
      return found === undefined ? 'missing' : found === null ? 'null' : typeof found;
    },
    prepare(json) {
      state = 'idle';
      value = undefined;
      error = undefined;
      args = parse(json);
    },
    call() {
      state = 'pending';
      let result;
      try {
        result = apply(fn, undefined, args);
      } catch (e) {
        settle('threw', e);
        return;
      }
      let then;
      try {
        then =
          (typeof result === 'object' && result !== null) || typeof result === 'function' ? result.then : undefined;
      } catch (e) {
        settle('threw', e);
        return;
      }
      if (typeof then !== 'function') {
        settle('returned', result);
        return;
      }
      try {
        apply(promiseThen, apply(promiseResolve, PromiseType, [result]), [
          (v) => settle('returned', v),
          (e) => settle('threw', e),
        ]);
      } catch (e) {
        settle('threw', e);
      }
    },
    note(what) {
      if (attempt === '') attempt = what;
    },
    hold(e) {
      state = 'pending';
      settle('threw', e);
    },
    status() {
      return attempt !== '' ? 'f' : state;
    },
    result() {
      if (attempt !== '') return 'f' + attempt;
      if (state === 'pending') return 'p';
      if (state === 'threw') return 'e' + kindOf(error) + describe(error);
      let json;
      try {
        json = stringify(value);
      } catch (e) {
        return 'ex' + 'the result is not JSON: ' + describe(e);
      }
      if (attempt !== '') return 'f' + attempt;
      return json === undefined ? 'u' : 'v' + json;
    },
  };
  defineProperty(g, '__sandbox__', { value: freeze(harness), configurable: false, writable: false, enumerable: false });
})();
