import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { AppContext } from '../../context.js';
import { RATE_LIMITS } from '../../plugins/security.js';
import { errorResponses } from '../../lib/schemas.js';
import { Email, NewPassword, OwnUser, Username } from '../users/users.schemas.js';
import { PASSWORD_MAX_LENGTH, USER_MESSAGES } from '../users/users.rules.js';
import { RESET_MESSAGES } from './password-reset.service.js';

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

const PasswordResetBody = Type.Object({ email: Email }, { additionalProperties: false });

const PasswordResetConfirmBody = Type.Object(
  {
    // Any malformed secret is a link that does not work: said as such by the service.
    token: Type.String({
      title: 'Link',
      minLength: 1,
      maxLength: 200,
      errorMessage: {
        minLength: RESET_MESSAGES.invalidLink,
        maxLength: RESET_MESSAGES.invalidLink,
      },
    }),
    password: NewPassword,
  },
  { additionalProperties: false },
);

const Detail = Type.Object({ detail: Type.String() });

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

  app.post(
    '/auth/password-reset',
    {
      config: { rateLimit: RATE_LIMITS.passwordReset, keepsPublicCache: true },
      schema: {
        tags: ['auth'],
        summary:
          'Ask for a link to choose a new password, sent to the address if it is an account’s (the answer is the same either way)',
        body: PasswordResetBody,
        response: { 202: Detail, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      await ctx.passwordReset.request(request.body.email);
      return reply.status(202).send({ detail: RESET_MESSAGES.requested });
    },
  );

  app.post(
    '/auth/password-reset/confirm',
    {
      // Guessing a 256-bit secret is hopeless; the limit bounds the hashing a client can cause.
      config: { rateLimit: RATE_LIMITS.login, keepsPublicCache: true },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with the link’s secret; every session of the account ends',
        body: PasswordResetConfirmBody,
        response: { 200: Detail, ...errorResponses(400) },
      },
    },
    async (request) => {
      await ctx.passwordReset.confirm(request.body.token, request.body.password);
      return { detail: RESET_MESSAGES.done };
    },
  );
};
