/**
 * The sandbox's child process: reads one run (the harness, a solution, its function's name, the
 * calls' argument lists as JSON texts) on stdin, runs each call in a `vm` context that holds no
 * object of this realm, and writes one JSON line per event on fd 1. Started by sandbox-process.ts
 * with Node's permission model on (no file system, no child process, no worker), code generation
 * from strings off in every realm, and an empty environment; this file is passed with `--eval`, so
 * the process reads no file at all. Everything runs synchronously: the context's microtasks drain
 * inside each timed `runInContext` (`microtaskMode: 'afterEvaluate'`), so user code never runs
 * outside a timed call, and a promise still pending after its call can never settle (the context
 * has no timers).
 */
import dgram from 'node:dgram';
import dns from 'node:dns';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { types } from 'node:util';
import vm from 'node:vm';

/** Writes one JSON line on fd 1, synchronously (the pipe may be full: retry until it drains). */
function emit(message) {
  const bytes = Buffer.from(JSON.stringify(message) + '\n');
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += fs.writeSync(1, bytes, offset);
    } catch (error) {
      if (error?.code !== 'EAGAIN') throw error;
    }
  }
}

/**
 * Second wall behind the vm realm: were user code to reach this realm (vm is not a security
 * boundary), it would find no network, no signals to send, no stdio streams, no module loader.
 * Node 20's permission model covers the file system, processes, workers and addons, not these.
 */
function closeEscapes() {
  const denied = (what) =>
    function denied() {
      throw new Error(`${what} is disabled in the sandbox`);
    };
  for (const [name, mod] of [
    ['net', net],
    ['dgram', dgram],
    ['dns', dns],
    ['dns.promises', dns.promises],
  ]) {
    for (const [key, property] of Object.entries(Object.getOwnPropertyDescriptors(mod))) {
      // Lazy getters (net.BlockList, net.SocketAddress) build values, not connections.
      if (typeof property.value === 'function' && property.writable) mod[key] = denied(`${name}.${key}`);
    }
  }
  // http, https, tls, http2 and fetch all open their sockets through net.Socket's connect.
  net.Socket.prototype.connect = denied('net.Socket.connect');
  net.Server.prototype.listen = denied('net.Server.listen');
  for (const method of ['bind', 'connect', 'send']) dgram.Socket.prototype[method] = denied(`dgram.Socket.${method}`);
  syncBuiltinESMExports();
  for (const name of ['fetch', 'WebSocket', 'EventSource']) {
    Object.defineProperty(globalThis, name, { value: denied(name), configurable: false, writable: false });
  }
  for (const name of [
    'binding',
    '_linkedBinding',
    'dlopen',
    'getBuiltinModule',
    'kill',
    '_kill',
    '_debugProcess',
    'loadEnvFile',
    'chdir',
  ]) {
    Object.defineProperty(process, name, { value: denied(`process.${name}`), configurable: false, writable: false });
  }
  for (const name of ['stdin', 'stdout', 'stderr', 'report', 'openStdin']) {
    Object.defineProperty(process, name, { get: denied(`process.${name}`), configurable: false });
  }
}

const CALL = new vm.Script('__sandbox__.call()', { filename: 'sandbox-call' });
const RESULT = new vm.Script('__sandbox__.result()', { filename: 'sandbox-result' });

/**
 * An error out of `runInContext` that is the vm's own timeout. Node makes it in the context's realm,
 * so it is told by its own `code` property, read without running any getter or proxy trap.
 */
const isTimeout = (error) =>
  typeof error === 'object' &&
  error !== null &&
  !types.isProxy(error) &&
  Object.getOwnPropertyDescriptor(error, 'code')?.value === 'ERR_SCRIPT_EXECUTION_TIMEOUT';

/** What a harness answer means for the run: null when the run goes on. */
function verdictOf(answer, where) {
  if (answer[0] === 'f') {
    return {
      verdict: 'forbidden',
      detail: `${where} tried ${answer.slice(1)}: the sandbox has no modules, file system, network or processes`,
    };
  }
  if (answer[0] !== 'e') return null;
  const kind = answer[1];
  const text = answer.slice(2);
  if (kind === 'g') {
    return {
      verdict: 'forbidden',
      detail: `${where} tried eval or new Function, which the sandbox disables (${text})`,
    };
  }
  if (kind === 'i') return { verdict: 'forbidden', detail: `${where} tried import(), which the sandbox disables` };
  if (kind === 'm') return { verdict: 'memory', detail: `${where} ran out of memory (${text})` };
  return null;
}

