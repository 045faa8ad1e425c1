import { apiAs, loginAdmin, registerUser } from './fixtures.js';

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
