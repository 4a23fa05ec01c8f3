import { SkuFlag } from '../../premium/constants.js';
import type { EntitlementRecord, SkuRecord } from '../../store/premium-types.js';
import { html } from '../html.js';
import { applicationPage, errorsOf, sectionPath, type SectionView } from './application-chrome.js';
import {
  cells,
  cellsRow,
  code,
  columnHeads,
  csrfInput,
  errorSummary,
  hiddenInput,
  selectField,
  textField,
} from './fields.js';

export interface MonetizationView extends SectionView {
  skus: SkuRecord[];
  /** Live test entitlements, newest first, with the owner's name when it is a user. */
  testEntitlements: Array<{ entitlement: EntitlementRecord; ownerName: string | null }>;
  testEntitlementLimit: number;
}

const SKU_TYPE_NAMES: Record<number, string> = {
  2: 'Durable',
  3: 'Consumable',
  5: 'Subscription',
  6: 'Subscription group',
};

function flagNames(flags: number): string {
  const names = [
    flags & SkuFlag.AVAILABLE ? 'available' : 'not available',
    ...(flags & SkuFlag.USER_SUBSCRIPTION ? ['user subscription'] : []),
    ...(flags & SkuFlag.GUILD_SUBSCRIPTION ? ['guild subscription'] : []),
  ];
  return names.join(', ');
}

const price = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** SKUs of the application (list and create) and test entitlements (grant and delete). */
export function monetizationPage(view: MonetizationView): string {
  const { app } = view;
  const base = sectionPath(app.id, 'monetization');
  const skuErrors = errorsOf(view, 'sku');
  const grantErrors = errorsOf(view, 'grant');
  const grantable = view.skus.filter((sku) => sku.type !== 6);
  const skuName = (id: string) => view.skus.find((sku) => sku.id === id)?.name ?? id;
  const skuRow = (sku: SkuRecord) =>
    cellsRow(
      sku.name,
      code(sku.id),
      SKU_TYPE_NAMES[sku.type] ?? String(sku.type),
      code(sku.slug),
      flagNames(sku.flags),
      price(sku.priceCents),
    );
  const entitlementRow = ({ entitlement, ownerName }: MonetizationView['testEntitlements'][number]) => {
    const owner = entitlement.guildId
      ? `guild ${entitlement.guildId}`
      : `${ownerName ?? '?'} (${entitlement.userId ?? '?'})`;
    const consumed = entitlement.consumed === null ? '—' : entitlement.consumed ? 'yes' : 'no';
    const fields = [csrfInput(view.csrfToken), hiddenInput('entitlement_id', entitlement.id)];
    const label = `Delete test entitlement ${entitlement.id} (${skuName(entitlement.skuId)} for ${owner})`;
    return html`<tr>${cells(code(entitlement.id), skuName(entitlement.skuId), owner, consumed)}
<td><form class="inline-form" method="post" action="${base}/test-entitlements/delete">${fields}
<button type="submit" class="secondary" aria-label="${label}">Delete</button></form></td></tr>`;
  };
  const slugField = textField({
    form: 'sku',
    name: 'slug',
    label: 'Slug (optional)',
    hint: 'a–z, 0–9 and hyphens; made from the name when empty.',
    errors: skuErrors,
  });
  const priceField = textField({
    form: 'sku',
    name: 'price_cents',
    label: 'Price in cents',
    value: '0',
    required: true,
    errors: skuErrors,
  });
  const skuField = () =>
    selectField({
      form: 'grant',
      name: 'sku_id',
      label: 'SKU',
      value: grantable[0]!.id,
      choices: grantable.map((sku) => [sku.id, `${sku.name} (${SKU_TYPE_NAMES[sku.type]})`]),
      errors: grantErrors,
    });
  const ownerField = textField({
    form: 'grant',
    name: 'owner',
    label: 'Owner',
    hint: 'A user id or username, or a guild id.',
    required: true,
    errors: grantErrors,
  });
  return applicationPage(
    view,
    'monetization',
    html`<section aria-labelledby="skus-heading"><h2 id="skus-heading">SKUs</h2>
${
  view.skus.length === 0
    ? html`<p>No SKUs yet.</p>`
    : html`<table><thead><tr>${columnHeads('Name', 'Id', 'Type', 'Slug', 'Flags', 'Price')}</tr></thead><tbody>
${view.skus.map(skuRow)}</tbody></table>`
}
<h3>New SKU</h3>
<p class="muted">A subscription is created with its subscription group (listed by <code>GET /applications/{id}/skus</code> as a second SKU).
Only available SKUs can be bought or used in premium buttons.</p>
${errorSummary('sku', skuErrors)}
<form method="post" action="${base}/skus">
${csrfInput(view.csrfToken)}
${textField({ form: 'sku', name: 'name', label: 'Name', required: true, errors: skuErrors })}
${selectField({
  form: 'sku',
  name: 'type',
  label: 'Type',
  value: '2',
  choices: [
    ['2', 'Durable (one-time)'],
    ['3', 'Consumable (one-time)'],
    ['5', 'Subscription'],
  ],
  errors: skuErrors,
})}
${slugField}
${selectField({
  form: 'sku',
  name: 'audience',
  label: 'Subscribers (subscriptions only)',
  value: 'user',
  choices: [
    ['user', 'Users'],
    ['guild', 'Guilds'],
  ],
  errors: skuErrors,
})}
${priceField}
<p><input type="checkbox" id="sku-available" name="available" checked><label class="inline" for="sku-available">Available for purchase</label></p>
<button type="submit">Create SKU</button>
</form></section>
<section aria-labelledby="entitlements-heading"><h2 id="entitlements-heading">Test entitlements</h2>
<p class="muted">A test entitlement gives a user or a guild a SKU without a purchase (no start or end date); the bot receives
ENTITLEMENT_CREATE, and ENTITLEMENT_DELETE when it is deleted here.</p>
${
  view.testEntitlements.length === 0
    ? html`<p>No test entitlements.</p>`
    : html`<table><thead><tr>${columnHeads('Entitlement', 'SKU', 'Owner', 'Consumed', 'Action')}</tr></thead><tbody>
${view.testEntitlements.map(entitlementRow)}</tbody></table>
<p class="muted">The ${view.testEntitlementLimit} newest are shown.</p>`
}
<h3>Grant a test entitlement</h3>
${errorSummary('grant', grantErrors)}
${
  grantable.length === 0
    ? html`<p>Create a SKU first.</p>`
    : html`<form method="post" action="${base}/test-entitlements">
${csrfInput(view.csrfToken)}
${skuField()}
${selectField({
  form: 'grant',
  name: 'owner_type',
  label: 'Owner type',
  value: 'user',
  choices: [
    ['user', 'User'],
    ['guild', 'Guild'],
  ],
  errors: grantErrors,
})}
${ownerField}
<button type="submit">Grant test entitlement</button>
</form>`
}
</section>`,
  );
}
