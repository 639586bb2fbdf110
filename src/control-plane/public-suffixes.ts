// Whether a `*.domain` pattern of health-check-hosts stays inside one registrable domain, by the
// Public Suffix List as `tldts` ships it: `*.co.uk`, `*.github.io`, `*.run.app` (a rule below it)
// and `*.amazonaws.com` (`s3.amazonaws.com` below it) would vouch for hosts of many owners. The
// list (140 KB) is loaded only for such a pattern (loadPublicSuffixes, as parseInputs does).
// It reads the trie directly (labels right to left from `rulesRoot`, `*` edges, flags 0 where no
// rule ends): tldts answers for one host, a pattern asks whether any rule lies below its domain.
// An exception rule (`!city.kawasaki.jp`) is not read: a pattern under one is refused.
interface Trie {
  nodeFlags: Uint8Array
  edgeStart: Uint16Array
  edgeLength: Uint8Array
  edgeChild: Uint16Array
  labelText: string
  rulesRoot: number
}

let loaded: { trie: Trie; offsets: Uint32Array } | undefined

export async function loadPublicSuffixes(): Promise<void> {
  if (loaded) return
  // @ts-expect-error -- the package's types for this file are not beside it; Trie says its shape
  const trie = (await import('tldts/dist/cjs/src/data/trie.js')) as Trie
  // Each edge's label starts where the one before it ends, in `labelText`.
  const offsets = new Uint32Array(trie.edgeLength.length + 1)
  for (let e = 0; e < trie.edgeLength.length; e++)
    offsets[e + 1] = offsets[e]! + trie.edgeLength[e]!
  loaded = { trie, offsets }
}

function list(): NonNullable<typeof loaded> {
  if (!loaded) throw new Error('A *.domain pattern was checked before loadPublicSuffixes().')
  return loaded
}

/** The edge of `node` labelled `label`, or -1. */
function edgeOf(node: number, label: string): number {
  const { trie, offsets } = list()
  for (let e = trie.edgeStart[node]!; e < trie.edgeStart[node + 1]!; e++)
    if (trie.edgeLength[e] === label.length && trie.labelText.startsWith(label, offsets[e]))
      return e
  return -1
}

const hasRulesBelow = (node: number): boolean =>
  list().trie.edgeStart[node + 1]! > list().trie.edgeStart[node]!

/** Why `*.<domain>` (punycode, no trailing dot) would match names of many registrable domains. */
export function broaderThanOneDomain(domain: string): string | undefined {
  const { trie } = list()
  const labels = domain.split('.').reverse()
  let node = trie.rulesRoot
  for (const [i, label] of labels.entries()) {
    let edge = edgeOf(node, label)
    if (edge === -1) edge = edgeOf(node, '*')
    // Below every rule: the names under it share its registrable domain.
    if (edge === -1) return undefined
    node = trie.edgeChild[edge]!
    if (i < labels.length - 1) continue
    if (trie.nodeFlags[node] !== 0) return `${domain} is a public suffix`
    if (hasRulesBelow(node)) return `names below ${domain} are public suffixes`
  }
  return undefined
}
