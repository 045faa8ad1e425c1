import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { notFound } from '../../lib/errors.js';
import { errorResponses, IsoDateTime, MAX_ROW_ID } from '../../lib/schemas.js';
import { currentUser } from '../../plugins/auth.js';
import { RATE_LIMITS } from '../../plugins/security.js';
import { toOwnUser } from './users.presenters.js';
import { USER_MESSAGES } from './users.rules.js';
import { OwnUser, UpdateMeBody, UpdateMeResponse } from './users.schemas.js';
import Type from 'typebox';
import type { FastifyRequest } from 'fastify';

/** A user id, or 'me' for the logged-in user (the client's /user/me route). */
const UserRefParams = Type.Object({
  id: Type.String({
    title: 'id',
    pattern: '^(me|[1-9][0-9]{0,9})$',
    // Said as a bad numeric id is said elsewhere: "0" has no forbidden character.
    errorMessage: { pattern: 'Il campo "id" non è valido.' },
  }),
});

const FollowState = Type.Object({ is_following: Type.Boolean(), followers_count: Type.Integer() });

/** SPEC §3 public profile: no e-mail, ever. */
const PublicProfile = Type.Object({
  user: Type.Object({
    id_utente: Type.Integer(),
    username: Type.String(),
    created_at: IsoDateTime,
    followers_count: Type.Integer(),
    stats: Type.Object({ total_images: Type.Integer(), total_likes: Type.Integer() }),
  }),
  is_following: Type.Boolean(),
});

function resolveUserRef(request: FastifyRequest, ref: string): number {
  if (ref === 'me') return currentUser(request).id_utente;
  const id = Number(ref);
  // Ten digits pass the pattern but may exceed the column: such a user cannot exist.
  if (id > MAX_ROW_ID) throw notFound(USER_MESSAGES.notFound);
  return id;
}

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
      config: { rateLimit: RATE_LIMITS.account },
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

  app.get(
    '/users/:id/profile',
    {
      onRequest: app.guards.optional,
      schema: {
        tags: ['users'],
        summary: 'A public profile with followers and figures (no e-mail)',
        params: UserRefParams,
        response: { 200: PublicProfile, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const user = await ctx.users.getPublic(resolveUserRef(request, request.params.id));
      const [stats, follow] = await Promise.all([
        ctx.users.profileStats(user.id_utente),
        ctx.follows.state(request.user?.id_utente ?? null, user.id_utente),
      ]);
      return {
        user: {
          id_utente: user.id_utente,
          username: user.username,
          created_at: user.created_at,
          followers_count: follow.followers_count,
          stats,
        },
        is_following: follow.is_following,
      };
    },
  );

  app.get(
    '/users/:id/is-following',
    {
      onRequest: app.guards.optional,
      schema: {
        tags: ['follows'],
        summary: 'Whether the logged-in user follows this user, and the follower count',
        params: UserRefParams,
        response: { 200: FollowState, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const user = await ctx.users.getPublic(resolveUserRef(request, request.params.id));
      return ctx.follows.state(request.user?.id_utente ?? null, user.id_utente);
    },
  );

  app.post(
    '/users/:id/follow',
    {
      onRequest: app.guards.user,
      schema: {
        tags: ['follows'],
        summary: 'Follow a user (idempotent)',
        params: UserRefParams,
        response: { 200: FollowState, ...errorResponses(400, 401, 404) },
      },
    },
    (request) =>
      ctx.follows.follow(currentUser(request), resolveUserRef(request, request.params.id)),
  );

  app.delete(
    '/users/:id/unfollow',
    {
      onRequest: app.guards.user,
      schema: {
        tags: ['follows'],
        summary: 'Stop following a user (idempotent)',
        params: UserRefParams,
        response: { 200: FollowState, ...errorResponses(400, 401, 404) },
      },
    },
    (request) =>
      ctx.follows.unfollow(currentUser(request), resolveUserRef(request, request.params.id)),
  );
};
