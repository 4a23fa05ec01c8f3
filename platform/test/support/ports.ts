import net from 'node:net';

/**
 * A loopback TCP port nothing listens on right now (bound, then released): for a connection that must be refused,
 * or a server whose address must be known before it starts.
 */
export async function freeLoopbackPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
