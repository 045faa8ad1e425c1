import { describe, expect, it } from 'vitest';
import type { DuplicateGroup, DuplicateImage } from '../../types.js';
import {
  cardDate,
  groupHeading,
  groupText,
  imagesLeftToAnalyse,
  sizeInKb,
  withoutImage,
} from './groups.js';

function image(id: number): DuplicateImage {
  return {
    id_image: id,
    titolo_img: `Immagine ${id}`,
    filename: `${id}.webp`,
    status: 'approved',
    user: { username: 'marta' },
    created_at: '2026-01-01T00:00:00.000Z',
    published_at: '2026-01-02T00:00:00.000Z',
    stats: { likes: 0, downloads: 0 },
    size: 2048,
    width: 10,
    height: 10,
    thumbnail_url: '',
    image_url: '',
  };
}

function group(ids: number[], text = 'ti amo roma'): DuplicateGroup {
  return { count: ids.length, testo_estratto: text, kind: 'text', images: ids.map(image) };
}

describe('duplicate groups on the page', () => {
  it('takes a deleted image out of its group and recounts', () => {
    const after = withoutImage([group([1, 2, 3]), group([4, 5])], 2);
    expect(after.map((g) => g.images.map((i) => i.id_image))).toEqual([
      [1, 3],
      [4, 5],
    ]);
    expect(after[0]?.count).toBe(2);
  });

  it('drops a group left with fewer than two images', () => {
    const after = withoutImage([group([1, 2, 3]), group([4, 5])], 5);
    expect(after.map((g) => g.images.map((i) => i.id_image))).toEqual([[1, 2, 3]]);
  });

  it('leaves everything as it was for an unknown image', () => {
    const groups = [group([1, 2])];
    expect(withoutImage(groups, 9)).toEqual(groups);
  });

  it('words the heading, the text and the size as SPEC does', () => {
    expect(groupHeading(1, group([1, 2, 3]))).toBe('Gruppo 1 - 3 immagini duplicate');
    expect(groupText(group([1, 2], '  '))).toBe('—');
    expect(groupText(group([1, 2], ' Ti amo '))).toBe('Ti amo');
    expect(sizeInKb(2048)).toBe('2,00 KB');
    expect(sizeInKb(1500)).toBe('1,46 KB');
    expect(sizeInKb(0)).toBe('Dimensione non disponibile');
    expect(sizeInKb(undefined)).toBe('Dimensione non disponibile');
  });
});

describe('the analysis still running', () => {
  it('says how many images are left, in the singular for one', () => {
    expect(imagesLeftToAnalyse(1)).toBe('ancora 1 immagine da analizzare');
    expect(imagesLeftToAnalyse(12)).toBe('ancora 12 immagini da analizzare');
  });
});

describe('the date on a card', () => {
  it('is the publication for a public image and the upload for one waiting for review', () => {
    const dates = {
      created_at: '2026-11-24T08:16:00.000Z',
      published_at: '2026-11-25T10:30:00.000Z',
    };
    expect(cardDate({ ...dates, status: 'approved' })).toBe('Pubblicata il: 25/11/2026, 11:30');
    expect(cardDate({ ...dates, status: 'pending', published_at: null })).toBe(
      'Caricata il: 24/11/2026, 09:16',
    );
  });
});
