/** How long the OAuth2 area's credentials live (the `tokenLifetimes` start option; any subset). */
export interface TokenLifetimes {
  /** OAuth2 access tokens (published value: 7 days). */
  accessSeconds: number;
  /** OAuth2 refresh tokens. */
  refreshSeconds: number;
  /** Provisional-account access tokens (published value: 7 days). */
  provisionalAccessSeconds: number;
  /** Authorization codes. */
  authorizationCodeSeconds: number;
  /** Device codes (published value: 300 s). */
  deviceCodeSeconds: number;
  /** Minimum polling interval announced for device codes (published value: 5 s). */
  deviceIntervalSeconds: number;
}

export const DEFAULT_TOKEN_LIFETIMES: TokenLifetimes = {
  accessSeconds: 604_800,
  refreshSeconds: 30 * 86_400,
  provisionalAccessSeconds: 604_800,
  authorizationCodeSeconds: 600,
  deviceCodeSeconds: 300,
  deviceIntervalSeconds: 5,
};
