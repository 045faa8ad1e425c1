import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { apiAs, loginAdmin, registerUser } from './fixtures.js';
import { launchBrowser, startDemoServer, type RunningServer } from './harness.js';

/*
 * SPEC's route table as the browser tests visit it: every public route, then what only a
 * session opens, with the demo's ids in place of `:id`.
 */

export type Who = 'visitor' | 'user' | 'administrator';

/** Every public route, then the upload page and the own profile, then an admin's gallery. */
export const PUBLIC_VISITS: ReadonlyArray<readonly [Who, string]> = [
  ['visitor', '/'],
  ['visitor', '/image/:id'],
  ['visitor', '/category/:id'],
  ['visitor', '/tag/:id'],
  ['visitor', '/tags'],
  ['visitor', '/user/:id'],
  ['visitor', '/search?q=muro'],
  ['visitor', '/privacy-policy'],
  ['visitor', '/login'],
  ['visitor', '/register'],
  ['visitor', '/forgot-password'],
  // The page a reset e-mail's link opens (its secret in the fragment).
  ['visitor', '/reset-password#un-link-di-prova'],
  // The upload page and the own profile's tabs and menu.
  ['user', '/create'],
  ['user', '/user/me'],
  // An administrator browsing the gallery gets the public app.
  ['administrator', '/'],
  ['administrator', '/user/me'],
];

/** Every section of the back-office (SPEC §2's admin routes). */
export const ADMIN_VISITS: ReadonlyArray<readonly [Who, string]> = [
  '/admin/dashboard',
  '/admin/users',
  '/admin/users/new',
  '/admin/users/:id/edit',
  '/admin/images',
  '/admin/pending-images',
  '/admin/duplicate-images',
  '/admin/categories',
  '/admin/tags',
  '/admin/settings',
].map((path) => ['administrator', path] as const);

/** The demo's sessions and where its first tagged image leads. */
export interface DemoRoutes {
  /** The route with the demo's id in place of `:id`. */
  pathOf(route: string): string;
  /** The session a visit is made with: none for a visitor. */
  tokenOf(who: Who): string | null;
}

export async function demoRoutes(baseUrl: string): Promise<DemoRoutes> {
  const adminToken = await loginAdmin(baseUrl);
  const user = await registerUser(baseUrl);
  const { images } = await apiAs<{
    images: {
      id_image: number;
      id_utente: number;
      category: { id_categoria: number };
      tags: { id_tag: number }[];
    }[];
  }>(baseUrl, user.token, '/images?limit=1');
  const image = images[0];
  const tag = image?.tags[0];
  if (image === undefined || tag === undefined) throw new Error('the demo has no tagged image');
  const ids = {
    image: image.id_image,
    category: image.category.id_categoria,
    tag: tag.id_tag,
    user: image.id_utente,
  };
  return {
    pathOf: (route) =>
      route
        .replace(
          /^\/(image|category|tag|user)\/:id$/,
          (_match, kind: keyof typeof ids) => `/${kind}/${String(ids[kind])}`,
        )
        // The back-office's form for the demo picture's author.
        .replace(/^\/admin\/users\/:id\/edit$/, `/admin/users/${String(ids.user)}/edit`),
    tokenOf: (who) => (who === 'user' ? user.token : who === 'administrator' ? adminToken : null),
  };
}

/** What a test file that visits the demo's routes shares: its server, browser and routes. */
export interface DemoSuite {
  server: RunningServer;
  browser: Browser;
  demo: DemoRoutes;
}

/**
 * A demo server, a browser and the demo's routes for the whole test file, set up before its
 * tests and closed after them (what exists of them, when the setup failed half-way).
 */
export function demoSuite(): DemoSuite {
  const suite: Partial<DemoSuite> = {};
  beforeAll(async () => {
    suite.server = await startDemoServer();
    suite.browser = await launchBrowser();
    suite.demo = await demoRoutes(suite.server.url);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
  });
  // Filled in by beforeAll, before any test reads it.
  return suite as DemoSuite;
}
