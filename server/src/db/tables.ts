import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/*
 * Row types of every table, as both engines return them. Portability rules:
 * - timestamps are ISO 8601 UTC strings (TEXT on SQLite, timestamptz on PostgreSQL parsed back
 *   into ISO strings by database.ts), written by the application clock;
 * - flags are integers 0/1, because better-sqlite3 cannot bind JavaScript booleans;
 * - ids and counters are 32-bit integers, which both drivers return as numbers.
 */

type Timestamp = string;
export type Flag = 0 | 1;

export interface UsersTable {
  id_utente: Generated<number>;
  username: string;
  /** Case-folded username (lib/text.ts foldKey): unique, so 'Marco' and 'marco' cannot coexist. */
  username_key: string;
  email: string;
  /** Case-folded e-mail, unique. */
  email_key: string;
  password_hash: string;
  is_active: Flag;
  is_superuser: Flag;
  /** Raised on password change or deactivation; tokens carry it and older ones are refused. */
  token_version: ColumnType<number, number | undefined, number>;
  /** Raised with every change to the user's toggles: what the servers' memory of them is checked against. */
  reactions_version: ColumnType<number, number | undefined, number>;
  /** Raised by every edit of the account: what a stale admin form is told apart by (409). */
  revision: ColumnType<number, number | undefined, number>;
  /** When the user confirmed being at least 16 (D9); kept as proof of consent. */
  age_confirmed_at: Timestamp | null;
  /** Set by 'Elimina account' (D9); the erasure job deletes the user after it. */
  deletion_requested_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CategoriesTable {
  id_categoria: Generated<number>;
  nome: string;
  /** Case-folded name, unique (D6: names are unique case-insensitively). */
  nome_key: string;
  /** Approved images in the category, kept current by the writes that change it (D6). */
  image_count: ColumnType<number, number | undefined, number>;
  /** Raised by every rename; the rename dialog sends it back (a stale one answers 409). */
  revision: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
}

export interface TagsTable {
  id_tag: Generated<number>;
  nome: string;
  /** Case-folded name, unique. */
  nome_key: string;
  /** Approved images carrying the tag, kept current like categories.image_count. */
  image_count: ColumnType<number, number | undefined, number>;
  /** Raised by every rename; the rename dialog sends it back (a stale one answers 409). */
  revision: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
}

export type ImageStatus = 'pending' | 'approved' | 'rejected';

type Counter = ColumnType<number, number | undefined, number>;

export interface ImagesTable {
  id_image: Generated<number>;
  /** Random name given by the server; the stored file and its derivatives are keyed by it. */
  filename: string;
  /** The name of the file as the uploader sent it, used for download file names. */
  original_filename: string | null;
  titolo_img: string | null;
  description: string | null;
  id_utente: number;
  id_categoria: number;
  status: ImageStatus;
  rejection_reason: string | null;
  reviewed_at: Timestamp | null;
  reviewed_by: number | null;
  mime_type: string;
  size_bytes: number;
  width: number;
  height: number;
  /** Tiny blurred preview (ThumbHash, base64) shown while the file loads. */
  placeholder: string | null;
  /** OCR output as read; null until the text job ran. */
  extracted_text: string | null;
  /** extracted_text folded (case, accents, punctuation, spaces) for grouping and search. */
  text_folded: string | null;
  /** The OCR's mean word confidence (0–100) in extracted_text; null when unknown. */
  ocr_confidence: number | null;
  /**
   * Italian words of the OCR's other likely readings that extracted_text lacks, folded and
   * space-separated; search finds the image by them at its lowest weight. Null before analysis.
   */
  ocr_alternates: string | null;
  /** 64-bit perceptual hash as 16 hex digits; null until the hash job ran. */
  phash: string | null;
  likes_count: Counter;
  favorites_count: Counter;
  downloads_count: Counter;
  sad_count: Counter;
  dislikes_count: Counter;
  wow_count: Counter;
  views_count: Counter;
  /** Raised by every change of title, category or tags: what a stale edit form is told apart by. */
  revision: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  /** When the image became public; galleries are ordered by it, newest first. */
  published_at: Timestamp | null;
}

export interface ImageTagsTable {
  id_image: number;
  id_tag: number;
}

export interface InteractionsTable {
  id_interazione: Generated<number>;
  id_image: number;
  /** Null only for views of anonymous visitors. */
  id_utente: number | null;
  id_tipo_interazione: number;
  /**
   * Who viewed, for the once-per-24-hours rule of views: 'u:<id>' for users, 'a:<hash>' for
   * anonymous visitors (a salted hash of the truncated IP, never the IP itself). Null otherwise.
   */
  viewer_key: string | null;
  created_at: Timestamp;
}

export interface FollowsTable {
  follower_id: number;
  followed_id: number;
  created_at: Timestamp;
}

export interface SettingsTable {
  key: string;
  /** JSON text, so every setting keeps its type across both engines. */
  value: string;
  updated_at: Timestamp;
}

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface JobsTable {
  id_job: Generated<number>;
  name: string;
  /** JSON text. */
  payload: string;
  status: JobStatus;
  attempts: ColumnType<number, number | undefined, number>;
  max_attempts: number;
  /** Not before this time; backoff moves it forward after a failure. */
  run_at: Timestamp;
  /** Set when a worker claims the job; a stale lock means the worker died and the job is retried. */
  locked_at: Timestamp | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DuplicateDismissalsTable {
  id_dismissal: Generated<number>;
  /** Sorted image ids of the group an administrator marked 'Non sono duplicati'. */
  image_ids: string;
  dismissed_by: number | null;
  created_at: Timestamp;
}

/** An LSH bucket of an image's folded text (modules/duplicates); one row per image and bucket. */
export interface DuplicateTextKeysTable {
  bucket: number;
  id_image: number;
}

/** A 16-bit band of an image's perceptual hash, as band * 65536 + value. */
export interface DuplicateHashKeysTable {
  band_key: number;
  id_image: number;
  /** 1 when the image has usable text (then text, not the hash, decides against other texts). */
  has_text: Flag;
}

/** A verified duplicate pair, smaller id first; groups are connected components of these. */
export interface DuplicatePairsTable {
  id_a: number;
  id_b: number;
  kind: 'text' | 'visual';
  /** 0–1: text similarity, or 1 − Hamming distance / 64 for visual pairs. */
  similarity: number;
}

/** A link for choosing a new password (migration 2026-12-04T0100, modules/auth/password-reset). */
export interface PasswordResetsTable {
  id_utente: number;
  /** SHA-256 of the link's secret, hex. */
  token_hash: string;
  /** The account's token version and e-mail key when the link was asked for. */
  token_version: number;
  email_key: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/**
 * Search's vocabulary as a deletion-neighbourhood index (modules/search/search.fuzzy.ts): each
 * indexed word and stem (a form) under itself and under each one-letter deletion of it.
 */
export interface SearchVocabularyTable {
  /** The form, or the form with one letter deleted. */
  variant: string;
  /** A folded word of some document, or its stem. */
  form: string;
  /** The stem the form is indexed as in image_search. */
  term: string;
}

export interface Database {
  users: UsersTable;
  categories: CategoriesTable;
  tags: TagsTable;
  images: ImagesTable;
  image_tags: ImageTagsTable;
  interactions: InteractionsTable;
  follows: FollowsTable;
  settings: SettingsTable;
  jobs: JobsTable;
  duplicate_dismissals: DuplicateDismissalsTable;
  duplicate_text_keys: DuplicateTextKeysTable;
  duplicate_hash_keys: DuplicateHashKeysTable;
  duplicate_pairs: DuplicatePairsTable;
  search_vocabulary: SearchVocabularyTable;
  password_resets: PasswordResetsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
