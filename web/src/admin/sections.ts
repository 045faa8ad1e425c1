import CategoryIcon from '@mui/icons-material/Category';
import CollectionsIcon from '@mui/icons-material/Collections';
import DashboardIcon from '@mui/icons-material/Dashboard';
import FilterNoneIcon from '@mui/icons-material/FilterNone';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import PeopleIcon from '@mui/icons-material/People';
import SettingsIcon from '@mui/icons-material/Settings';
import type { SvgIconComponent } from '@mui/icons-material';

/** The side navigation of SPEC §2, in its order; paths are under /admin. */
export interface AdminSection {
  path: string;
  label: string;
  icon: SvgIconComponent;
}

export const ADMIN_SECTIONS: readonly AdminSection[] = [
  { path: 'dashboard', label: 'Dashboard', icon: DashboardIcon },
  { path: 'users', label: 'Utenti', icon: PeopleIcon },
  { path: 'images', label: 'Immagini', icon: CollectionsIcon },
  { path: 'pending-images', label: 'Immagini in Pending', icon: HourglassTopIcon },
  { path: 'duplicate-images', label: 'Immagini Duplicate', icon: FilterNoneIcon },
  { path: 'categories', label: 'Categorie', icon: CategoryIcon },
  { path: 'tags', label: 'Tag', icon: LocalOfferIcon },
  { path: 'settings', label: 'Impostazioni', icon: SettingsIcon },
];
