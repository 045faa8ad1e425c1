/**
 * The privacy policy's address and title (SPEC §1, §2): its page, its route and every link to
 * it say the same. A module of its own, so the links need not load the page's chunk.
 */
export const PRIVACY_POLICY_PATH = '/privacy-policy';
export const PRIVACY_POLICY_TITLE = 'Informativa sulla privacy';
