import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MESSAGES } from '../lib/errors.js';

/**
 * Graceful shutdown, request side: once closing starts, requests already running finish (Fastify
 * waits for them) while new ones, arriving on connections still open, get a 503 in our error
 * format and a `Connection: close` so clients retry elsewhere.
 */
export const lifecyclePlugin = fp(
  (app: FastifyInstance) => {
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
    });
    app.addHook('onRequest', async (request, reply) => {
      if (!closing) return;
      return reply
        .status(503)
        .header('connection', 'close')
        .header('retry-after', '5')
        .send({ detail: MESSAGES.shuttingDown });
    });
    app.addHook('onSend', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });
  },
  { name: 'lifecycle' },
);
