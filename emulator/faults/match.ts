// Which requests a fault hits: method, path glob, how many times, how many to let through first.
import { z } from 'zod'

/** The matching fields of every fault spec; a kind may change the method and path defaults. */
export function matchFields(defaults: { method?: string; path?: string } = {}) {
  return {
    /** HTTP method, or `*` for any. */
    method: z.string().default(defaults.method ?? '*'),
    /** Path relative to the base path; exact, or a glob: `*` = one segment part, `**` = anything. */
    path: z.string().default(defaults.path ?? '**'),
    /** Apply this many times, then remove it; omitted = persistent. */
    times: z.number().int().positive().optional(),
    /** Let this many matching requests through untouched first. */
    skip: z.number().int().nonnegative().default(0)
  }
}

export interface Matcher {
  method: string
  path: string
}

export function pathMatches(pattern: string, path: string): boolean {
  if (!pattern.includes('*')) return pattern === path
  const re = pattern
    .split(/(\*\*|\*)/)
    .map(part =>
      part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    )
    .join('')
  return new RegExp(`^${re}$`).test(path)
}

export function matches(m: Matcher, method: string, path: string): boolean {
  if (m.method !== '*' && m.method.toUpperCase() !== method.toUpperCase()) return false
  return pathMatches(m.path, path)
}
