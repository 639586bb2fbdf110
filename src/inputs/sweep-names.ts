// The `sweep-names` input: a pattern of deployment names, matched whole, where `*` is a run of one
// name character or more (lowercase letters, digits, hyphens) and `{pr}` a pull (merge) request
// number; it holds one of the two, so that it never names one deployment alone. `*` is never
// empty: `my-agent*` must not take production's `my-agent`. A listed name with any other
// character is never matched: the sweep neither deletes it nor puts it in its output. Checked
// once here and matched by the sweep (src/commands/sweep/).
import type { Check } from './problems.ts'

/** A checked `sweep-names` pattern. */
export interface NamePattern {
  /** As the user wrote it. */
  text: string
  /** Has `{pr}`: the closed criterion can read each name's pull request. */
  hasPr: boolean
  /** The longest run of plain characters: every matching name contains it. */
  literal: string
}

const PR = '{pr}'
/** Characters of a deployment name, and the two wildcards. */
const ALLOWED = /^(?:[a-z0-9-]|\*|\{pr\})+$/

export const parseSweepNames: Check<NamePattern> = (v, fail) => {
  const input = '`sweep-names`'
  if (v === '') return undefined
  if (!ALLOWED.test(v)) {
    return fail(
      `${input} must be lowercase letters, digits and hyphens, with \`*\` (one character or more) and \`{pr}\` (a pull request number), like \`my-agent-pr-{pr}\``
    )
  }
  if (v.split(PR).length > 2) return fail(`${input} may hold \`{pr}\` once`)
  if (!v.includes(PR) && !v.includes('*'))
    return fail(
      `${input} must hold \`{pr}\` or \`*\`, like \`${v}-pr-{pr}\`: \`${v}\` names one deployment alone, which may be production`
    )
  const literal = longestLiteral(v)
  // A pattern of wildcards alone would match every deployment of the workspace, production too.
  if (!/[a-z]/.test(literal) || literal.length < 2) {
    return fail(
      `${input} must name a part of the deployments it matches (at least two plain characters in a row, one a letter): \`${v}\` would match deployments that are not previews`
    )
  }
  return { text: v, hasPr: v.includes(PR), literal }
}

function longestLiteral(pattern: string): string {
  return pattern
    .split(/\*|\{pr\}/)
    .reduce((best, part) => (part.length > best.length ? part : best), '')
}

/** The pattern as a regular expression of the whole name; `{pr}` is its one group. */
function regexOf(pattern: NamePattern): RegExp {
  const source = pattern.text
    .split(/(\*|\{pr\})/)
    .map(part => (part === '*' ? '[a-z0-9-]+' : part === PR ? '([1-9][0-9]{0,14})' : escape(part)))
    .join('')
  return new RegExp(`^${source}$`)
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')
}

/** Whether `name` matches the whole pattern, and its pull request number with `{pr}`. */
export function matchName(pattern: NamePattern, name: string): { pr?: number } | undefined {
  const m = regexOf(pattern).exec(name)
  if (!m) return undefined
  return m[1] === undefined ? {} : { pr: Number(m[1]) }
}
