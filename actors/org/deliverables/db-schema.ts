import type { ApiContract, DbSchema } from '../../../protocol/org/deliverables.ts';

type Column = DbSchema['tables'][number]['columns'][number];

/**
 * `database`'s rule: one table per resource of the contract (its first path segment), a uuid
 * primary key, the create endpoint's response fields as columns (`created_at` a timestamptz).
 */
export function dbSchemaFor(contract: ApiContract, engine: string): DbSchema {
  const tables = new Map<string, { columns: Column[]; endpoint_ids: string[] }>();
  for (const endpoint of contract.endpoints) {
    const name = endpoint.path.split('/')[1]!;
    let table = tables.get(name);
    if (!table) {
      const columns = Object.entries(endpoint.response_schema.properties).map(([column, schema]): Column => ({
        name: column,
        type:
          column === 'id' ? 'uuid' : (schema as { format?: string }).format === 'date-time' ? 'timestamptz' : 'text',
        nullable: !(endpoint.response_schema.required ?? []).includes(column),
        ...(column === 'id' ? { primary_key: true } : {}),
      }));
      tables.set(name, (table = { columns, endpoint_ids: [] }));
    }
    table.endpoint_ids.push(endpoint.id);
  }
  return { engine, tables: [...tables].map(([name, table]) => ({ name, ...table })) };
}
