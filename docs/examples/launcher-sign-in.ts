// The launcher guide's example (docs/electron-launcher.md): sign a player's full account in with OAuth2 + PKCE,
// connect, and show who is signed in and their servers. In Electron this runs in the main process and `openUrl` is
// `shell.openExternal`; run on its own it prints the consent URL for you to open.
//   npm init -y && npm pkg set type=module && npm install svcpp tsx
//   SVCPP_API_BASE=http://127.0.0.1:8787/api/v10 SVCPP_WEB_BASE=http://127.0.0.1:8787 \
//   SVCPP_APPLICATION_ID=<client id> npx tsx launcher-sign-in.ts
// (the local platform's defaults; with its --tls: https:// and SVCPP_CA_FILE=svcpp-platform-ca.pem)
// (test/docs-examples.test.ts runs it against the platform, approving the consent page as a test user.)
import { Client } from 'svcpp';

export interface SignInOptions {
  apiBase: string;
  webBase: string;
  caFile?: string;
  applicationId: bigint;
  /** Shows the consent page: Electron's shell.openExternal, or your own BrowserWindow. */
  openUrl: (url: string) => unknown;
}

/** Signs in and connects; the caller closes the returned client (it also refreshes the token before it expires). */
export async function signIn(options: SignInOptions): Promise<Client> {
  const client = new Client({ apiBase: options.apiBase, webBase: options.webBase, caFile: options.caFile });
  try {
    client.applicationId = options.applicationId;
    const { verifier, challenge } = client.createAuthorizationCodeVerifier();
    // The SDK listens on a loopback port for the redirect; the page itself is shown by openUrl.
    const { code, redirectUri } = await client.authorize(
      { scopes: Client.defaultCommunicationScopes, codeChallenge: challenge },
      { openUrl: options.openUrl, signal: AbortSignal.timeout(120_000) },
    );
    const tokens = await client.getToken({ code, codeVerifier: verifier, redirectUri });
    // Store tokens.refreshToken with the OS keychain (Electron: safeStorage) to skip the consent page next time.
    client.on('tokenExpiring', async () => {
      const refreshed = await client.refreshToken({ refreshToken: tokens.refreshToken! });
      await client.updateToken(refreshed.accessToken);
    });
    await client.updateToken(tokens.accessToken);
    await client.connect(); // resolves at Ready
    return client;
  } catch (error) {
    await client.close();
    throw error;
  }
}

// Run directly: configuration from the environment, the consent URL printed instead of opened.
if (import.meta.url === `file://${process.argv[1]}`) {
  const env = (name: string) =>
    process.env[name] ??
    (() => {
      throw new Error(`${name} is not set`);
    })();
  const client = await signIn({
    apiBase: env('SVCPP_API_BASE'),
    webBase: env('SVCPP_WEB_BASE'),
    caFile: process.env.SVCPP_CA_FILE,
    applicationId: BigInt(env('SVCPP_APPLICATION_ID')),
    openUrl: (url) => console.log(`open this page to sign in: ${url}`),
  });
  try {
    const me = client.currentUser!;
    console.log(`signed in as ${me.displayName} (@${me.username})`);
    for (const guild of await client.getUserGuilds()) {
      const channels = await client.getGuildChannels(guild.id);
      console.log(`server ${guild.name}: ${channels.map((channel) => `#${channel.name}`).join(' ')}`);
    }
  } finally {
    await client.close();
  }
}
