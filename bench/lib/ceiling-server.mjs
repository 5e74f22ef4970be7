// The practical ceiling: a plain node:http server that answers each known path with bytes captured
// from Hearth (same body, same Content-Type), doing no other work. Started by the bench with an IPC
// channel: {type:'set', path, file, contentType} loads a body; it reports {type:'listening', port}.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const bodies = new Map();

const server = createServer((req, res) => {
  const entry = bodies.get(req.url);
  if (!entry) {
    res.writeHead(404, { 'Content-Length': '0' });
    res.end();
    return;
  }
  res.writeHead(200, { 'Content-Type': entry.contentType, 'Content-Length': String(entry.body.length) });
  res.end(entry.body);
});

process.on('message', (msg) => {
  if (msg && msg.type === 'set') {
    bodies.set(msg.path, { body: readFileSync(msg.file), contentType: msg.contentType });
    process.send({ type: 'ok', path: msg.path });
  }
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('disconnect', () => process.exit(0));

server.listen(0, '127.0.0.1', () => process.send({ type: 'listening', port: server.address().port }));
