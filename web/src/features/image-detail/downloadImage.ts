import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, authHeaders, settle } from '../../lib/api.js';
import type { ImageDetail } from '../../lib/types.js';
import { imageQueryKey } from './image.js';

/** The file name of a Content-Disposition header: RFC 5987 `filename*` first, then `filename`. */
function fileNameOf(disposition: string | null, fallback: string): string {
  if (disposition === null) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (extended?.[1] !== undefined) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A badly encoded name falls through to the plain one.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition);
  return plain?.[1]?.trim() ?? fallback;
}

/**
 * GET /images/{id}/download: authenticated, so a plain link cannot carry the token. The file is
 * fetched as a blob and saved under the name the server chose.
 */
export async function downloadImage(id: number): Promise<void> {
  const { headers, token } = authHeaders();
  // The answer is the file itself; only a failure speaks JSON.
  headers['accept'] = '*/*';
  let response: Response;
  try {
    response = await fetch(`/api/images/${id}/download`, { headers });
  } catch {
    throw new ApiError(0, undefined);
  }
  // A failed answer makes settle throw its ApiError (and end a dead session on a 401).
  if (!response.ok) settle(response.status, await response.text(), token);
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(
    response.headers.get('content-disposition'),
    `muri-parlanti-${id}.webp`,
  );
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled; the object URL can go soon after.
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 10_000);
}

function adjustDownloads(image: ImageDetail | undefined, delta: number): ImageDetail | undefined {
  if (image === undefined) return image;
  const count = Math.max(0, image.downloads_count + delta);
  // D5: shares_count is the number of downloads, so both move together.
  return { ...image, downloads_count: count, shares_count: count };
}

export interface DownloadInput {
  imageId: number;
  viewerId: number;
}

/** SPEC §4: the counter rises by 1 at once and is rolled back on failure. */
export function useDownloadImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ imageId }: DownloadInput) => downloadImage(imageId),
    onMutate: async ({ imageId, viewerId }) => {
      const key = imageQueryKey(imageId, viewerId);
      // A reload landing after the +1 would wipe it out; the answer comes back with it anyway.
      await queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<ImageDetail>(key, (image) => adjustDownloads(image, 1));
    },
    onError: (_error, { imageId, viewerId }) => {
      queryClient.setQueryData<ImageDetail>(imageQueryKey(imageId, viewerId), (image) =>
        adjustDownloads(image, -1),
      );
    },
    // Downloads weigh in trending and in the galleries' share counts.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['images'], refetchType: 'none' }),
  });
}
