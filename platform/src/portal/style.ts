/**
 * The portal's one stylesheet, served from /developers/portal.css so the Content-Security-Policy can forbid
 * inline styles and every script. Focus is always visible (keyboard users must see where they are); colours keep
 * at least 4.5:1 contrast on white.
 */
export const PORTAL_CSS = `
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fff;line-height:1.45}
a{color:#1d4ed8}
:focus-visible{outline:3px solid #b45309;outline-offset:2px}
.skip{position:absolute;left:-9999px;top:0;background:#fff;padding:.5rem 1rem}
.skip:focus{left:.5rem}
header{display:flex;flex-wrap:wrap;align-items:center;gap:1rem;padding:.6rem 1.2rem;background:#1e293b;color:#fff}
header a{color:#fff}
header .brand{font-weight:700;margin:0}
header nav ul{display:flex;gap:1rem;list-style:none;margin:0;padding:0}
header form{margin-left:auto}
main{max-width:56rem;margin:0 auto;padding:1rem 1.2rem 3rem}
nav.sections ul{display:flex;flex-wrap:wrap;gap:.4rem;list-style:none;padding:0;margin:0 0 1rem}
nav.sections a{display:inline-block;padding:.3rem .7rem;border:1px solid #94a3b8;border-radius:.3rem;text-decoration:none}
nav.sections a[aria-current=page]{background:#1d4ed8;color:#fff;border-color:#1d4ed8}
section{border-top:1px solid #cbd5e1;padding-top:.6rem;margin-top:1.2rem}
label{display:block;font-weight:600;margin:.6rem 0 .2rem}
label.inline{display:inline;font-weight:400}
input[type=text],input[type=url],input[type=password],select{font:inherit;padding:.35rem;width:100%;max-width:36rem;border:1px solid #64748b;border-radius:.25rem}
input[aria-invalid=true],select[aria-invalid=true]{border:2px solid #b91c1c}
button{font:inherit;padding:.4rem 1rem;margin:.6rem .4rem 0 0;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;border-radius:.3rem;cursor:pointer}
button.secondary{background:#fff;color:#1d4ed8}
button.danger{background:#b91c1c;border-color:#b91c1c}
header button{margin:0;background:#fff;color:#1e293b;border-color:#fff}
.field-error{color:#b91c1c;margin:.2rem 0}
.notice{padding:.6rem .8rem;border-radius:.3rem;margin:.8rem 0}
.notice.ok{background:#ecfdf5;border:1px solid #047857}
.notice.error{background:#fef2f2;border:1px solid #b91c1c}
.secret{font-family:ui-monospace,monospace;word-break:break-all;background:#f1f5f9;padding:.2rem .4rem;display:inline-block}
table{border-collapse:collapse;width:100%;margin:.6rem 0}
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #e2e8f0;vertical-align:top}
code{font-family:ui-monospace,monospace;background:#f1f5f9;padding:0 .2rem;word-break:break-all}
.inline-form{display:inline}
.muted{color:#475569}
`;
