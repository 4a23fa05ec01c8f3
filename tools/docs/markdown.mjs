// Markdown to HTML for the documentation site (tools/docs/build.mjs), with markdown-it:
// - CommonMark plus GitHub's tables and strikethrough; raw HTML off, so a `<placeholder>` written outside a code span
//   shows as text instead of vanishing into the page;
// - every heading gets GitHub's anchor as its id (github-slugger: lower case, punctuation dropped, spaces as hyphens,
//   a repeated heading suffixed -1, -2, …), so the `#fragment` links the documents already use on GitHub resolve here;
// - every link is passed to `link(href)` (from build.mjs, which knows the document's place in the repository and the
//   site's pages): it returns the href to write, or `{ repositoryPath }` for a link with no page in the site (a source
//   file, a folder), which is then rendered as its text only, marked as that path of the repository.
import GithubSlugger from 'github-slugger';
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** The text GitHub makes a heading's anchor from: the heading's words and code spans, without their markup. */
function plainText(inline) {
  return inline.children
    .filter((t) => t.type === 'text' || t.type === 'code_inline')
    .map((t) => t.content)
    .join('');
}

md.core.ruler.push('github_heading_ids', (state) => {
  const slugger = new GithubSlugger();
  state.tokens.forEach((token, i) => {
    if (token.type === 'heading_open') token.attrSet('id', slugger.slug(plainText(state.tokens[i + 1])));
  });
});

md.core.ruler.push('site_links', (state) => {
  for (const inline of state.tokens.filter((t) => t.type === 'inline')) {
    let unmapped = false;
    for (const token of inline.children) {
      if (token.type === 'link_open') {
        const target = state.env.link(decodeURI(token.attrGet('href')));
        unmapped = typeof target !== 'string';
        if (unmapped) {
          token.tag = 'span';
          token.attrs = [
            ['class', 'repository-path'],
            ['title', `in the repository: ${target.repositoryPath}`],
          ];
        } else {
          token.attrSet('href', target);
        }
      } else if (token.type === 'link_close' && unmapped) {
        token.tag = 'span';
        unmapped = false;
      }
    }
  }
});

/** The document's HTML and its title (its first heading's text). */
export function render(text, link) {
  const env = { link };
  const tokens = md.parse(text, env);
  const h1 = tokens.findIndex((t) => t.type === 'heading_open');
  return { html: md.renderer.render(tokens, md.options, env), title: h1 < 0 ? '' : plainText(tokens[h1 + 1]) };
}

export const escapeHtml = md.utils.escapeHtml;
