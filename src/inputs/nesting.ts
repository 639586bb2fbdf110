// A linear guard against deeply nested YAML/JSON, run before the parser (document-parser.ts).
import { lines } from './text.ts'

/**
 * Whether a YAML/JSON text's nesting may exceed `limit`: the parser recurses, and a megabyte of
 * `[[[[...` takes it seconds and gigabytes. It over-estimates a little (an exact check follows),
 * and what it misses the parser still stops (RESOURCE_EXHAUSTION).
 */
export function nestingMayExceed(text: string, limit: number): boolean {
  const indents: number[] = []
  let flow = 0
  let quote: '"' | "'" | undefined
  let blockScalarParent: number | undefined
  for (const line of lines(text)) {
    let p = 0
    let depth = indents.length
    if (quote === undefined && flow === 0) {
      while (line[p] === ' ') p++
      const rest = line.slice(p)
      if (rest.trim() === '' || rest.startsWith('#')) continue
      if (blockScalarParent !== undefined) {
        if (p > blockScalarParent) continue
        blockScalarParent = undefined
      }
      while (indents.length > 0 && (indents.at(-1) ?? 0) >= p) indents.pop()
      indents.push(p)
      depth = indents.length
      // Compact nested sequences on one line: `- - - x`.
      while (line[p] === '-' && (p + 1 === line.length || line[p + 1] === ' ')) {
        depth++
        p++
        while (line[p] === ' ') p++
      }
      if (depth > limit) return true
      if (/(^|[\s:-])[|>][-+0-9]*\s*(#.*)?$/.test(line)) {
        blockScalarParent = indents.at(-1)
      }
    }
    for (; p < line.length; p++) {
      const ch = line[p]
      if (quote === '"') {
        if (ch === '\\') p++
        else if (ch === '"') quote = undefined
        continue
      }
      if (quote === "'") {
        if (ch === "'") {
          if (line[p + 1] === "'") p++
          else quote = undefined
        }
        continue
      }
      const prev = p === 0 ? ' ' : line[p - 1]
      if (ch === '#' && (prev === ' ' || prev === '\t')) break
      if ((ch === '"' || ch === "'") && ' \t[{,:-?'.includes(prev ?? ' ')) {
        quote = ch
      } else if (ch === '[' || ch === '{') {
        flow++
        if (flow + depth > limit) return true
      } else if ((ch === ']' || ch === '}') && flow > 0) {
        flow--
      }
    }
  }
  return false
}
