import { readFile } from 'node:fs/promises';

/** Kernel clock ticks per second (USER_HZ): 100 on every mainstream Linux. */
const HZ = 100;

interface Snapshot {
  readonly at: number;
  /** Busy ticks of all CPUs together (everything but idle and iowait). */
  readonly busy: number;
  readonly server: number;
  readonly bench: number;
}

async function busyTicks(): Promise<number> {
  const line = (await readFile('/proc/stat', 'utf8')).split('\n', 1)[0] ?? '';
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = v;
  return user + nice + system + irq + softirq + steal;
}

/** user + system ticks of a process (all its threads). */
async function processTicks(pid: number): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name: utime is the 14th field, stime the 15th.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(rest[11]) + Number(rest[12]);
  } catch {
    return 0;
  }
}

async function snapshot(serverPid: number): Promise<Snapshot> {
  const [busy, server, bench] = await Promise.all([busyTicks(), processTicks(serverPid), processTicks(process.pid)]);
  return { at: performance.now(), busy, server, bench };
}

/** CPU use during a stretch of the run, in cores (1.0 = one core busy the whole time). */
export interface CpuUse {
  /** The server under load (Hearth or the ceiling). */
  readonly server: number;
  /** The bench process (autocannon). */
  readonly bench: number;
  /** Everything else on the machine: noise in the figures when it is high. */
  readonly others: number;
}

/** Starts watching the server and the bench; the returned function gives the CPU used since. */
export async function watchCpu(serverPid: number): Promise<() => Promise<CpuUse>> {
  const start = await snapshot(serverPid);
  return async () => {
    const end = await snapshot(serverPid);
    const seconds = Math.max((end.at - start.at) / 1000, 0.001);
    const per = (a: number, b: number) => (b - a) / HZ / seconds;
    const server = per(start.server, end.server);
    const bench = per(start.bench, end.bench);
    return { server, bench, others: Math.max(0, per(start.busy, end.busy) - server - bench) };
  };
}

/**
 * Waits (up to `maxSeconds`) until other processes have used less than `cores` for two seconds in a
 * row, so a measurement does not start in the middle of someone else's build. True when quiet.
 */
export async function waitForQuiet(serverPid: number, cores: number, maxSeconds: number): Promise<boolean> {
  const deadline = performance.now() + maxSeconds * 1000;
  while (performance.now() < deadline) {
    const use = await watchCpu(serverPid);
    await new Promise((r) => setTimeout(r, 2000));
    if ((await use()).others < cores) return true;
  }
  return false;
}

/**
 * Waits (up to `maxSeconds`) until a server is idle: below 0.1 cores over 300 ms. After a load run
 * the server still works through the requests the load generator abandoned when it stopped; the
 * next run must not pay for them.
 */
export async function waitServerIdle(serverPid: number, maxSeconds: number): Promise<void> {
  const deadline = performance.now() + maxSeconds * 1000;
  while (performance.now() < deadline) {
    const use = await watchCpu(serverPid);
    await new Promise((r) => setTimeout(r, 300));
    if ((await use()).server < 0.1) return;
  }
}
