/**
 * The webhook send thread (send-thread.ts): POSTs the events the dispatcher hands it with the
 * in-thread sender (send-fast.ts), so that the HTTP work of deliveries (request building, socket
 * writes, reading answers) runs beside the thread that answers the API. Messages:
 * `{ sends: SendJob[] }` in, `{ results: { id, result }[] }` out (answers that arrive in one turn
 * go back in one message); `{ close: true }` aborts what is in flight and ends the thread.
 */
import { parentPort } from 'node:worker_threads';
import { createSender } from './send-fast.js';
import type { SendResult } from './send.js';
import type { SendJob } from './send-thread.js';

const port = parentPort;
if (port === null) throw new Error('send-worker runs as a worker thread (send-thread.ts starts it)');
const sender = createSender();
let answered: { id: number; result: SendResult }[] = [];

const flush = (): void => {
  const results = answered;
  answered = [];
  port.postMessage({ results });
};

port.on('message', (message: { sends: SendJob[] } | { close: true }) => {
  if ('close' in message) {
    sender.close();
    port.close();
    return;
  }
  for (const job of message.sends) {
    void sender.send({ webhook: job.webhook, event: job.event, body: job.body, now: new Date(job.now) }).then((result) => {
      if (answered.length === 0) setImmediate(flush);
      answered.push({ id: job.id, result });
    });
  }
});
