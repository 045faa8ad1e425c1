import Type from 'typebox';
import {
  SETTING_KEYS,
  SETTINGS_MESSAGES,
  UPLOAD_MAX_BYTES_MAX,
  UPLOAD_MAX_BYTES_MIN,
} from './settings.service.js';

const RegistrationsOpen = Type.Boolean({
  title: 'Registrazioni aperte',
  description: 'Closed: POST /auth/register answers 403',
  errorMessage: SETTINGS_MESSAGES.mustBeBoolean('Registrazioni aperte'),
});

const UploadMaxBytes = Type.Integer({
  title: 'Dimensione massima dei file',
  description: 'The largest upload accepted, in bytes (100 KB to 5 MB)',
  minimum: UPLOAD_MAX_BYTES_MIN,
  maximum: UPLOAD_MAX_BYTES_MAX,
  errorMessage: {
    type: SETTINGS_MESSAGES.uploadLimitNotInteger,
    minimum: SETTINGS_MESSAGES.uploadLimitTooSmall,
    maximum: SETTINGS_MESSAGES.uploadLimitTooLarge,
  },
});

const ModerationEmails = Type.Boolean({
  title: 'Email di moderazione',
  description: 'Off: approvals and rejections send the uploader no e-mail',
  errorMessage: SETTINGS_MESSAGES.mustBeBoolean('Email di moderazione'),
});

/** Every setting, as GET and PUT /admin/settings answer them. */
export const SettingsResponse = Type.Object(
  {
    registrations_open: Type.Boolean(),
    upload_max_bytes: Type.Integer(),
    moderation_emails: Type.Boolean(),
  },
  { $id: 'Settings' },
);

/**
 * Any subset of the settings. Fastify's validator would silently drop unknown fields
 * (additionalProperties: false with removeAdditional); `propertyNames` runs first and refuses
 * them, so a misspelt setting is a 400 rather than a 200 that changed nothing.
 */
export const UpdateSettingsBody = Type.Object(
  {
    registrations_open: Type.Optional(RegistrationsOpen),
    upload_max_bytes: Type.Optional(UploadMaxBytes),
    moderation_emails: Type.Optional(ModerationEmails),
  },
  { additionalProperties: false, propertyNames: { enum: [...SETTING_KEYS] } },
);
