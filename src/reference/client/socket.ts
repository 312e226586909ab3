import { WebSocket } from 'ws';
import type { ClientSocket, SocketConnect } from './types.js';

/**
 * The agent socket over the network (the ws package, which sends the upgrade's header fields as given, so the upgrade
 * can be signed): open, or the status of the refusal the platform answered instead.
 */
export const wsConnect: SocketConnect = (url, headers) =>
  new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: Object.fromEntries(headers) });
    const received: string[] = [];
    const waiting: Array<(text: string | null) => void> = [];
    let closed = false;
    socket.on('message', (data, isBinary) => {
      const text = isBinary ? '' : data.toString();
      const waiter = waiting.shift();
      if (waiter) waiter(text);
      else received.push(text);
    });
    socket.on('close', () => {
      closed = true;
      while (waiting.length) waiting.shift()!(null);
    });
    socket.once('unexpected-response', (_request, response) => {
      resolve({ refused: response.statusCode ?? 0 });
      response.resume();
      socket.terminate();
    });
    socket.once('error', (error) => reject(error));
    socket.once('open', () => {
      const client: ClientSocket = {
        send: (text) => socket.send(text),
        next: (timeoutMs) => {
          const queued = received.shift();
          if (queued !== undefined) return Promise.resolve(queued);
          if (closed) return Promise.resolve(null);
          return new Promise((done) => {
            const timer = setTimeout(() => done(null), timeoutMs);
            waiting.push((text) => {
              clearTimeout(timer);
              done(text);
            });
          });
        },
        close: () => socket.close(),
      };
      resolve(client);
    });
  });
