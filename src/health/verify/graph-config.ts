// The graph ids a deploy should serve: the keys of the workspace config's `graphs`. Unreadable
// there, the graphs are not checked: never a failure, the reason is said once.
import { readFile } from 'node:fs/promises'

export type GraphIds = { graphs: string[] } | { unreadable: string }

/** The `graphs` keys of a config's text. */
export function graphIdsOf(text: string, where: string): GraphIds {
  let config: unknown
  try {
    config = JSON.parse(text)
  } catch {
    return { unreadable: `${where} is not JSON` }
  }
  const graphs = (config as { graphs?: unknown } | null)?.graphs
  if (typeof graphs !== 'object' || graphs === null || Array.isArray(graphs))
    return { unreadable: `${where} has no "graphs" object` }
  const ids = Object.keys(graphs)
  return ids.length > 0 ? { graphs: ids } : { unreadable: `${where} names no graph` }
}

/** Reads the config at `path` (the workspace's graph-config-path) and returns its graph ids. */
export async function readGraphIds(path: string, shownAs: string = path): Promise<GraphIds> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as { code?: string }).code
    return { unreadable: `${shownAs} is not readable in the workspace${code ? ` (${code})` : ''}` }
  }
  return graphIdsOf(text, shownAs)
}
