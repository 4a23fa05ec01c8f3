// POSTs one JSON body to a development route of a benchmark platform and exits when it has been answered: the
// synchronous form of postDevRoute, for a benchmark that must keep its own JS thread blocked meanwhile.
//   node --import tsx bench/support/post-dev-route.ts <apiBase> <caFile or ''> <path> <json body>
import { postDevRoute } from './dev-request.js';

const [apiBase, caFile, path, body] = process.argv.slice(2);
if (!apiBase || caFile === undefined || !path || !body) throw new Error('usage: post-dev-route.ts <apiBase> <caFile> <path> <json>');
await postDevRoute({ apiBase, ...(caFile ? { caFile } : {}) }, path, JSON.parse(body));
