import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { bearer, createUser, login } from './helpers/factories.js';
import { createCategory, publishedImage, uploadImage } from './helpers/images.js';

/*
 * Issue 7: property-based fuzzing of every JSON endpoint, driven by the OpenAPI document the
 * routes' own schemas produce. For each operation fast-check draws path parameters, query
 * strings and bodies (valid-looking values, edge values and garbage) and sends them as an
 * anonymous visitor, a user and an administrator. The property: never a 5xx, and every answer
 * matches the schema documented for its status, or is the {detail} error contract.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Schema = Record<string, unknown>;

interface Operation {
  method: Method;
  path: string;
  pathParams: { name: string; schema: Schema }[];
  queryParams: { name: string; schema: Schema; required: boolean }[];
  body: Schema | undefined;
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

/** Strings that have broken servers: SQL and LIKE metacharacters, traversal, markup, Unicode. */
const NASTY_STRINGS = [
  '',
  ' ',
  "' OR 1=1 --",
  '%',
  '_',
  '\\',
  '../../etc/passwd',
  '..%2f..%2f',
  '<script>alert(1)</script>',
  '\u0000',
  '\u202e\u0041',
  'ｍｅ',
  'Ǆ̸͝',
  '🧱🎨',
  'null',
  '__proto__',
  'constructor',
  '9'.repeat(40),
  '-1',
  'x'.repeat(5000),
];

function stringArbitrary(schema: Schema, fitting: boolean): fc.Arbitrary<string> {
  const maxLength = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : 80;
  const pattern = typeof schema['pattern'] === 'string' ? schema['pattern'] : undefined;
  const minLength = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  if (fitting) {
    if (schema['format'] === 'email') return fc.emailAddress().filter((v) => v.length <= maxLength);
    if (pattern !== undefined) {
      return fc.stringMatching(new RegExp(pattern)).filter((v) => v.length <= maxLength);
    }
    return fc.string({ minLength, maxLength: Math.min(maxLength, 120) });
  }
  return fc.oneof(
    fc.string({ maxLength: Math.min(maxLength, 120) }),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.constantFrom(...NASTY_STRINGS),
    fc.emailAddress(),
  );
}

function integerArbitrary(schema: Schema): fc.Arbitrary<number> {
  const min = typeof schema['minimum'] === 'number' ? schema['minimum'] : -1_000_000;
  const max = typeof schema['maximum'] === 'number' ? schema['maximum'] : 1_000_000;
  return fc.oneof(
    // Small ids exist in the fixture data, so some calls get past the lookups.
    {
      weight: 3,
      arbitrary: fc.integer({
        min: Math.max(min, 1),
        max: Math.max(Math.min(max, 6), Math.max(min, 1)),
      }),
    },
    fc.integer({ min: Math.max(min, -1_000_000), max: Math.min(max, 1_000_000) }),
    fc.constantFrom(0, -1, 1, 2, 2_147_483_647, 2_147_483_648, Number.MAX_SAFE_INTEGER),
  );
}

/**
 * Half the time a value that fits the schema (so calls get past validation and reach the
 * code behind it), half the time a value that may break it anywhere, down to garbage.
 */
function fromSchema(schema: Schema): fc.Arbitrary<unknown> {
  return fc.oneof(shaped(schema, 0, true), shaped(schema, 0, false));
}

const garbage = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.string({ maxLength: 20 }),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.constant(JSON.parse('{"__proto__": {"is_superuser": true}}') as unknown),
);

function shaped(schema: Schema, depth: number, fitting: boolean): fc.Arbitrary<unknown> {
  const value = fittingValue(schema, depth, fitting);
  return fitting
    ? value
    : fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: garbage });
}

