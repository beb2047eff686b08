// What the kernel says about a process: CPU time, run-queue wait, RSS, listening sockets (all from /proc).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

export function cpuTicks(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}
export function memory(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
    return { rssMB: kb('VmRSS') / 1024, hwmMB: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** Nanoseconds every thread of the process spent on a CPU, and waiting for one while runnable (schedstat). */
export function schedstat(pid) {
  let run = 0;
  let wait = 0;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        const [a, b] = readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ');
        run += Number(a);
        wait += Number(b);
      } catch {
        /* thread gone */
      }
    }
  } catch {
    return null;
  }
  return { run, wait };
}

/** Samples CPU time, run-queue wait and RSS of some processes while a run goes on. */
export function sampler(pids) {
  const start = Object.fromEntries(pids.map((p) => [p, cpuTicks(p)]));
  const sched0 = Object.fromEntries(pids.map((p) => [p, schedstat(p)]));
  const peak = Object.fromEntries(pids.map((p) => [p, memory(p)?.rssMB ?? 0]));
  const first = Object.fromEntries(pids.map((p) => [p, memory(p)?.rssMB ?? null]));
  const t0 = performance.now();
  const timer = setInterval(() => {
    for (const p of pids) {
      const m = memory(p);
      if (m && m.rssMB > peak[p]) peak[p] = m.rssMB;
    }
  }, 100);
  return () => {
    clearInterval(timer);
    const seconds = (performance.now() - t0) / 1000;
    // In the order given: the system under test first, then the mock, then Redis.
    const out = [];
    for (const p of pids) {
      const end = cpuTicks(p);
      const m = memory(p);
      const cpuMs = start[p] === null || end === null ? null : ((end - start[p]) * 1000) / CLK_TCK;
      const s1 = schedstat(p);
      const s0 = sched0[p];
      // Run-queue wait: time the process was ready to run but another task had the CPU (other load on the machine).
      const waitMs = s0 && s1 ? (s1.wait - s0.wait) / 1e6 : null;
      const onCpuMs = s0 && s1 ? (s1.run - s0.run) / 1e6 : null;
      // schedstat counts nanoseconds; /proc/<pid>/stat counts clock ticks (10 ms): prefer the finer one.
      out.push({
        pid: p,
        cpuMs: onCpuMs ?? cpuMs,
        cpuTicksMs: cpuMs,
        onCpuMs,
        waitMs,
        waitPercent: waitMs === null ? null : waitMs / 10 / seconds,
        cpuPercent: cpuMs === null ? null : cpuMs / 10 / seconds,
        rssStartMB: first[p],
        rssPeakMB: Math.max(peak[p], m?.rssMB ?? 0),
        rssEndMB: m?.rssMB ?? null,
        hwmMB: m?.hwmMB ?? null,
      });
    }
    return out;
  };
}

/** Listening TCP sockets of these processes, with their local addresses (from /proc/net). */
export function listeningSockets(pids) {
  const inodes = new Map();
  for (const pid of pids) {
    let fds = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.set(m[1], pid);
      } catch {
        /* fd closed meanwhile */
      }
    }
  }
  const found = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let lines = [];
    try {
      lines = readFileSync(file, 'utf8').trim().split('\n').slice(1);
    } catch {
      continue;
    }
    for (const line of lines) {
      const f = line.trim().split(/\s+/);
      if (f[3] !== '0A') continue; // LISTEN
      const pid = inodes.get(f[9]);
      if (pid === undefined) continue;
      const [hex, portHex] = f[1].split(':');
      const port = parseInt(portHex, 16);
      let address;
      if (hex.length === 8) address = [3, 2, 1, 0].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
      else address = hex === '00000000000000000000000001000000' ? '::1' : hex === '00000000000000000000000000000000' ? '::' : `v6:${hex}`;
      found.push({ pid, address, port, loopback: address === '127.0.0.1' || address === '::1' });
    }
  }
  return found;
}

// CPU time (ms) of a process and, with `withChildren`, of its live children and those it reaped
// (PostgreSQL runs one backend process per connection). Linux /proc; 100 ticks a second.
export function cpuMsWithChildren(pid, withChildren) {
  let ticks = 0;
  for (const entry of withChildren ? readdirSync('/proc') : [String(pid)]) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(entry) === pid) ticks += Number(f[11]) + Number(f[12]) + (withChildren ? Number(f[13]) + Number(f[14]) : 0);
    else if (Number(f[1]) === pid) ticks += Number(f[11]) + Number(f[12]);
  }
  return (ticks * 1000) / CLK_TCK;
}
