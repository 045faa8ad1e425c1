import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { messageForStatus } from '../lib/errors.js';

/*
 * The answers Fastify and Node give before any route or hook of ours runs, in D2's format: an
 * address too long for the router (414) or not decodable (400), headers too large (431), a
 * request that never arrived whole (408). Their own bodies were English, and the 414's echoed
 * the address back.
 */

/** Fastify's `frameworkErrors`: the router refused the address. */
export function frameworkErrors(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = error.statusCode ?? 400;
  void reply.status(status).send({
    detail: status === 400 ? 'L’indirizzo richiesto non è valido.' : messageForStatus(status),
  });
}

const CLIENT_ERROR_STATUS: Readonly<Record<string, number>> = {
  ERR_HTTP_REQUEST_TIMEOUT: 408,
  HPE_HEADER_OVERFLOW: 431,
};

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refused the request, so there is no
 * request to answer through Fastify, only the socket to write to (as Fastify's own does).
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  // A connection reset: nobody is there to read an answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = CLIENT_ERROR_STATUS[error.code ?? ''] ?? 400;
  const body = JSON.stringify({ detail: messageForStatus(status) });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${String(status)} ${http.STATUS_CODES[status] ?? ''}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${String(Buffer.byteLength(body))}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}
