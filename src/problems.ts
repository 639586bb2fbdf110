import type { InputProblem } from './options.ts'

/** All bad inputs in one message: the first line counts them, then one line each. */
export function renderProblems(problems: InputProblem[]): string {
  const head =
    problems.length === 1 ? 'One input is not valid:' : `${problems.length} inputs are not valid:`
  return [head, ...problems.map(p => `- ${p.input}: ${p.message}`)].join('\n')
}
