import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { errorResponses } from '../../lib/schemas.js';
import { currentUser } from '../../plugins/auth.js';
import { toOwnUser } from './users.presenters.js';
import { OwnUser, UpdateMeBody, UpdateMeResponse } from './users.schemas.js';

export const usersRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/users/me',
    {
      onRequest: app.guards.user,
      schema: {
        tags: ['users'],
        summary: 'The logged-in user, with e-mail',
        response: { 200: OwnUser, ...errorResponses(401) },
      },
    },
    (request) => toOwnUser(currentUser(request)),
  );

  app.put(
    '/users/me',
    {
      onRequest: app.guards.user,
      schema: {
        tags: ['users'],
        summary: 'Edit the own profile (empty password: unchanged)',
        body: UpdateMeBody,
        response: { 200: UpdateMeResponse, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { user, passwordChanged } = await ctx.users.updateProfile(currentUser(request), {
        username: request.body.username,
        email: request.body.email,
        password: request.body.password,
        currentPassword: request.body.current_password,
      });
      // The old token died with the old password; the caller keeps its session with a new one.
      return passwordChanged
        ? { ...toOwnUser(user), access_token: ctx.auth.issueToken(user) }
        : toOwnUser(user);
    },
  );
};
