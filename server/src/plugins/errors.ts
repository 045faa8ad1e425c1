import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError, MESSAGES, messageForStatus } from '../lib/errors.js';
import { validationMessage } from '../lib/validation-messages.js';

/**
 * One error contract (D2): every failure leaves as `{detail}` in Italian with its status.
 * Expected errors (HttpError, validation, body parsing) are answered as they are; anything else
 * is a 500 with a generic message and the request id, logged with its stack, never sent.
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
