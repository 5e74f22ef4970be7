import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { stopChild, track } from './server.js';

const SCRIPT = resolve(import.meta.dirname, 'ceiling-server.mjs');

/** The plain node:http server answering captured Hearth bytes (see ceiling-server.mjs). */
export interface Ceiling {
  readonly origin: string;
  readonly pid: number;
  /** Serves `body` at `path` from now on. */
  set(path: string, body: Buffer, contentType: string): Promise<void>;
  stop(): Promise<void>;
}

type Message = { type: 'listening'; port: number } | { type: 'ok'; path: string };

/** Starts the ceiling server as its own process (like Hearth), optionally pinned to a CPU. */
export function startCeiling(workDir: string, cpu: number | null): Promise<Ceiling> {
  const argv = [SCRIPT];
  const child: ChildProcess = track(
    cpu === null
      ? spawn(process.execPath, argv, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
      : spawn('taskset', ['-c', String(cpu), process.execPath, ...argv], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  let files = 0;
  return new Promise((done, fail) => {
    child.once('exit', (code) => fail(new Error(`ceiling server exited (${code})`)));
    child.once('message', (msg: Message) => {
      if (msg.type !== 'listening') return;
      done({
        origin: `http://127.0.0.1:${msg.port}`,
        pid: child.pid ?? -1,
        async set(path, body, contentType) {
          const file = join(workDir, `ceiling-${++files}.body`);
          await writeFile(file, body);
          await new Promise<void>((ok) => {
            const onMessage = (m: Message) => {
              if (m.type === 'ok' && m.path === path) {
                child.off('message', onMessage);
                ok();
              }
            };
            child.on('message', onMessage);
            child.send({ type: 'set', path, file, contentType });
          });
        },
        stop: () => {
          child.removeAllListeners('exit');
          return stopChild(child, 5000);
        },
      });
    });
  });
}
