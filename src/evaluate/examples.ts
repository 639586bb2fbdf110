// The examples an evaluation runs: a LangSmith dataset's, or a local JSON Lines file's, one
// `{"id"?, "inputs": {...}, "outputs"?: {...}}` per line (`id` defaults to the line number).

export interface Example {
  id: string
  inputs: Record<string, unknown>
  /** The reference outputs that `reference: <path>` reads. */
  outputs?: Record<string, unknown>
}

/** At most this many examples in one evaluation. */
export const MAX_EXAMPLES = 1000

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** One line's example, or what is wrong with it. */
function exampleOf(line: string, n: number): Example | string {
  let v: unknown
  try {
    v = JSON.parse(line)
  } catch {
    return 'is not JSON'
  }
  if (!isObject(v)) return 'must be an object {"id"?, "inputs": {...}, "outputs"?: {...}}'
  const extra = Object.keys(v).filter(k => !['id', 'inputs', 'outputs'].includes(k))
  if (extra.length > 0) return `has a key that is none of id, inputs, outputs`
  if (!isObject(v.inputs)) return '`inputs` must be an object (the run\u2019s input)'
  if (v.outputs !== undefined && !isObject(v.outputs)) return '`outputs` must be an object'
  if (
    v.id !== undefined &&
    !(typeof v.id === 'string' && v.id.trim() !== '') &&
    typeof v.id !== 'number'
  )
    return '`id` must be a non-empty text or a number'
  return {
    id: v.id === undefined ? String(n) : String(v.id),
    inputs: v.inputs,
    ...(v.outputs === undefined ? {} : { outputs: v.outputs })
  }
}

/** The examples of a JSON Lines text, or every problem (each with its line). */
export function parseExamples(
  text: string,
  file: string,
  evaluators: readonly { reference?: string | undefined; key: string }[]
): { examples: Example[] } | { problems: string[] } {
  const problems: string[] = []
  const examples: Example[] = []
  const ids = new Map<string, number>()
  const referencing = evaluators.filter(e => e.reference !== undefined).map(e => e.key)
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return
    const at = `examples (${file}), line ${i + 1}`
    const e = exampleOf(line, i + 1)
    if (typeof e === 'string') return void problems.push(`${at} ${e}`)
    const first = ids.get(e.id)
    if (first !== undefined)
      return void problems.push(`${at} has the id "${e.id}" of line ${first}`)
    ids.set(e.id, i + 1)
    if (referencing.length > 0 && e.outputs === undefined)
      problems.push(`${at} has no \`outputs\`, which ${referencing.join(', ')} read (reference)`)
    examples.push(e)
  })
  if (problems.length === 0 && examples.length === 0)
    problems.push(`examples (${file}) holds no example`)
  if (examples.length > MAX_EXAMPLES)
    problems.push(`examples (${file}) has ${examples.length} examples: at most ${MAX_EXAMPLES}`)
  return problems.length > 0 ? { problems } : { examples }
}
