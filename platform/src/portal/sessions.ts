import { hashToken, randomToken } from '../crypto/tokens.js';

/** Shown once on the next page, then forgotten (a rotated secret, the outcome of a test delivery). */
export interface Flash {
  kind: 'ok' | 'error';
  message: string;
  /** Credentials to show once: label → value. */
  secrets?: Array<{ label: string; value: string }>;
}

export interface PortalSession {
  username: string;
  /** Every form of the session carries this token; a post without it is refused (cross-site request forgery). */
  csrfToken: string;
  expiresAt: number;
  flash?: Flash;
}

/** A signed-in developer stays signed in this long, whatever they do (then signs in again). */
export const SESSION_SECONDS = 8 * 3600;

/**
 * Signed-in developers, in memory: a restart signs everyone out, which is what a local platform wants (no session
 * table to migrate, nothing to leak from the database). The map is keyed by the SHA-256 of the cookie value, so
 * even this process's memory holds no usable cookie.
 */
export class PortalSessions {
  private readonly sessions = new Map<string, PortalSession>();

  constructor(private readonly now: () => number) {}

  /** Starts a session; returns the cookie value (the only place it exists in clear). */
  create(username: string): string {
    this.sweep();
    const cookie = randomToken(32);
    this.sessions.set(hashToken(cookie), {
      username,
      csrfToken: randomToken(24),
      expiresAt: this.now() + SESSION_SECONDS * 1000,
    });
    return cookie;
  }

  get(cookie: string | undefined): PortalSession | undefined {
    if (!cookie) return undefined;
    const key = hashToken(cookie);
    const session = this.sessions.get(key);
    if (!session) return undefined;
    if (session.expiresAt <= this.now()) {
      this.sessions.delete(key);
      return undefined;
    }
    return session;
  }

  end(cookie: string | undefined): void {
    if (cookie) this.sessions.delete(hashToken(cookie));
  }

  /** The session's flash, removed as it is read. */
  takeFlash(session: PortalSession): Flash | undefined {
    const flash = session.flash;
    delete session.flash;
    return flash;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, session] of this.sessions) if (session.expiresAt <= now) this.sessions.delete(key);
  }
}
