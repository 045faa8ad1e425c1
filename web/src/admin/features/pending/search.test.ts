import { describe, expect, it } from 'vitest';
import type { PendingImage } from '../../types.js';
import { categoryName, filterPending, uploaderName } from './search.js';

function pending(
  id: number,
  title: string | null,
  username: string,
  category: string,
  tags: string[],
): PendingImage {
  return {
    id_image: id,
    filename: `${id}.webp`,
    title,
    description: null,
    status: 'pending',
    user: { id_utente: id, username },
    category: { id_categoria: id, name: category },
    tags,
    file_info: { size_bytes: 1000, width: 10, height: 10, mime_type: 'image/webp' },
    image_url: '',
    display_url: '',
    thumbnail_url: '',
    extracted_text: null,
    created_at: '2026-01-01T00:00:00.000Z',
  };
}

const love = pending(1, 'Ti amo Roma', 'marta', 'messaggi_amore', ['cuore', 'Città']);
const images = [
  love,
  pending(2, 'Resistere sempre', 'paolo', 'politica', ['lotta']),
  pending(3, null, 'giulia_88', 'Non categorizzata', []),
];
const ids = (query: string) => filterPending(images, query).map((image) => image.id_image);

describe('the pending search (SPEC §2)', () => {
  it('keeps everything for a blank query', () => {
    expect(ids('')).toEqual([1, 2, 3]);
    expect(ids('   ')).toEqual([1, 2, 3]);
  });

  it('searches title, uploader, category and tags, ignoring case and accents', () => {
    expect(ids('roma')).toEqual([1]);
    expect(ids('PAOLO')).toEqual([2]);
    expect(ids('giulia')).toEqual([3]);
    expect(ids('amore')).toEqual([1]);
    expect(ids('messaggi_amore')).toEqual([1]);
    expect(ids('politica')).toEqual([2]);
    expect(ids('lotta')).toEqual([2]);
    expect(ids('citta')).toEqual([1]);
    expect(ids('categorizzata')).toEqual([3]);
  });

  it('wants every word somewhere', () => {
    expect(ids('marta cuore')).toEqual([1]);
    expect(ids('marta lotta')).toEqual([]);
    expect(ids('zzz')).toEqual([]);
  });

  it('names a missing uploader or category', () => {
    const orphan = { ...pending(4, 'x', '', '', []) };
    expect(uploaderName(orphan)).toBe('Utente sconosciuto');
    expect(categoryName(orphan)).toBe('Nessuna categoria');
    const broken = { ...orphan, user: null, category: null } as unknown as PendingImage;
    expect(uploaderName(broken)).toBe('Utente sconosciuto');
    expect(categoryName(broken)).toBe('Nessuna categoria');
    expect(filterPending([broken], 'x')).toHaveLength(1);
    expect(categoryName(love)).toBe('Amore');
  });
});
