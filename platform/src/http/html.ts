/** Minimal HTML for the consent and device pages: escaped values, no scripts, no external assets. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}
label{display:block;margin:.6rem 0}input{font:inherit;padding:.3rem;width:100%;box-sizing:border-box}
button{font:inherit;padding:.4rem 1rem;margin:.8rem .5rem 0 0}.error{color:#b00020}code{background:#eee;padding:0 .2rem}</style>
</head><body>
<h1>${escapeHtml(title)}</h1>
${body}
</body></html>`;
}

export function hiddenInputs(fields: Record<string, string | undefined>): string {
  return Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
}
