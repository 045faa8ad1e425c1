import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isDatabaseUnavailable } from '../db/errors.js';
import { HttpError, MESSAGES, messageForStatus } from '../lib/errors.js';
import { validationMessage } from '../lib/validation-messages.js';

/**
 * One error contract (D2): every failure leaves as `{detail}` in Italian with its status.
 * Expected errors (HttpError, validation, body parsing) are answered as they are; faults of the
 * machine rather than of the request are a 503 (database unreachable) or a 507 (disk full), so
 * clients know to retry later; anything else is a 500 with a generic message and the request
 * id, logged with its stack, never sent.
 */
export const errorsPlugin = fp(
  (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
      if (error instanceof HttpError) {
        return reply.status(error.statusCode).send({ detail: error.detail });
      }
      if (error.validation !== undefined) {
        return reply
          .status(400)
          .send({ detail: validationMessage(error.validation, error.validationContext ?? '') });
      }
      if (isDatabaseUnavailable(error)) {
        // Issue 7: a database restart is weathered, not crashed on; the pool reconnects by
        // itself on a later request.
        request.log.warn({ err: error }, 'database unavailable');
        return reply.status(503).header('retry-after', '5').send({ detail: MESSAGES.unavailable });
      }
      if (isDiskFull(error)) {
        request.log.error({ err: error }, 'disk full');
        return reply.status(507).send({ detail: MESSAGES.diskFull });
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        return reply.status(status).send({ detail: clientErrorDetail(error, status) });
      }
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send({ detail: MESSAGES.internal(request.id) });
    });
  },
  { name: 'errors' },
);

/**
 * No space left for a file (ENOSPC, or EDQUOT over a quota) or for the SQLite database
 * (SQLITE_FULL). The writers clean up after themselves (images.storage.ts), so the request
 * leaves nothing behind and can be retried once space is freed.
 */
function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL';
}

function clientErrorDetail(error: FastifyError, status: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return MESSAGES.invalidJson;
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return MESSAGES.invalidBody;
    default:
      // JSON.parse's own SyntaxError has statusCode 400 and no Fastify code.
      return error instanceof SyntaxError ? MESSAGES.invalidJson : messageForStatus(status);
  }
}
