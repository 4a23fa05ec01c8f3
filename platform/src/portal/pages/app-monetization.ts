import { html } from '../html.js';
import { applicationPage, type SectionView } from './application-chrome.js';

/** Said plainly instead of an empty form: the platform has no store model yet. */
export function monetizationPage(view: SectionView): string {
  return applicationPage(
    view,
    'monetization',
    html`<section aria-labelledby="skus-heading"><h2 id="skus-heading">SKUs</h2>
<p>Not available: this platform has no SKUs yet (no SKU records, no <code>GET /applications/{id}/skus</code>).</p></section>
<section aria-labelledby="entitlements-heading"><h2 id="entitlements-heading">Test entitlements</h2>
<p>Not available: this platform has no entitlements yet, so there is nothing to grant for testing. This page will
list SKUs and create and delete test entitlements once the platform models them.</p></section>`,
  );
}
