import type { InventoryError } from './inventory-error.ts';
import { fieldPath, inventoryErrorFrom } from './inventory-error.ts';
import type { Inventory, PluginData } from './inventory-schema.ts';
import { inventoryDataSchema, pluginDataSchema } from './inventory-schema.ts';

export interface ParsedInventory {
  inventory: Inventory;
  pluginData: PluginData;
  /** Problems that cost some fields but not the whole result (BMO logs these and carries on). */
  warnings: string[];
}

export type ParsedInventoryResult = { ok: true; value: ParsedInventory } | { ok: false; error: InventoryError };

/**
 * Reads the raw JSON of `GET /v1/nodes/{id}/inventory`. A bad inventory is an error naming
 * the field; bad plugin data only drops PXE and LLDP details, as in BMO.
 */
export function parseInventory(raw: unknown): ParsedInventoryResult {
  const data = inventoryDataSchema.safeParse(raw);
  if (!data.success) return { ok: false, error: inventoryErrorFrom(data.error) };
  const plugin = pluginDataSchema.safeParse(data.data.plugin_data);
  if (plugin.success) return { ok: true, value: { inventory: data.data.inventory, pluginData: plugin.data, warnings: [] } };
  const issue = plugin.error.issues[0];
  const where = issue === undefined ? 'plugin_data' : `plugin_data.${fieldPath(issue.path)}`;
  return {
    ok: true,
    value: {
      inventory: data.data.inventory,
      pluginData: { all_interfaces: {}, parsed_lldp: {} },
      warnings: [`cannot read ${where} (${issue?.message ?? 'unreadable'}); PXE and LLDP details are unavailable`],
    },
  };
}