function run(input) {
  const { code, functionName, calls, repeat, timeoutMs } = input;
  const context = vm.createContext(Object.create(null), {
    name: 'sandbox',
    codeGeneration: { strings: false, wasm: false },
    microtaskMode: 'afterEvaluate',
  });
  new vm.Script(input.harness, { filename: 'sandbox-harness' }).runInContext(context);
  const harness = vm.runInContext('__sandbox__', context);
  // Without this callback Node rejects import() with an error of this realm, whose constructors
  // lead here; with it, the attempt is noted and the rejection is the context's own TypeError.
  const ContextTypeError = vm.runInContext('TypeError', context);
  const importModuleDynamically = (specifier) => {
    harness.note(`import(${JSON.stringify(String(specifier))})`);
    throw new ContextTypeError('import() is not available in the sandbox: there are no modules');
  };
  const startedAt = performance.now();
  const deadline = startedAt + timeoutMs;
  const timeLeft = () => Math.max(1, Math.ceil(deadline - performance.now()));
  const end = (verdict, detail) => emit({ t: 'end', verdict, detail });
  const runTimed = (script) => script.runInContext(context, { timeout: timeLeft() });
  const late = (where) => end('timeout', `${where} ran past the ${timeoutMs} ms time limit`);
  emit({ t: 'ready' });

  let solution;
  try {
    solution = new vm.Script(code, {
      filename: 'solution.js',
      ...(process.execArgv.includes('--experimental-vm-modules') ? { importModuleDynamically } : {}),
    });
  } catch (error) {
    const where = String(error?.stack ?? '').match(/^solution\.js:(\d+)/);
    return end('compile_error', `${error?.name}: ${error?.message}${where ? ` (line ${where[1]})` : ''}`);
  }
  let bind;
  try {
    const name = functionName;
    bind = new vm.Script(
      `__sandbox__.bind(typeof ${name} === 'undefined' ? undefined : ${name}, ${JSON.stringify(name)})`,
    );
  } catch {
    return end('compile_error', `${functionName} cannot name a function (a reserved word?): choose another name`);
  }
  // Loads the solution, then finds the function; a failure here is the code's, not a call's.
  for (const [where, script] of [
    ['loading the code', solution],
    ['finding the function', bind],
  ]) {
    let found;
    try {
      found = runTimed(script);
    } catch (error) {
      if (isTimeout(error)) return late(where);
      harness.hold(error);
      const answer = runTimed(RESULT);
      const stop = verdictOf(answer, where);
      if (stop) return end(stop.verdict, stop.detail);
      return end('compile_error', `${where} failed: ${answer.slice(2)}`);
    }
    if (harness.status() === 'f') {
      const stop = verdictOf(runTimed(RESULT), where);
      return end(stop.verdict, stop.detail);
    }
    if (script !== solution && found !== '') {
      return end(
        'compile_error',
        found === 'missing'
          ? `the code defines no function named ${functionName}: define \`function ${functionName}(...)\` at the top level (or set module.exports.${functionName})`
          : `${functionName} is ${found === 'null' ? 'null' : `a ${found}`}, not a function: define \`function ${functionName}(...)\` at the top level`,
      );
    }
  }

  /**
   * Runs call `index` `repeat` times, each with fresh arguments, and gives the harness's answer for
   * the last round with the mean time. The first round runs under the vm's watchdog (a thread that
   * costs about 0.2 ms a call); with `repeat` > 1 it is a warm-up, and the rounds after it run and
   * are timed without one (the parent's kill still bounds them). Null when the time is up.
   */
  const runCall = (index) => {
    let timedMs = 0;
    let timedRounds = 0;
    for (let round = 0; round < repeat; round += 1) {
      try {
        harness.prepare(calls[index]);
      } catch (error) {
        return { answer: `exits arguments could not be read (${error?.message})`, ms: 0 };
      }
      const before = performance.now();
      try {
        if (round === 0) runTimed(CALL);
        else CALL.runInContext(context);
      } catch (error) {
        if (isTimeout(error)) return null;
        harness.hold(error);
      }
      const ms = performance.now() - before;
      if (repeat === 1 || round > 0) [timedMs, timedRounds] = [timedMs + ms, timedRounds + 1];
      if (performance.now() > deadline) return null;
      if (harness.status() !== 'returned' || round === repeat - 1) {
        try {
          return { answer: runTimed(RESULT), ms: timedRounds > 0 ? timedMs / timedRounds : ms };
        } catch (error) {
          return isTimeout(error) ? null : { answer: 'ex' + 'its result could not be read', ms };
        }
      }
    }
  };

  emit({ t: 'loaded' });
  for (let index = 0; index < calls.length; index += 1) {
    const where = `call ${index}`;
    const outcome = runCall(index);
    if (outcome === null) return late(where);
    const { answer, ms } = outcome;
    const stop = verdictOf(answer, where);
    if (stop) {
      if (stop.verdict === 'memory') emit({ t: 'call', i: index, ms, ok: false, error: answer.slice(2) });
      return end(stop.verdict, stop.detail);
    }
    if (answer[0] === 'v') emit({ t: 'call', i: index, ms, ok: true, json: answer.slice(1) });
    else if (answer === 'u') emit({ t: 'call', i: index, ms, ok: true });
    else {
      const error =
        answer === 'p'
          ? 'it returned a promise that never settles (the sandbox has no timers or I/O)'
          : answer.slice(2);
      emit({ t: 'call', i: index, ms, ok: false, error });
    }
  }
  return end('ok');
}

// A promise the solution leaves rejected is its own business, not the runner's.
process.on('unhandledRejection', () => {});
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
closeEscapes();
try {
  // Started without the permission model (a changed command line), this process runs nothing.
  const permission = process.permission;
  if (!permission || ['fs.write', 'fs.read', 'child', 'worker'].some((scope) => permission.has(scope))) {
    throw new Error('the permission model is off or grants access; the sandbox refuses to run the code');
  }
  run(input);
} catch (error) {
  emit({ t: 'end', verdict: 'crashed', detail: `the sandbox's runner failed: ${error?.message ?? error}` });
}
process.exit(0);
