// Child processes of a bench run: CPU placement, start, stop, ports, and the
// run's own lifetime (every child is killed when the run ends or hits its deadline).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ROOT, log, runClock, sleep } from './options.mjs';

// Two cores: the system under test gets one to itself; the load generator, the
// mock provider, Redis and the orchestrator share the other.
const haveTaskset = spawnSync('taskset', ['-V']).status === 0;
export const cpuCount = cpus().length;
export const PINNED = haveTaskset && cpuCount >= 2;
export const SUT_CPU = String(cpuCount - 1);
export const DRIVER_CPU = '0';

export const work = mkdtempSync(join(tmpdir(), 'gw-bench-'));
const children = new Set();

export function spawnOn(cpu, command, args, options = {}) {
  const [cmd, list] = PINNED ? ['taskset', ['-c', cpu, command, ...args]] : [command, args];
  const child = spawn(cmd, list, { cwd: ROOT, ...options });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/**
 * V8's CPU profiler takes its samples from a thread of its own (v8:ProfEvntProc) that signals the main thread each
 * interval. Pinned with the SUT to its one CPU, that thread runs only when the main thread yields, so nearly every
 * sample lands on the idle event loop: gw serve under the s1 load read 191 µs busy per request in its profile against
 * 711 µs of CPU in /proc. On the driver's CPU it samples on time (468 of 684). Returns how many threads were moved.
 */
export function profilerThreadsToDriverCpu(pid) {
  if (!PINNED) return 0;
  let moved = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let name;
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      continue; // the thread ended meanwhile
    }
    if (name === 'v8:ProfEvntProc' && spawnSync('taskset', ['-p', '-c', DRIVER_CPU, tid], { stdio: 'ignore' }).status === 0) moved++;
  }
  return moved;
}

export async function stopChild(child, signal = 'SIGTERM', waitMs = 10_000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  if ((await Promise.race([exited.then(() => 'exited'), sleep(waitMs).then(() => 'timeout')])) === 'timeout') {
    child.kill('SIGKILL');
    await Promise.race([exited, sleep(2000)]);
  }
}

export function killAll() {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

/** Pins this process to the driver CPU, kills every child on exit, and stops the run after `deadlineMs`. */
export function installLifetime(deadlineMs) {
  if (PINNED) spawnSync('taskset', ['-a', '-p', '-c', DRIVER_CPU, String(process.pid)], { stdio: 'ignore' });
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      killAll();
      process.exit(130);
    });
  }
  runClock.deadlineAt = Date.now() + deadlineMs;
  setTimeout(() => {
    log(`hard deadline of ${deadlineMs / 60_000} minutes reached; stopping everything`);
    killAll();
    process.exit(3);
  }, deadlineMs).unref();
}

export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

export function waitForPort(port, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolveWait, reject) => {
    const attempt = () => {
      const socket = createConnection(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.end();
        resolveWait();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nothing listened on 127.0.0.1:${port} within ${timeoutMs} ms`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/** First stdout line that parses as JSON with a `listening` field. */
export function listeningLine(child, name, timeoutMs = 20_000) {
  return new Promise((resolveLine, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${timeoutMs} ms`)), timeoutMs);
    child.stdout.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      for (const line of buffered.split('\n')) {
        try {
          const parsed = JSON.parse(line);
          if (parsed.listening) {
            clearTimeout(timer);
            resolveLine(parsed.listening);
          }
        } catch {
          /* not yet a full line */
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before listening`)));
  });
}

export async function waitForLogLine(file, prefix, child, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${basename(file)}: process exited (${child.exitCode}):\n${readFileSync(file, 'utf8').slice(-2000)}`);
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const line = text.split('\n').find((l) => l.startsWith(prefix));
    if (line) return line;
    await sleep(50);
  }
  throw new Error(`${basename(file)}: no "${prefix}" line within ${timeoutMs} ms`);
}

export async function getJson(url, init) {
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, body: await res.json() };
}
