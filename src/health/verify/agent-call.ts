// What the checks of the new revision need to talk to its agent server: one request, sent by the
// caller (who decides the URL and the key). A request without an answer rejects; they say so.

export interface AgentRequest {
  method: 'GET' | 'POST'
  /** `/info`, `/assistants/search`, `/runs/wait`: appended to the agent server's URL. */
  path: string
  /** Sent as JSON. */
  body?: unknown
  /** Aborted when the check is cancelled or a case's timeout passes. */
  signal: AbortSignal
}

export interface AgentAnswer {
  status: number
  /** The body as text (the transport may cut a long one short). */
  body: string
}

/** Sends one request to the agent server; rejects when no answer comes (or `signal` aborts). */
export type AgentCall = (req: AgentRequest) => Promise<AgentAnswer>

/** The body as JSON, or undefined when it is not JSON. */
export function jsonOf(body: string): unknown {
  try {
    return JSON.parse(body) as unknown
  } catch {
    return undefined
  }
}

/** A reason for a request that got no answer, in words for the log (the caller redacts it). */
export function noAnswer(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return `no answer (${text.split('\n')[0]!.slice(0, 120)})`
}

/** The longest one request of the served-revision or graphs check may take. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000

/** `signal`, also aborted after `ms` of real time: one request never outlasts its bound. */
export const bounded = (signal: AbortSignal, ms: number): AbortSignal =>
  AbortSignal.any([signal, AbortSignal.timeout(Math.max(1, ms))])

export const isAuthStatus = (status: number): boolean => status === 401 || status === 403