function fittingValue(schema: Schema, depth: number, fitting: boolean): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema['const']);
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  const variants = (schema['anyOf'] ?? schema['oneOf']) as Schema[] | undefined;
  if (Array.isArray(variants)) {
    return fc.oneof(...variants.map((variant) => shaped(variant, depth + 1, fitting)));
  }
  switch (schema['type']) {
    case 'string':
      return stringArbitrary(schema, fitting);
    case 'integer':
      return integerArbitrary(schema);
    case 'number':
      return fc.double({ noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = (schema['items'] ?? {}) as Schema;
      const maxLength = typeof schema['maxItems'] === 'number' ? schema['maxItems'] : 12;
      const minLength = typeof schema['minItems'] === 'number' ? schema['minItems'] : 0;
      return fc.array(depth > 3 ? fc.string() : shaped(items, depth + 1, fitting), {
        minLength: fitting ? minLength : 0,
        maxLength: fitting ? maxLength : maxLength + 2,
      });
    }
    case 'object': {
      const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
      const required = Array.isArray(schema['required']) ? (schema['required'] as string[]) : [];
      const entries = Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, shaped(value, depth + 1, fitting)]),
      );
      return fc.record(entries, { requiredKeys: fitting ? required : [] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function operations(document: {
  paths: Record<string, Record<string, Record<string, unknown>>>;
}): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, spec]) => {
      const parameters = (spec['parameters'] ?? []) as {
        in: string;
        name: string;
        required?: boolean;
        schema: Schema;
      }[];
      const requestBody = spec['requestBody'] as
        { content: Record<string, { schema: Schema }> } | undefined;
      return {
        method: method.toUpperCase() as Method,
        path,
        pathParams: parameters.filter((p) => p.in === 'path'),
        queryParams: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: p.schema, required: p.required === true })),
        body: requestBody?.content['application/json']?.schema,
        responses: spec['responses'] as Operation['responses'],
      };
    }),
  );
}

/** How a drawn value travels in a URL: objects as their JSON text. */
function asText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

function pointer(path: string, method: Method, status: string): string {
  const escape = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');
  return `openapi#/paths/${escape(path)}/${method.toLowerCase()}/responses/${status}/content/${escape('application/json')}/schema`;
}

let t: TestApp;
let document: { paths: Record<string, Record<string, Record<string, unknown>>> };
let ajv: Ajv;
let userToken: string;
let adminToken: string;
let accounts = 0;
const pendingFilenames: string[] = [];

/**
 * A fresh account and its token, made directly (fuzzed calls may close registrations, change
 * passwords, demote or delete the accounts the fuzzing runs as).
 */
async function freshToken(isSuperuser: boolean): Promise<string> {
  accounts += 1;
  const row = await t.app.ctx.users.create({
    username: `fuzz${accounts}${isSuperuser ? 'admin' : 'user'}`,
    email: `fuzz${accounts}@example.it`,
    password: 'password-sicura',
    isSuperuser,
    ageConfirmed: true,
  });
  return t.app.ctx.auth.issueToken(row);
}

/** Replaces whichever session a previous operation broke. */
async function keepSessionsAlive(): Promise<void> {
  const works = async (token: string, url: string) =>
    (await t.app.inject({ method: 'GET', url, headers: bearer(token) })).statusCode === 200;
  if (!(await works(adminToken, '/api/admin/stats'))) adminToken = await freshToken(true);
  if (!(await works(userToken, '/api/users/me'))) userToken = await freshToken(false);
}
const validators = new Map<string, ValidateFunction>();

beforeAll(async () => {
  t = await buildTestApp();
  document = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
  ajv = new Ajv({ strict: false, allErrors: true });
  // ajv-formats is CommonJS: under NodeNext its default export is the module object.
  addFormats.default(ajv);
  ajv.addSchema(document, 'openapi');
  adminToken = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json().access_token;
  const user = await createUser(t.app);
  userToken = user.token;
  // Something to find: a category, two public images, one waiting for review.
  const category = await createCategory(t.app, 'messaggi_fuzz');
  await publishedImage(t.app, user, { title: 'Muro uno', categoryId: category, tags: ['amore'] });
  await publishedImage(t.app, user, { title: 'Muro due', categoryId: category });
  for (const title of ['In attesa', 'Da rifiutare', 'Ancora in attesa']) {
    pendingFilenames.push((await uploadImage(t.app, user, { title })).filename);
  }
}, 60_000);
afterAll(() => t.close());

function validatorFor(operation: Operation, status: string): ValidateFunction | undefined {
  const key = `${operation.method} ${operation.path} ${status}`;
  if (!validators.has(key)) {
    const documented = operation.responses[status]?.content?.['application/json'];
    if (documented === undefined) return undefined;
    validators.set(key, ajv.compile({ $ref: pointer(operation.path, operation.method, status) }));
  }
  return validators.get(key);
}

