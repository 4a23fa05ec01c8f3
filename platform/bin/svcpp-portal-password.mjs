#!/usr/bin/env node
// Prints the password hash for the developer portal's account (the config's developer_account.password_hash,
// platform/PROTOCOL.md §15). The password is read from standard input — never from the command line, where shell
// history and the process list would keep it.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const sources = join(here, '..', 'src', 'crypto', 'passwords.ts');
let passwords;
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  passwords = await import(pathToFileURL(sources).href);
} else {
  passwords = await import(pathToFileURL(join(here, '..', 'dist', 'crypto', 'passwords.js')).href);
}

if (process.stdin.isTTY) process.stderr.write('Password (then Enter; it is echoed unless you pipe it in): ');
let input = '';
for await (const chunk of process.stdin) {
  input += chunk;
  if (process.stdin.isTTY && input.includes('\n')) break;
}
const password = input.replace(/\r?\n$/, '');
if (password.length === 0) {
  process.stderr.write('empty password\n');
  process.exit(2);
}
process.stdout.write(`${passwords.hashPassword(password)}\n`);
