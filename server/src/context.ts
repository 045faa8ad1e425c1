import type { AppConfig } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import type { JobWorker } from './jobs/worker.js';
import type { Clock } from './lib/clock.js';
import type { AdminService } from './modules/admin/admin.service.js';
import type { AuthService } from './modules/auth/auth.service.js';
import type { PasswordResetService } from './modules/auth/password-reset.service.js';
import type { DuplicatesService } from './modules/duplicates/duplicates.service.js';
import type { TokenService } from './modules/auth/tokens.js';
import type { FollowsService } from './modules/follows/follows.service.js';
import type { FileUrlSigner } from './modules/images/file-urls.js';
import type { ImagesService } from './modules/images/images.service.js';
import type { InteractionsService } from './modules/interactions/interactions.service.js';
import type { ModerationService } from './modules/moderation/moderation.service.js';
import type { ErasureService } from './modules/privacy/erasure.service.js';
import type { PrivacyService } from './modules/privacy/privacy.service.js';
import type { SearchService } from './modules/search/search.service.js';
import type { SettingsService } from './modules/settings/settings.service.js';
import type { TaxonomyService } from './modules/taxonomy/taxonomy.service.js';
import type { UploadsService } from './modules/uploads/uploads.service.js';
import type { UsersService } from './modules/users/users.service.js';

/**
 * Everything a route module needs, built once by buildApp and handed to each module, so
 * modules never reach for globals and tests can swap the clock.
 */
export interface AppContext {
  readonly config: AppConfig;
  readonly database: DatabaseHandle;
  readonly clock: Clock;
  readonly tokens: TokenService;
  readonly fileUrls: FileUrlSigner;
  readonly users: UsersService;
  readonly auth: AuthService;
  readonly passwordReset: PasswordResetService;
  readonly taxonomy: TaxonomyService;
  readonly images: ImagesService;
  readonly interactions: InteractionsService;
  readonly follows: FollowsService;
  readonly uploads: UploadsService;
  readonly search: SearchService;
  readonly moderation: ModerationService;
  /** D7 duplicate groups and the moderation hints of issue 4. */
  readonly duplicates: DuplicatesService;
  readonly admin: AdminService;
  readonly erasure: ErasureService;
  readonly privacy: PrivacyService;
  /** D7: read from the database on every use, so every process obeys a change at once. */
  readonly settings: SettingsService;
  /** The job worker of this process; started with the app when jobsInServer is on. */
  readonly jobs: JobWorker;
}
