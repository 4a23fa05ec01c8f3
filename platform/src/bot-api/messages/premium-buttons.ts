/**
 * Premium buttons (button style 6, PROTOCOL.md §17.5): no `custom_id`, `label`, `emoji` or `url`; a `sku_id` that
 * names an active SKU of the application posting the message.
 */
import type { ComponentProblem } from './schemas.js';
import { isSnowflake } from '../../ids/snowflake.js';

const BUTTON = 2;
const PREMIUM_STYLE = 6;

export function premiumButtonProblem(
  components: unknown[],
  isActiveSku: (skuId: string) => boolean,
  path: Array<string | number> = ['components'],
): ComponentProblem | null {
  for (const [index, component] of components.entries()) {
    if (!component || typeof component !== 'object') continue;
    const node = component as Record<string, unknown>;
    const at = [...path, index];
    if (node.type === BUTTON && node.style === PREMIUM_STYLE) {
      for (const field of ['custom_id', 'label', 'emoji', 'url'] as const) {
        if (node[field] !== undefined)
          return {
            path: [...at, field],
            code: 'BUTTON_COMPONENT_PREMIUM_INVALID_FIELD',
            message: `A premium button has no ${field}.`,
          };
      }
      if (typeof node.sku_id !== 'string' || !isSnowflake(node.sku_id))
        return { path: [...at, 'sku_id'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' };
      if (!isActiveSku(node.sku_id))
        return {
          path: [...at, 'sku_id'],
          code: 'BUTTON_COMPONENT_INVALID_SKU',
          message: 'The SKU is not an active SKU of this application.',
        };
    }
    for (const key of ['components', 'accessory'] as const) {
      const children = key === 'accessory' ? (node.accessory ? [node.accessory] : []) : node.components;
      if (Array.isArray(children)) {
        const problem = premiumButtonProblem(children, isActiveSku, [...at, key]);
        if (problem) return problem;
      }
    }
  }
  return null;
}
