/**
 * Holds a socket's writes until the end of the current tick. A fan-out that publishes several events in one
 * synchronous run (or a resume that replays hundreds) then leaves each socket in one writev instead of one system
 * call per frame; the delay is only until process.nextTick, before any I/O is polled.
 */
import type { Duplex } from 'node:stream';

const corked = new Set<Duplex>();

function uncorkAll(): void {
  for (const socket of corked) socket.uncork();
  corked.clear();
}

export function corkUntilNextTick(socket: Duplex): void {
  if (corked.has(socket)) return;
  if (corked.size === 0) process.nextTick(uncorkAll);
  corked.add(socket);
  socket.cork();
}
