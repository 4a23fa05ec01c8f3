import type { AccessEnding } from '../accounts/access-ending.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { TokenIssuing } from './issue.js';
import type { TokenLifetimes } from './token-lifetimes.js';

/**
 * What the OAuth2 area's routes use besides the kernel: issuing tokens (signing keys, the issuer URL), ending access
 * (a revocation closes the user's sessions and sends APPLICATION_DEAUTHORIZED), the merge attempts' rate limiter,
 * and its slice of the start options.
 */
export interface OAuthServices extends TokenIssuing, AccessEnding {
  options: { tokenLifetimes: TokenLifetimes; devMode: boolean };
  rateLimiter: RateLimiter;
}
