import { lazy, Suspense } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { LoadFailureBoundary } from '../components/LoadFailureBoundary.js';
import { Loading } from '../components/StatusMessage.js';

/*
 * The back-office routes. Only lazy references live here, so the public bundle never holds
 * admin code: the shell, the Data Grid and the charts load when an administrator opens /admin.
 */
const AdminArea = lazy(() => import('./AdminArea.js'));
const DashboardPage = lazy(() => import('./pages/DashboardPage.js'));
const UsersPage = lazy(() => import('./pages/UsersPage.js'));
const UserFormPage = lazy(() => import('./pages/UserFormPage.js'));
const ImagesPage = lazy(() => import('./pages/ImagesPage.js'));
const PendingImagesPage = lazy(() => import('./pages/PendingImagesPage.js'));
const DuplicateImagesPage = lazy(() => import('./pages/DuplicateImagesPage.js'));
const CategoriesPage = lazy(() => import('./pages/CategoriesPage.js'));
const TagsPage = lazy(() => import('./pages/TagsPage.js'));
const SettingsPage = lazy(() => import('./pages/SettingsPage.js'));

export const adminRoutes: RouteObject = {
  path: '/admin',
  element: (
    // The shell's own chunk, before the shell's boundary is there to catch a failure.
    <LoadFailureBoundary>
      <Suspense fallback={<Loading />}>
        <AdminArea />
      </Suspense>
    </LoadFailureBoundary>
  ),
  children: [
    { index: true, element: <Navigate to="dashboard" replace /> },
    { path: 'dashboard', element: <DashboardPage /> },
    { path: 'users', element: <UsersPage /> },
    { path: 'users/new', element: <UserFormPage /> },
    { path: 'users/:id/edit', element: <UserFormPage /> },
    { path: 'images', element: <ImagesPage /> },
    { path: 'pending-images', element: <PendingImagesPage /> },
    { path: 'duplicate-images', element: <DuplicateImagesPage /> },
    { path: 'categories', element: <CategoriesPage /> },
    { path: 'tags', element: <TagsPage /> },
    { path: 'settings', element: <SettingsPage /> },
    { path: '*', element: <Navigate to="dashboard" replace /> },
  ],
};
