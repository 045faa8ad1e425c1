import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { AppContext } from '../../context.js';
import { RATE_LIMITS } from '../../plugins/security.js';
import { errorResponses } from '../../lib/schemas.js';
import { Email, NewPassword, OwnUser, Username } from '../users/users.schemas.js';
import { PASSWORD_MAX_LENGTH, USER_MESSAGES } from '../users/users.rules.js';

const Session = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('bearer'),
  user: OwnUser,
});

const RegisterBody = Type.Object(
  {
    username: Username,
    email: Email,
    password: NewPassword,
    age_confirmed: Type.Boolean({
      title: 'Dichiaro di avere almeno 16 anni',
      errorMessage: USER_MESSAGES.ageRequired,
    }),
  },
  { additionalProperties: false },
);

const LoginBody = Type.Object(
  {
    username: Type.String({
      title: 'Username',
      minLength: 1,
      maxLength: 254,
      errorMessage: { minLength: 'Inserisci lo username.' },
    }),
    password: Type.String({
      title: 'Password',
      minLength: 1,
      maxLength: PASSWORD_MAX_LENGTH,
      errorMessage: { minLength: 'Inserisci la password.' },
    }),
  },
  { additionalProperties: false },
);

export const authRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/auth/registrations',
    {
      schema: {
        tags: ['auth'],
        summary: 'Whether new accounts may be opened (D7), for the page to say so before the form',
        response: { 200: Type.Object({ registrations_open: Type.Boolean() }) },
      },
    },
    async (_request, reply) => {
      // An administrator may close them at any moment: asked again each time, never kept.
      void reply.header('cache-control', 'no-cache');
      return { registrations_open: (await ctx.settings.get()).registrations_open };
    },
  );

  app.post(
    '/auth/register',
    {
      // A new account changes no public list (plugins/public-cache.ts).
      config: { rateLimit: RATE_LIMITS.register, keepsPublicCache: true },
      schema: {
        tags: ['auth'],
        summary: 'Create an account and open a session',
        body: RegisterBody,
        response: { 201: Session, ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      const session = await ctx.auth.register(request.body);
      return reply.status(201).send(session);
    },
  );

  app.post(
    '/auth/login',
    {
      // Logging in changes nothing public: the kept lists stay (plugins/public-cache.ts).
      config: { rateLimit: RATE_LIMITS.login, keepsPublicCache: true },
      schema: {
        tags: ['auth'],
        summary: 'Open a session with username and password',
        body: LoginBody,
        response: { 200: Session, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => ctx.auth.login(request.body.username, request.body.password),
  );
};
