/** Shapes of the API answers the web app reads (the server schemas under modules/). */
export interface TagRef {
  id_tag: number;
  nome: string;
}

export interface GalleryImage {
  id_image: number;
  filename: string;
  titolo_img: string | null;
  /** The text read on the wall: approved images only, null until it is read. */
  extracted_text: string | null;
  id_utente: number;
  username_uploader: string;
  category: { id_categoria: number; nome: string };
  tags: TagRef[];
  interactions: Array<{ id_tipo_interazione: number; id_utente: number }>;
  likes_count: number;
  views_count: number;
  shares_count: number;
  width: number;
  height: number;
  placeholder: string | null;
  image_url: string;
  display_url: string;
  thumbnail_url: string;
  created_at: string;
  published_at: string | null;
  status?: string;
  rejection_reason?: string | null;
}

export interface ImageDetail extends GalleryImage {
  description: string | null;
  status: string;
  /** False for a deactivated account: its profile is hidden, so nothing links to it. */
  uploader_visible: boolean;
  favorites_count: number;
  downloads_count: number;
  sad_count: number;
  dislikes_count: number;
  wow_count: number;
}

export interface ImagePage {
  images: GalleryImage[];
  total?: number;
  hasMore?: boolean;
  /** Galleries: what continues the list (`cursor=`), null on the last page. */
  next_cursor?: string | null;
}

export interface Category {
  id_categoria: number;
  nome: string;
  count: number;
  created_at: string;
}

export interface Tag {
  id_tag: number;
  nome: string;
  image_count: number;
  created_at: string;
}
