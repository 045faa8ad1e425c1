/*
 * The back-office's view of the API (SPEC §3, §7 admin calls, D7), mirroring the server's
 * response schemas in server/src/modules/admin, duplicates and settings.
 */

export interface AdminStats {
  total_stats: {
    users: number;
    images: number;
    pending_images: number;
    categories: number;
    tags: number;
    interactions: number;
  };
  top_categories: { name: string; count: number }[];
  top_tags: { name: string; count: number }[];
  most_active_users: {
    id_utente: number;
    username: string;
    image_score: number;
    interaction_score: number;
    total_score: number;
  }[];
  /** The last 30 days, oldest first, `date` as YYYY-MM-DD in Rome time. */
  daily: { date: string; uploads: number; interactions: number }[];
}

export interface AdminUser {
  id_utente: number;
  username: string;
  email: string;
  is_active: boolean;
  is_superuser: boolean;
  role: 'admin' | 'user';
  images_uploaded: number;
  total_interactions: number;
  received_likes: number;
  image_score: number;
  interaction_score: number;
  total_score: number;
  /** Sent back with an edit: the server refuses one made from an older state (409). */
  revision: number;
  created_at: string;
}

/** GET /admin/users/{id}: the account itself. */
export interface AdminUserDetail {
  id_utente: number;
  username: string;
  email: string;
  is_active: boolean;
  is_superuser: boolean;
  /** Sent back with an edit: the server refuses one made from an older state (409). */
  revision: number;
  created_at: string;
}

/** POST and PUT /admin/users: an empty or missing password on PUT keeps the current one. */
export interface AdminUserInput {
  username: string;
  email: string;
  password?: string;
  is_active: boolean;
  is_superuser: boolean;
  /** PUT only: the revision the form was filled with. */
  revision?: number;
}

export interface AdminImage {
  id_image: number;
  filename: string;
  titolo_img: string | null;
  id_categoria: number;
  categoria_nome: string;
  username: string;
  id_utente: number;
  /** 'pending', 'approved' or 'rejected' (D7: the admin list holds every status). */
  status: string;
  tags: string[];
  /** Sent back with an edit: the server refuses one made from an older state (409). */
  revision: number;
  created_at: string;
  thumbnail_url: string;
  stats: { likes: number; downloads: number; favorites: number; total_interactions: number };
}

/** PUT /admin/images/{id}: any subset; tags by name, missing ones are created. */
export interface AdminImageInput {
  titolo_img?: string;
  id_categoria?: number;
  tags?: string[];
  /** The revision of the row the dialog was opened with (a stale one answers 409). */
  revision?: number;
}

export interface AdminCategory {
  id_categoria: number;
  nome: string;
  image_count: number;
  created_at: string;
  /** Sent back with a rename: the server refuses one over a later rename (409). */
  revision: number;
}

export interface AdminTag {
  id_tag: number;
  nome: string;
  image_count: number;
  created_at: string;
  /** Sent back with a rename: the server refuses one over a later rename (409). */
  revision: number;
}

export interface PendingImage {
  id_image: number;
  filename: string;
  title: string | null;
  description: string | null;
  status: string;
  user: { id_utente: number; username: string };
  category: { id_categoria: number; name: string };
  tags: string[];
  file_info: { size_bytes: number; width: number; height: number; mime_type: string };
  image_url: string;
  display_url: string;
  thumbnail_url: string;
  extracted_text: string | null;
  created_at: string;
}

/** GET /admin/pending-images/{id}/hints: what lets an administrator decide at a glance. */
export interface ModerationHints {
  possible_duplicates: {
    id_image: number;
    titolo_img: string | null;
    thumbnail_url: string;
    similarity: number;
    kind: string;
  }[];
  suggested_category: { id_categoria: number; nome: string } | null;
  suggested_tags: { id_tag: number; nome: string }[];
}

export interface DuplicateImage {
  id_image: number;
  titolo_img: string | null;
  filename: string;
  status: string;
  user: { username: string };
  created_at: string;
  published_at: string | null;
  stats: { likes: number; downloads: number };
  /** Bytes. */
  size: number;
  width: number;
  height: number;
  thumbnail_url: string;
  image_url: string;
}

export interface DuplicateGroup {
  count: number;
  /** The text read on the wall; empty when none. */
  testo_estratto: string;
  kind: 'text' | 'visual';
  images: DuplicateImage[];
}

/** GET /admin/duplicate-images/analysis. */
export interface AnalysisProgress {
  /** Images whose text and hash are still to come: groups form once they are read. */
  images_to_analyse: number;
}

export interface ServerSettings {
  registrations_open: boolean;
  /** Bytes, 100 KB to 5 MB. */
  upload_max_bytes: number;
  moderation_emails: boolean;
}
