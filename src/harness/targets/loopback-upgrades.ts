import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { UpgradeDecision } from '../../reference/upgrade.js';
import { writeRawAnswer } from '../../reference/serve.js';

/** A loopback listener that takes WebSocket upgrades only, each decided by `decide`; its URL and how to stop it. */
export interface UpgradeListener {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves upgrades of an in-process deployment on a loopback port (a WebSocket needs a real connection). `decide`
 * gets the upgrade request's path and header fields and answers with the deployment's decision; plain requests
 * get 426. Every connection ends when the listener closes.
 */
export async function startUpgradeListener(decide: (path: string, headers: Headers) => Promise<UpgradeDecision>): Promise<UpgradeListener> {
  const connections = new Set<Socket>();
  const websockets = new WebSocketServer({ noServer: true });
  const server = http.createServer((_message, res) => {
    res.statusCode = 426;
    res.end();
  });
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  server.on('upgrade', (message: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    void (async () => {
      const headers = new Headers();
      for (let i = 0; i + 1 < message.rawHeaders.length; i += 2) headers.append(message.rawHeaders[i]!, message.rawHeaders[i + 1]!);
      const decision = await decide(message.url ?? '/', headers);
      if ('refuse' in decision) return void (await writeRawAnswer(socket, decision.refuse));
      websockets.handleUpgrade(message, socket, head, (ws) => decision.accept(ws));
    })().catch(() => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const client of websockets.clients) client.terminate();
      websockets.close();
      for (const socket of connections) socket.destroy();
      await closed;
    },
  };
}