/** Routes whose calls would end the sessions the fuzzing runs with, or that are not JSON. */
const SKIPPED = new Set([
  'DELETE /api/users/me', // erases the fuzzing user; privacy.test.ts covers it
  'POST /api/images/export', // multipart; uploads.test.ts and security.test.ts cover it
]);

const FUZZED = (op: Operation) =>
  !SKIPPED.has(`${op.method} ${op.path}`) && op.path.startsWith('/api/');

describe('fuzzing every JSON endpoint from its schema', () => {
  it('covers the whole API', () => {
    const fuzzed = operations(document).filter(FUZZED);
    expect(fuzzed.length).toBeGreaterThanOrEqual(50);
  });

  it('never answers 5xx, and every answer matches its documented schema', async () => {
    const identities = [
      { name: 'anonimo', headers: (): Record<string, string> => ({}) },
      { name: 'utente', headers: () => bearer(userToken) },
      { name: 'admin', headers: () => bearer(adminToken) },
    ];
    const failures: string[] = [];
    // Proof that the generator reaches past validation: operations that answered 2xx at least once.
    const succeeded = new Set<string>();
    let calls = 0;
    // Deletions last, so the fixture data lives long enough for the other calls to reach it.
    const order = (op: Operation) => (op.method === 'DELETE' ? 1 : 0);
    const fuzzed = operations(document)
      .filter(FUZZED)
      .sort((a, b) => order(a) - order(b));
    for (const operation of fuzzed) {
      await keepSessionsAlive();
      const input = fc.record({
        params: fc.tuple(
          ...operation.pathParams.map((p) =>
            p.name === 'filename'
              ? fc.oneof(fc.constantFrom(...pendingFilenames), fromSchema(p.schema))
              : fromSchema(p.schema),
          ),
        ),
        query: fc.tuple(...operation.queryParams.map((p) => fc.option(fromSchema(p.schema)))),
        body: operation.body === undefined ? fc.constant(undefined) : fromSchema(operation.body),
        identity: fc.constantFrom(...identities),
      });
      await fc
        .assert(
          fc.asyncProperty(input, async ({ params, query, body, identity }) => {
            let url = operation.path;
            operation.pathParams.forEach((p, index) => {
              url = url.replace(`{${p.name}}`, encodeURIComponent(asText(params[index])));
            });
            const search = new URLSearchParams();
            operation.queryParams.forEach((p, index) => {
              const value = query[index];
              if (value !== null && value !== undefined) search.set(p.name, asText(value));
            });
            if (search.size > 0) url += `?${search.toString()}`;
            const response = await t.app.inject({
              method: operation.method,
              url,
              headers: {
                ...identity.headers(),
                ...(body === undefined ? {} : { 'content-type': 'application/json' }),
              },
              ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
            });
            calls += 1;
            if (response.statusCode < 300) succeeded.add(`${operation.method} ${operation.path}`);
            const where = `${operation.method} ${url} as ${identity.name} → ${response.statusCode}`;
            if (response.statusCode >= 500) {
              failures.push(`${where}: ${response.body.slice(0, 200)}`);
              return false;
            }
            const json = response.headers['content-type']?.toString().includes('json') === true;
            if (!json) return true; // downloads and files: checked by their own suites
            const validate = validatorFor(operation, String(response.statusCode));
            const payload: unknown = response.json();
            if (validate !== undefined) {
              if (!validate(payload)) {
                failures.push(`${where}: ${ajv.errorsText(validate.errors)}`);
                return false;
              }
              return true;
            }
            // Undocumented statuses must still be the error contract: 4xx with an Italian detail.
            const detail = (payload as { detail?: unknown }).detail;
            if (response.statusCode < 400 || typeof detail !== 'string' || detail === '') {
              failures.push(`${where}: undocumented answer ${response.body.slice(0, 200)}`);
              return false;
            }
            return true;
          }),
          { numRuns: 60, seed: 20261121, endOnFailure: true },
        )
        .catch(() => undefined);
    }
    expect(failures).toEqual([]);
    const never = operations(document)
      .filter(FUZZED)
      .map((op) => `${op.method} ${op.path}`)
      .filter((op) => !succeeded.has(op));
    process.stdout.write(
      `fuzzing: ${calls} calls, ${succeeded.size} operations answered 2xx; never: ${never.join(', ')}\n`,
    );
    expect(succeeded.size).toBeGreaterThanOrEqual(42);
  }, 300_000);
});
