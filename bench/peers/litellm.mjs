// The LiteLLM proxy as a peer: installed from PyPI into a cached virtual environment outside the
// repository (pinned), run as its proxy with one worker, a master key and the mock as its Anthropic
// upstream, on the SUT CPU. Called as an Anthropic client calls it: POST /v1/messages with the master key.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { CACHE, NO_PEER_INSTALL, log, sleep } from '../lib/options.mjs';
import { SUT_CPU, freePort, spawnOn, work } from '../lib/processes.mjs';
import { VENDOR_KEY } from '../lib/requests.mjs';

export const LITELLM_VERSION = '1.100.5';
const DIR = join(CACHE, 'bench-peers', `litellm-${LITELLM_VERSION}`);
const VENV = join(DIR, 'venv');
const BIN = join(VENV, 'bin', 'litellm');
const PYTHON = process.env.BENCH_PYTHON ?? 'python3';
// Not a secret: it guards a proxy on 127.0.0.1 for the length of one bench run.
const MASTER_KEY = 'sk-bench-litellm-master-key';
const MODEL = 'claude-sonnet-4-5-20250929';

function installed() {
  try {
    const marker = JSON.parse(readFileSync(join(DIR, 'installed.json'), 'utf8'));
    if (marker.version === LITELLM_VERSION && existsSync(BIN)) return BIN;
  } catch {
    /* not installed */
  }
  return null;
}

/** Creates the virtual environment and installs litellm[proxy] pinned; returns the CLI's path or null. */
export function ensureLitellm() {
  const ready = installed();
  if (ready || NO_PEER_INSTALL) return ready;
  if (spawnSync(PYTHON, ['-c', 'import venv, ensurepip']).status !== 0) {
    log(`LiteLLM: ${PYTHON} with venv and ensurepip is missing (Debian: python3-venv); the LiteLLM cases are skipped`);
    return null;
  }
  log(`installing litellm[proxy]==${LITELLM_VERSION} from PyPI into ${VENV} (once; a few minutes)`);
  rmSync(VENV, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const venv = spawnSync(PYTHON, ['-m', 'venv', VENV], { stdio: 'inherit', timeout: 120_000 });
  const pip =
    venv.status === 0 ? spawnSync(join(VENV, 'bin', 'pip'), ['install', '--disable-pip-version-check', '-q', `litellm[proxy]==${LITELLM_VERSION}`], { stdio: 'inherit', timeout: 900_000 }) : venv;
  if (pip.status !== 0 || !existsSync(BIN)) {
    log('LiteLLM install failed; its cases are skipped');
    return null;
  }
  writeFileSync(join(DIR, 'installed.json'), JSON.stringify({ version: LITELLM_VERSION, at: new Date().toISOString() }) + '\n');
  return installed();
}

export async function startLitellm(bin, mockUrl) {
  const port = await freePort();
  const config = join(work, 'litellm.yaml');
  writeFileSync(
    config,
    stringify({
      model_list: [{ model_name: MODEL, litellm_params: { model: `anthropic/${MODEL}`, api_base: mockUrl, api_key: VENDOR_KEY } }],
      general_settings: { master_key: MASTER_KEY },
      litellm_settings: { telemetry: false, drop_params: false, set_verbose: false },
    }),
  );
  const logFile = join(work, 'litellm.log');
  const fd = openSync(logFile, 'a');
  const env = {
    ...process.env,
    // No network at start-up (its model price map ships in the package) and no usage telemetry.
    LITELLM_LOCAL_MODEL_COST_MAP: 'True',
    LITELLM_TELEMETRY: 'False',
    LITELLM_LOG: 'ERROR',
    PYTHONUNBUFFERED: '1',
  };
  const child = spawnOn(SUT_CPU, bin, ['--config', config, '--host', '127.0.0.1', '--port', String(port), '--num_workers', '1'], { stdio: ['ignore', fd, fd], env, cwd: work });
  closeSync(fd);
  // Ready when its liveness route answers (it imports a lot; allow a minute on a busy machine).
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`litellm exited (${child.exitCode}):\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health/liveliness`);
      if (res.ok) break;
    } catch {
      /* not yet listening */
    }
    if (Date.now() > deadline) throw new Error(`litellm did not answer within 120 s:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    await sleep(250);
  }
  return { name: 'litellm', url: `http://127.0.0.1:${port}`, port, pid: child.pid, child, logFile };
}

export function litellmVersions() {
  const py = spawnSync(join(VENV, 'bin', 'python'), ['--version'], { encoding: 'utf8' });
  return { litellm: LITELLM_VERSION, python: (py.stdout || py.stderr || '').trim(), dir: VENV };
}

// One worker serves a few dozen streams a second (a handful on a loaded machine), and 32 streams
// started together finish together: a 1–2 s window often closes before the first batch, and the
// rate then reads 0 although every stream was served. Its loads run at least this long (bounded:
// the load generator's drain deadline still applies after the window).
const MIN_WINDOW_MS = 8000;
const MIN_WARMUP_MS = 2000;

export function litellmCase(litellm, mock) {
  return {
    name: 'litellm',
    url: litellm.url,
    headers: { 'x-api-key': MASTER_KEY, authorization: `Bearer ${MASTER_KEY}` },
    pids: [litellm.pid, mock.pid],
    minDurationMs: MIN_WINDOW_MS,
    minWarmupMs: MIN_WARMUP_MS,
  };
}
