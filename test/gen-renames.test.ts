// The IDL's referenceRenames (the reference SDK's names for ours): the model refuses an entry that names something
// the surface does not have or a name already taken, so the list cannot rot; the C++ wrapper turns each entry into a
// deprecated alias of the same signature, and the porting guide's table lists each one.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as idl from '../idl/surface.mjs';
import { generate as cppWrapper } from '../tools/gen/cpp_wrapper.mjs';
import { buildModel } from '../tools/gen/model.mjs';

type Idl = typeof idl;
type Rename = (typeof idl.referenceRenames)[number];

const withRenames = (referenceRenames: Rename[]): Idl => ({ ...idl, referenceRenames }) as Idl;

describe('referenceRenames in the model', () => {
  it('resolves every entry of the real list to a member or an enum value', () => {
    const { renames } = buildModel(idl);
    expect(renames).toHaveLength(idl.referenceRenames.length);
    const getter = renames.find((r) => r.reference === 'DiscordRelationshipType');
    expect(getter).toMatchObject({
      kind: 'member',
      fn: { cName: 'Svcpp_RelationshipHandle_PlatformRelationshipType' },
    });
    expect(renames.find((r) => r.reference === 'DiscordBot')).toMatchObject({
      kind: 'enumValue',
      enum: { name: 'ExternalIdentityProviderType' },
    });
  });

  it.each([
    [
      { scope: 'Client', reference: 'IsDiscordAppInstalled', ours: 'IsPlatformAppInstalled' },
      /Client has no member IsPlatformAppInstalled/,
    ],
    [
      { scope: 'ExternalIdentityProviderType', reference: 'DiscordBot2', ours: 'PlatformBot2' },
      /has no value PlatformBot2/,
    ],
    [
      { scope: 'Client', reference: 'SendGameFriendRequest', ours: 'SendPlatformFriendRequest' },
      /already has a member SendGameFriendRequest/,
    ],
    [{ scope: 'ExternalIdentityProviderType', reference: 'Steam', ours: 'PlatformBot' }, /already has a value Steam/],
    [{ scope: 'Nowhere', reference: 'A', ours: 'B' }, /Nowhere is neither a type nor an enum/],
  ])('refuses %o', (entry, message) => {
    expect(() => buildModel(withRenames([entry]))).toThrow(message);
  });

  it('refuses an entry listed twice', () => {
    const entry = { scope: 'Client', reference: 'SendDiscordFriendRequest', ours: 'SendPlatformFriendRequest' };
    expect(() => buildModel(withRenames([entry, entry]))).toThrow(/listed twice/);
  });
});

describe('referenceRenames in the C++ wrapper and the porting guide', () => {
  const hpp = cppWrapper(buildModel(idl))[0]!.content;

  it('emits a forwarding member with our signature, const and all', () => {
    expect(hpp).toContain(
      '    [[deprecated("use SendPlatformFriendRequest")]] void SendDiscordFriendRequest(std::string username, ' +
        'svcpp::Client::SendFriendRequestCallback cb)\n' +
        '    {\n' +
        '        return SendPlatformFriendRequest(std::move(username), std::move(cb));\n' +
        '    }\n',
    );
    expect(hpp).toContain(
      '    [[deprecated("use PlatformRelationshipType")]] svcpp::RelationshipType DiscordRelationshipType() const\n' +
        '    {\n        return PlatformRelationshipType();\n    }\n',
    );
  });

  it('emits an enumerator with the value of ours', () => {
    expect(hpp).toContain('    DiscordBot [[deprecated("use PlatformBot")]] = PlatformBot,');
  });

  it('emits nothing for an empty list', () => {
    expect(cppWrapper(buildModel(withRenames([])))[0]!.content).not.toContain('[[deprecated("use ');
  });

  it('the guide lists every alias (the table is generated from the list)', () => {
    const guide = readFileSync(new URL('../docs/porting-from-the-reference-sdk.md', import.meta.url), 'utf8');
    for (const r of idl.referenceRenames)
      expect(guide).toContain(`| \`${r.scope}::${r.reference}\` | \`${r.scope}::${r.ours}\` |`);
  });

  it("the guide's list of reference methods svcpp lacks names none that has an alias (OpenMessageInDiscord was in both)", () => {
    const guide = readFileSync(new URL('../docs/porting-from-the-reference-sdk.md', import.meta.url), 'utf8');
    const [, lacking] = /^- Reference methods svcpp does not implement[^:]*: (.*?)\. \(/ms.exec(guide) ?? [];
    expect(lacking).toBeDefined();
    const named = [...lacking!.matchAll(/`(\w+)`/g)].map((m) => m[1]);
    expect(named).toEqual(['GetDiscordClientConnectedUser', 'IsDiscordAppInstalled']);
    const aliased = new Set(idl.referenceRenames.map((r: { reference: string }) => r.reference));
    expect(named.filter((name) => aliased.has(name!))).toEqual([]);
  });
});
