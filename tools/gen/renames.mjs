// Resolves the IDL's referenceRenames (the reference SDK's names svcpp spells differently) against the model, so
// the layers that emit aliases get the function or enum value each one stands for. Every entry must name
// something that exists: a rename whose `ours` is missing (renamed or removed since) or whose `reference` is
// already taken is an error, so the list cannot rot silently.

/** Ops whose functions are plain members of a C++ class (what an alias can forward to). */
const MEMBER_OPS = new Set(['get', 'set', 'method', 'static', 'isValid']);

/** The name of a function inside its class: Svcpp_Client_SendPlatformFriendRequest -> SendPlatformFriendRequest. */
export const memberNameOf = (fn) => fn.cName.slice(fn.owner.cName.length + 1);

/**
 * @returns {Array<{reference: string, ours: string, scope: string,
 *   kind: 'member', fn: object} | {reference: string, ours: string, scope: string, kind: 'enumValue', enum: object}>}
 */
export function resolveRenames(renames, { types, enums, functions }) {
  const seen = new Set();
  return renames.map(({ scope, reference, ours }) => {
    const where = `referenceRenames: ${scope}.${reference} -> ${ours}`;
    if (!scope || !reference || !ours) throw new Error(`${where}: scope, reference and ours are required`);
    if (seen.has(`${scope}.${reference}`)) throw new Error(`${where}: listed twice`);
    seen.add(`${scope}.${reference}`);

    const type = types.find((t) => t.name === scope);
    if (type) {
      const members = functions.filter((f) => f.owner === type && MEMBER_OPS.has(f.op));
      const fn = members.find((f) => memberNameOf(f) === ours);
      if (!fn) throw new Error(`${where}: ${scope} has no member ${ours}`);
      if (members.some((f) => memberNameOf(f) === reference))
        throw new Error(`${where}: ${scope} already has a member ${reference}`);
      return { scope, reference, ours, kind: 'member', fn };
    }
    const e = enums.find((x) => x.name === scope);
    if (e) {
      if (!e.values.some(([name]) => name === ours)) throw new Error(`${where}: enum ${scope} has no value ${ours}`);
      if (e.values.some(([name]) => name === reference))
        throw new Error(`${where}: enum ${scope} already has a value ${reference}`);
      return { scope, reference, ours, kind: 'enumValue', enum: e };
    }
    throw new Error(`${where}: ${scope} is neither a type nor an enum`);
  });
}
