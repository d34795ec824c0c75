/**
 * PostgreSQL's account of a statement the stores run (prepared-sql.ts texts: backticks and `?`),
 * for the suites that check what a query costs: the plan, and the rows it read.
 */
import type { Knex } from 'knex';
import { postgresText } from '../../src/storage/prepared-sql.js';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** The plan's nodes, depth first; `analyze` runs the statement to count the rows each node read. */
export async function postgresPlan(
  db: Knex | Knex.Transaction,
  sql: string,
  values: readonly unknown[],
  analyze = false,
): Promise<PlanNode[]> {
  // Knex would read the text's `$1` as its own placeholders: the statement goes to the driver's client as is.
  const text = `EXPLAIN (${analyze ? 'ANALYZE, ' : ''}FORMAT JSON) ${postgresText(sql)}`;
  const connection = (await db.client.acquireConnection()) as {
    query(text: string, values: readonly unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  };
  try {
    const { rows } = await connection.query(text, values);
    // JSON comes back as its text (postgres-knex.ts, as on the other dialects).
    const plan = (JSON.parse(String(rows[0]!['QUERY PLAN'])) as Array<{ Plan: PlanNode }>)[0]!.Plan;
    return nodesOf(plan);
  } finally {
    await db.client.releaseConnection(connection);
  }
}

/** Rows the scans of an analysed plan read: those they returned and those their filters dropped. */
export function rowsRead(nodes: readonly PlanNode[]): number {
  return nodes
    .filter((node) => /Scan/.test(node['Node Type']))
    .reduce(
      (sum, node) =>
        sum +
        ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) *
          (node['Actual Loops'] ?? 1),
      0,
    );
}
