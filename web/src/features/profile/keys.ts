/**
 * Query keys of the profile feature. Lists of pictures live under 'images' so that anything
 * which invalidates images (a reaction, an upload, a moderation) refreshes these lists too.
 */
export const profileKeys = {
  /** Every public profile, whoever looks at it: the follow state depends on the viewer. */
  allProfiles: ['users', 'profile'] as const,
  profile: (ref: string, viewerId: number | null) => ['users', 'profile', ref, viewerId] as const,
  userImages: (userId: number) => ['images', 'user', userId] as const,
  ownUploads: (viewerId: number) => ['images', 'own-uploads', viewerId] as const,
  liked: (viewerId: number) => ['images', 'liked', viewerId] as const,
};
