import { lazy } from 'react';
import { Navigate, useParams, type RouteObject } from 'react-router';
import { adminRoutes } from '../admin/routes.js';
import { BareLayout, PublicLayout } from './PublicLayout.js';
import { RequireLogin } from './RequireLogin.js';

// Every page is its own chunk: a visitor downloads only the screens they open (habit 12).
const HomePage = lazy(() => import('../pages/HomePage.js'));
const ImagePage = lazy(() => import('../pages/ImagePage.js'));
const CategoryPage = lazy(() => import('../pages/CategoryPage.js'));
const TagPage = lazy(() => import('../pages/TagPage.js'));
const TagsPage = lazy(() => import('../pages/TagsPage.js'));
const SearchPage = lazy(() => import('../pages/SearchPage.js'));
const ProfilePage = lazy(() => import('../pages/ProfilePage.js'));
const UploadPage = lazy(() => import('../pages/UploadPage.js'));
const PrivacyPolicyPage = lazy(() => import('../pages/PrivacyPolicyPage.js'));
const LoginPage = lazy(() => import('../pages/LoginPage.js'));
const RegisterPage = lazy(() => import('../pages/RegisterPage.js'));

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
      { path: '/privacy-policy', element: <PrivacyPolicyPage /> },
    ],
  },
  {
    element: <BareLayout />,
    children: [
      { path: '/login', element: <LoginPage /> },
      { path: '/register', element: <RegisterPage /> },
    ],
  },
  adminRoutes,
  // SPEC §2: any unknown path goes to the home page.
  { path: '*', element: <Navigate to="/" replace /> },
];
