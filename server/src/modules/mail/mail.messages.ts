import type { OutgoingMail } from './mailer.js';

/*
 * The texts of the e-mails (D8): Italian, signed by the brand, each in plain text and HTML.
 * Every value a user chose (username, image title, rejection reason) is HTML-escaped in the
 * HTML part: a title like `<script>` or `<a href=…>` must arrive as text, never as markup.
 */

export const BRAND = 'Muri Parlanti';

export const MAIL_SUBJECTS = {
  approved: `La tua immagine è stata approvata · ${BRAND}`,
  rejected: `La tua immagine non è stata approvata · ${BRAND}`,
  passwordReset: `Scegli una nuova password · ${BRAND}`,
} as const;

const UNTITLED = 'Senza titolo';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/**
 * Where the web app shows an image (D11), whole: a mail client has no page to resolve a path
 * against. `siteUrl` is the site's origin (PUBLIC_URL).
 */
export function imageLink(id_image: number, siteUrl: string): string {
  return siteLink(siteUrl, `/image/${String(id_image)}`);
}

/** A path of the web app as a whole address: the site's origin (PUBLIC_URL) before it. */
function siteLink(siteUrl: string, path: string): string {
  return `${siteUrl.replace(/\/+$/, '')}${path}`;
}

export interface DecisionMailInput {
  to: string;
  username: string;
  title: string | null;
  id_image: number;
  siteUrl: string;
}

export function approvalMail(input: DecisionMailInput): OutgoingMail {
  const title = input.title ?? UNTITLED;
  const link = imageLink(input.id_image, input.siteUrl);
  const text = [
    `Ciao ${input.username},`,
    '',
    `la tua immagine «${title}» è stata approvata ed è ora visibile a tutti su ${BRAND}.`,
    '',
    `Puoi vederla qui: ${link}`,
    '',
    'Grazie per aver condiviso le voci dei muri!',
    `Il team di ${BRAND}`,
  ].join('\n');
  const html = layout(MAIL_SUBJECTS.approved, [
    `<p>Ciao ${escapeHtml(input.username)},</p>`,
    `<p>la tua immagine <strong>«${escapeHtml(title)}»</strong> è stata approvata ed è ora visibile a tutti su ${BRAND}.</p>`,
    `<p><a href="${escapeHtml(link)}">Guarda la tua immagine</a></p>`,
    '<p>Grazie per aver condiviso le voci dei muri!</p>',
  ]);
  return { to: input.to, subject: MAIL_SUBJECTS.approved, text, html };
}

export function rejectionMail(input: DecisionMailInput & { reason: string }): OutgoingMail {
  const title = input.title ?? UNTITLED;
  const text = [
    `Ciao ${input.username},`,
    '',
    `la tua immagine «${title}» non è stata approvata.`,
    '',
    `Motivo: ${input.reason}`,
    '',
    'Puoi caricare una nuova immagine quando vuoi.',
    `Il team di ${BRAND}`,
  ].join('\n');
  const html = layout(MAIL_SUBJECTS.rejected, [
    `<p>Ciao ${escapeHtml(input.username)},</p>`,
    `<p>la tua immagine <strong>«${escapeHtml(title)}»</strong> non è stata approvata.</p>`,
    // Line breaks the administrator typed survive as <br>, after escaping.
    `<p><strong>Motivo:</strong> ${escapeHtml(input.reason).replace(/\r?\n/g, '<br>')}</p>`,
    '<p>Puoi caricare una nuova immagine quando vuoi.</p>',
  ]);
  return { to: input.to, subject: MAIL_SUBJECTS.rejected, text, html };
}

/**
 * Where the web app takes a new password (modules/auth/password-reset.service.ts). The secret
 * rides in the fragment: a browser sends no fragment to the server, in a request or a Referer,
 * so it stays out of access logs and of the pages the reset page links to.
 */
export function passwordResetLink(secret: string, siteUrl: string): string {
  return siteLink(siteUrl, `/reset-password#${secret}`);
}

export function passwordResetMail(input: {
  to: string;
  username: string;
  link: string;
  minutes: number;
}): OutgoingMail {
  const lines = {
    asked: `qualcuno, probabilmente tu, ha chiesto di scegliere una nuova password per il tuo account «${input.username}».`,
    valid: `Il link vale per ${String(input.minutes)} minuti e una volta sola.`,
    ignore: 'Se non l’hai chiesto tu, ignora questa e-mail: la tua password resta quella di prima.',
  };
  const text = [
    `Ciao ${input.username},`,
    '',
    lines.asked,
    '',
    `Scegli la nuova password qui: ${input.link}`,
    '',
    lines.valid,
    lines.ignore,
    '',
    `Il team di ${BRAND}`,
  ].join('\n');
  const html = layout(MAIL_SUBJECTS.passwordReset, [
    `<p>Ciao ${escapeHtml(input.username)},</p>`,
    `<p>${escapeHtml(lines.asked)}</p>`,
    `<p><a href="${escapeHtml(input.link)}">Scegli la nuova password</a></p>`,
    `<p>${escapeHtml(lines.valid)} ${escapeHtml(lines.ignore)}</p>`,
  ]);
  return { to: input.to, subject: MAIL_SUBJECTS.passwordReset, text, html };
}

/** A plain, widely supported HTML page: inline styles only, as mail clients require. */
function layout(subject: string, paragraphs: string[]): string {
  return [
    '<!doctype html>',
    '<html lang="it">',
    '<head><meta charset="utf-8">',
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f4f1ec;font-family:Arial,Helvetica,sans-serif;color:#222;">',
    '<div style="max-width:560px;margin:0 auto;background:#fff;padding:24px;border-radius:8px;">',
    `<h1 style="font-size:20px;margin:0 0 16px;">${BRAND}</h1>`,
    ...paragraphs,
    `<p style="color:#666;">Il team di ${BRAND}</p>`,
    '</div>',
    '</body>',
    '</html>',
  ].join('\n');
}
