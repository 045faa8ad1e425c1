import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { UserRow } from '../db/tables.js';
import { forbidden, MESSAGES, unauthorized } from '../lib/errors.js';
import type { AuthService } from '../modules/auth/auth.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated user, loaded from the database on every request; null when anonymous. */
    user: UserRow | null;
  }
  interface FastifyInstance {
    /** onRequest hooks that routes list to declare who may call them. */
    guards: Guards;
  }
}

type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export interface Guards {
  /** Anyone; a valid token identifies the user. A bad token is still a 401 (see below). */
  optional: Guard;
  /** A logged-in, active user: otherwise 401. */
  user: Guard;
  /** An administrator according to the database right now: otherwise 401 or 403. */
  admin: Guard;
}

/**
 * Bearer-token authentication. The user is read from the database on each request, so a
 * deactivated, deleted or demoted account loses its powers at once, whatever its token says.
 * Runs in onRequest, before the body is read: anonymous uploads are refused before any byte.
 */
export const authPlugin = fp(
  (app: FastifyInstance, options: { auth: AuthService }) => {
    app.decorateRequest('user', null);

    async function identify(request: FastifyRequest): Promise<void> {
      const header = request.headers.authorization;
      if (header === undefined || header === '') return;
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      // A token that no longer works gets a 401 even where anonymous access is fine, so the
      // client can end the stale session (SPEC §4) instead of silently browsing logged out.
      if (match?.[1] === undefined) throw unauthorized(MESSAGES.invalidToken);
      const user = await options.auth.authenticate(match[1]);
      if (user === undefined) throw unauthorized(MESSAGES.invalidToken);
      request.user = user;
    }

    app.decorate('guards', {
      optional: identify,
      async user(request) {
        await identify(request);
        if (request.user === null) throw unauthorized();
      },
      async admin(request) {
        await identify(request);
        if (request.user === null) throw unauthorized();
        if (request.user.is_superuser !== 1) throw forbidden();
      },
    } satisfies Guards);
  },
  { name: 'auth' },
);

/** The user of a route guarded by `guards.user` or `guards.admin`. */
export function currentUser(request: FastifyRequest): UserRow {
  if (request.user === null) throw unauthorized();
  return request.user;
}
