// Portkey's open-source gateway as a peer: installed with npm outside the repository (pinned), started on the SUT CPU.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH, CACHE, NO_PEER_INSTALL, log } from '../lib/options.mjs';
import { SUT_CPU, freePort, spawnOn, waitForLogLine, waitForPort, work } from '../lib/processes.mjs';
import { VENDOR_KEY } from '../lib/requests.mjs';

const PEER_DIR = join(CACHE, 'bench-peers', 'portkey');
export const PORTKEY_VERSION = '1.15.2';
const HONO_NODE_SERVER = '1.13.8';

function installed() {
  const start = join(PEER_DIR, 'node_modules', '@portkey-ai', 'gateway', 'build', 'start-server.js');
  try {
    const pkg = JSON.parse(readFileSync(join(PEER_DIR, 'node_modules', '@portkey-ai', 'gateway', 'package.json'), 'utf8'));
    const hono = JSON.parse(readFileSync(join(PEER_DIR, 'node_modules', '@hono', 'node-server', 'package.json'), 'utf8'));
    if (pkg.version === PORTKEY_VERSION && hono.version === HONO_NODE_SERVER && existsSync(start)) return start;
  } catch {
    /* not installed */
  }
  return null;
}

/** Portkey's gateway, installed outside the repository with npm (pinned, with the node-server override its streaming needs). */
export function ensurePortkey() {
  const ready = installed();
  if (ready || NO_PEER_INSTALL) return ready;
  log(`installing @portkey-ai/gateway ${PORTKEY_VERSION} into ${PEER_DIR}`);
  mkdirSync(PEER_DIR, { recursive: true });
  const manifest = {
    name: 'bench-peer-portkey',
    private: true,
    description: 'Peer gateway for the model-gateway benchmark (bench/run.mjs); not part of the project.',
    dependencies: { '@portkey-ai/gateway': PORTKEY_VERSION },
    overrides: { '@hono/node-server': HONO_NODE_SERVER },
  };
  writeFileSync(join(PEER_DIR, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  // --ignore-scripts: the package's only install script is patch-package, and it ships no patches.
  const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: PEER_DIR, stdio: 'inherit', timeout: 300_000 });
  if (npm.status !== 0) log('npm install of the peer failed; the Portkey cases are skipped');
  return installed();
}

export async function startPortkey(startScript) {
  const port = await freePort();
  const logFile = join(work, 'portkey.log');
  const fd = openSync(logFile, 'a');
  // The start script binds every interface; the preload pins its listen() to 127.0.0.1.
  const child = spawnOn(SUT_CPU, process.execPath, ['--import', join(BENCH, 'peer-loopback.mjs'), startScript, `--port=${port}`, '--headless'], {
    stdio: ['ignore', fd, fd],
    cwd: PEER_DIR,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  closeSync(fd);
  await waitForPort(port);
  await waitForLogLine(logFile, '', child, 1000).catch(() => {});
  return { name: 'portkey', url: `http://127.0.0.1:${port}`, port, pid: child.pid, child, logFile };
}

export function portkeyVersions() {
  const version = (...path) => JSON.parse(readFileSync(join(PEER_DIR, 'node_modules', ...path, 'package.json'), 'utf8')).version;
  return { portkey: version('@portkey-ai', 'gateway'), honoNodeServer: version('@hono', 'node-server'), hono: version('hono'), dir: PEER_DIR };
}

/** How an Anthropic client calls Portkey: its provider headers, the mock as custom host, the vendor key as bearer. */
export function portkeyCase(portkey, mock) {
  return {
    name: 'portkey',
    url: portkey.url,
    headers: { 'x-portkey-provider': 'anthropic', 'x-portkey-custom-host': `${mock.url}/v1`, authorization: `Bearer ${VENDOR_KEY}` },
    pids: [portkey.pid, mock.pid],
  };
}
