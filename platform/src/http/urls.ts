/**
 * The URLs the platform is reachable at; known once the server listens (the port may be ephemeral), so an area
 * takes them as a function (`urls: () => PlatformUrls`) and reads them when it uses them.
 */
export interface PlatformUrls {
  http: string;
  api: string;
  gateway: string;
  /** The attachments origin's base URL (its own listener, PROTOCOL.md §14.4): attachment `url`s start with it. */
  attachments: string;
}

/** What a module that writes the platform's own URLs into its output takes (read at each use, never kept). */
export interface ReadsUrls {
  urls: () => PlatformUrls;
}
