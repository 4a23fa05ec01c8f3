// node-gyp-build ships no declarations; lib/loader.ts types what it uses (NodeGypBuild) and casts to it.
declare module 'node-gyp-build' {
  const load: unknown;
  export default load;
}
