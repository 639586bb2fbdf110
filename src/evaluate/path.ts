// A path into a run's output or an example's outputs: `messages[-1].content`, `a.b[0]`, `[0]`.
// A negative index counts from the end (the last message is `[-1]`).

export type Step = { key: string } | { index: number }

/** Keys are any text but `.`, `[` and `]`; indexes are integers, negative from the end. */
const PATH = /^(?:[^.[\]]+|\[-?\d+\])(?:\.[^.[\]]+|\[-?\d+\])*$/

/** The steps of a path, or undefined when it is not one. */
export function parsePath(text: string): Step[] | undefined {
  if (!PATH.test(text)) return undefined
  return [...text.matchAll(/([^.[\]]+)|\[(-?\d+)\]/g)].map(([, key, index]) =>
    index !== undefined ? { index: Number(index) } : { key: key! }
  )
}

/** The value at `steps` in `root`, or undefined when the path leads nowhere. */
export function valueAtPath(root: unknown, steps: readonly Step[]): { value: unknown } | undefined {
  let v: unknown = root
  for (const step of steps) {
    if ('index' in step) {
      if (!Array.isArray(v)) return undefined
      const i = step.index < 0 ? v.length + step.index : step.index
      if (i < 0 || i >= v.length) return undefined
      v = v[i]
    } else {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined
      if (!Object.hasOwn(v, step.key)) return undefined
      v = (v as Record<string, unknown>)[step.key]
    }
  }
  return { value: v }
}
