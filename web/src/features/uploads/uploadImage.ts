import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiUpload } from '../../lib/api.js';

/**
 * SPEC §5 and §9: JPEG, PNG or WebP, of the size in uploadLimits.ts. The server checks the real
 * bytes again (D4).
 */
export const UPLOAD_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const UPLOAD_ACCEPT = '.jpg,.jpeg,.png,.webp,image/jpeg,image/png,image/webp';
/** SPEC §9: every upload goes to category 1; administrators may move it later. */
const UPLOAD_CATEGORY_ID = 1;
/** The server's limit for a title, which it refuses past rather than cuts. */
const TITLE_MAX_LENGTH = 200;

/**
 * The title sent: the file's name (SPEC §9), whose extension the server drops. Nobody typed it,
 * so the part before the extension is cut to the server's limit rather than refused: composed
 * (NFC) first, as the server counts it, in code points, between whole characters.
 */
export function titleFromFileName(name: string): string {
  const composed = name.normalize('NFC');
  const extension = /\.(jpe?g|png|webp)$/i.exec(composed)?.[0] ?? '';
  const bare = composed.slice(0, composed.length - extension.length);
  let title = '';
  let length = 0;
  for (const { segment } of new Intl.Segmenter('it', { granularity: 'grapheme' }).segment(bare)) {
    length += Array.from(segment).length;
    if (length > TITLE_MAX_LENGTH) break;
    title += segment;
  }
  return title + extension;
}

export interface UploadResult {
  id_image: number;
  filename: string;
  status: 'pending';
}

/**
 * POST /images/export, multipart: file, title (the file name, see titleFromFileName),
 * category_id 1, tags '[]'.
 * `onProgress` hears how much of the file has been sent, in percent.
 */
export function uploadImage(
  file: File,
  onProgress: (percent: number) => void = () => undefined,
): Promise<UploadResult> {
  const form = new FormData();
  form.append('title', titleFromFileName(file.name));
  form.append('category_id', String(UPLOAD_CATEGORY_ID));
  form.append('tags', '[]');
  // The file goes last: the server may stop reading at an oversized file, fields first.
  form.append('file', file, file.name);
  return apiUpload<UploadResult>('/images/export', form, onProgress);
}

/** The upload, and how much of its file has been sent so far (0 to 100). */
export function useUploadImage() {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState(0);
  const mutation = useMutation({
    mutationFn: (file: File) => uploadImage(file, setProgress),
    onMutate: () => {
      setProgress(0);
    },
    // The own uploads ('Carica' tab) and the profile figures gain a pending image.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['images'] }),
  });
  return { ...mutation, progress };
}
