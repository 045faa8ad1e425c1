import { matchRoutes, Navigate, useParams, type RouteObject } from 'react-router';
import { adminRoutes } from '../admin/routes.js';
import { lazyPage, type LazyPage } from './lazyPage.js';
import { BareLayout, PublicLayout } from './PublicLayout.js';
import { PRIVACY_POLICY_PATH } from './privacyPolicy.js';
import { RequireLogin } from './RequireLogin.js';

// Every page is its own chunk: a visitor downloads only the screens they open (habit 12).
const HomePage = lazyPage(() => import('../pages/HomePage.js'));
const ImagePage = lazyPage(() => import('../pages/ImagePage.js'));
const CategoryPage = lazyPage(() => import('../pages/CategoryPage.js'));
const TagPage = lazyPage(() => import('../pages/TagPage.js'));
const TagsPage = lazyPage(() => import('../pages/TagsPage.js'));
const SearchPage = lazyPage(() => import('../pages/SearchPage.js'));
const ProfilePage = lazyPage(() => import('../pages/ProfilePage.js'));
const UploadPage = lazyPage(() => import('../pages/UploadPage.js'));
const PrivacyPolicyPage = lazyPage(() => import('../pages/PrivacyPolicyPage.js'));
const LoginPage = lazyPage(() => import('../pages/LoginPage.js'));
const RegisterPage = lazyPage(() => import('../pages/RegisterPage.js'));
const ForgotPasswordPage = lazyPage(() => import('../pages/ForgotPasswordPage.js'));
const ResetPasswordPage = lazyPage(() => import('../pages/ResetPasswordPage.js'));

/** D11: the back-office's old link shape /images/{id} leads to the image page. */
function LegacyImageRedirect() {
  const { id } = useParams();
  return <Navigate to={`/image/${id ?? ''}`} replace />;
}

/**
 * Drawn by useRoutes inside a <BrowserRouter> (main.tsx): the data router (createBrowserRouter)
 * was a quarter of the JavaScript every page loaded first, for loaders and actions this app
 * does not use (goal 8).
 */
export const routes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/image/:id', element: <ImagePage /> },
      { path: '/images/:id', element: <LegacyImageRedirect /> },
      { path: '/category/:categoryId', element: <CategoryPage /> },
      { path: '/tag/:tagId', element: <TagPage /> },
      { path: '/tags', element: <TagsPage /> },
      { path: '/search', element: <SearchPage /> },
      { path: '/user/:id', element: <ProfilePage /> },
      {
        path: '/create',
        element: (
          <RequireLogin>
            <UploadPage />
          </RequireLogin>
        ),
      },
      { path: PRIVACY_POLICY_PATH, element: <PrivacyPolicyPage /> },
    ],
  },
  {
    element: <BareLayout />,
    children: [
      { path: '/login', element: <LoginPage /> },
      { path: '/register', element: <RegisterPage /> },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
    ],
  },
  adminRoutes,
  // SPEC §2: any unknown path goes to the home page.
  { path: '*', element: <Navigate to="/" replace /> },
];

/** The pages whose chunk main.tsx loads before the first render, by route path. */
const PAGES = new Map<string, LazyPage>([
  ['/', HomePage],
  ['/image/:id', ImagePage],
  ['/category/:categoryId', CategoryPage],
  ['/tag/:tagId', TagPage],
  ['/tags', TagsPage],
  ['/search', SearchPage],
  ['/user/:id', ProfilePage],
  ['/create', UploadPage],
  [PRIVACY_POLICY_PATH, PrivacyPolicyPage],
  ['/login', LoginPage],
  ['/register', RegisterPage],
  ['/forgot-password', ForgotPasswordPage],
  ['/reset-password', ResetPasswordPage],
]);

/** Loads the chunk of the page at `pathname`, if it is one of the public pages above. */
export function preloadPage(pathname: string): Promise<void> {
  const path = matchRoutes(routes, pathname)?.at(-1)?.route.path;
  return PAGES.get(path ?? '')?.preload() ?? Promise.resolve();
}
