// A typed client of the Deployment Control Plane: one method per operation of the interface.
// Every answer is checked against the schema, so a service that changes shape fails here with a
// readable message instead of as `undefined` somewhere in the deploy flow.
import type { z } from 'zod'
import { UnexpectedResponseError, type Operation, type RequestContext } from './errors.ts'
import { DEFAULT_RETRY, Transport, type RetryPolicy, type TransportOptions } from './http.ts'
import { baseUrlProblem } from './base-url.ts'
import { Redactor } from './redact.ts'
import {
  CreateDeploymentRequest,
  Deployment,
  DeploymentList,
  PatchDeploymentRequest,
  RepositoryList,
  Revision,
  ListDeploymentsQuery,
  type RepositoryEntry
} from './schema.ts'
import { VERSION } from '../version.ts'

/** Reads of one GET whose answer does not fit, the first included. */
const READ_ATTEMPTS = 5

export const USER_AGENT = `control-plane-deploy/${VERSION}`

export interface ClientOptions {
  baseUrl: string
  apiKey: string
  tenantId?: string | undefined
  /** Per request; default 30 s. */
  requestTimeoutMs?: number
  /** Epoch ms: no request starts after it, and retries stop short of it. */
  deadline?: number
  signal?: AbortSignal
  retry?: Partial<RetryPolicy>
  /** Answers larger than this are cut off; default 32 MiB. */
  maxBodyBytes?: number
  /** Values that must never appear in a message or log line; the API key is always one. */
  secrets?: Iterable<string>
  debug?: (line: string) => void
  /** For tests: a deterministic clock, sleep and jitter. */
  sleep?: TransportOptions['sleep']
  random?: () => number
  now?: () => number
}

export interface CallOptions {
  /** Epoch ms: this call and its retries end by then (the wait's deadline, say). */
  deadline?: number
}

/** Check a request body before it leaves: a bad body is our bug, and better caught here. */
function checked<T extends z.ZodType>(schema: T, value: z.input<T>): z.output<T> {
  return schema.parse(value)
}

export class ControlPlaneClient {
  readonly #transport: Transport
  readonly redactor: Redactor
  /** How long one request may take before it is abandoned. */
  readonly requestTimeoutMs: number

  constructor(opts: ClientOptions) {
    const problem = baseUrlProblem(opts.baseUrl)
    if (problem) throw new Error(`Refusing base URL: ${problem}.`)
    this.redactor = new Redactor([opts.apiKey, ...(opts.secrets ?? [])])
    const headers: Record<string, string> = {
      'X-Api-Key': opts.apiKey,
      Accept: 'application/json',
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT
    }
    if (opts.tenantId) headers['X-Tenant-Id'] = opts.tenantId
    this.requestTimeoutMs = opts.requestTimeoutMs ?? 30_000
    this.#transport = new Transport({
      baseUrl: opts.baseUrl,
      headers,
      requestTimeoutMs: this.requestTimeoutMs,
      deadline: opts.deadline,
      signal: opts.signal,
      retry: { ...DEFAULT_RETRY, ...opts.retry },
      maxBodyBytes: opts.maxBodyBytes ?? 32 * 1024 * 1024,
      redactor: this.redactor,
      debug: opts.debug,
      sleep: opts.sleep,
      random: opts.random,
      now: opts.now
    })
  }

  /** Requests sent so far, retries included. */
  get requestCount(): number {
    return this.#transport.requestCount
  }

  /** One page of `GET /v2/deployments`. */
  async listDeployments(query: ListDeploymentsQuery = {}): Promise<DeploymentList> {
    return this.#call('list deployments', 'GET', '/v2/deployments', DeploymentList, {
      query: checked(ListDeploymentsQuery, query)
    })
  }

  /** Every deployment matching the query, page after page; stops on a short page. */
  async *iterateDeployments(
    query: Omit<ListDeploymentsQuery, 'offset'> = {},
    pageSize = 100
  ): AsyncGenerator<Deployment> {
    let offset = 0
    for (;;) {
      const page = await this.listDeployments({ ...query, limit: pageSize, offset })
      yield* page.resources
      if (page.resources.length < pageSize) return
      // A service that does not advance the offset would loop for ever: step past the page.
      offset = page.offset > offset ? page.offset : offset + page.resources.length
    }
  }

  async createDeployment(body: z.input<typeof CreateDeploymentRequest>): Promise<Deployment> {
    const payload = checked(CreateDeploymentRequest, body)
    return this.#call('create deployment', 'POST', '/v2/deployments', Deployment, { body: payload })
  }

  async getDeployment(deploymentId: string, call: CallOptions = {}): Promise<Deployment> {
    const path = `/v2/deployments/${seg(deploymentId)}`
    return this.#call('get deployment', 'GET', path, Deployment, call)
  }

  async patchDeployment(
    deploymentId: string,
    body: z.input<typeof PatchDeploymentRequest>
  ): Promise<Deployment> {
    const payload = checked(PatchDeploymentRequest, body)
    return this.#call(
      'patch deployment',
      'PATCH',
      `/v2/deployments/${seg(deploymentId)}`,
      Deployment,
      {
        body: payload
      }
    )
  }

  async getRevision(
    deploymentId: string,
    revisionId: string,
    call: CallOptions = {}
  ): Promise<Revision> {
    const path = `/v2/deployments/${seg(deploymentId)}/revisions/${seg(revisionId)}`
    return this.#call('get revision', 'GET', path, Revision, call)
  }

  async deleteListener(listenerId: string): Promise<void> {
    await this.#transport.send({
      operation: 'delete listener',
      method: 'DELETE',
      path: `/v2/listeners/${seg(listenerId)}`
    })
  }

  async listRepositories(integrationId: string): Promise<RepositoryEntry[]> {
    const path = `/v1/integrations/forge/codehost/${seg(integrationId)}/repos`
    return this.#call('list repositories', 'GET', path, RepositoryList)
  }

  /**
   * Waits before the caller tries again: `ms`, or the retry policy's jittered backoff of
   * `attempt`. False (at once) when that would end past the client's deadline, or when cancelled.
   */
  pause(attempt: number, ms?: number): Promise<boolean> {
    return this.#transport.pause(attempt, ms)
  }

  close(): void {
    this.#transport.close()
  }

  async #call<T extends z.ZodType>(
    operation: Operation,
    method: string,
    path: string,
    schema: T,
    extra: CallOptions & { query?: ListDeploymentsQuery; body?: unknown } = {}
  ): Promise<z.output<T>> {
    const spec = { operation, method, path, ...extra }
    for (let attempt = 1; ; attempt++) {
      try {
        const { status, json } = await this.#transport.send(spec)
        return this.#parse(spec, status, json, schema)
      } catch (err) {
        // A 2xx that is not JSON, or not the interface's shape, comes from a proxy's page or a
        // service in the middle of its own deploy as often as from a service that changed for
        // good. A read is safe to repeat; a service that really changed fails the same way each
        // time. Writes are reconciled by their callers instead (deploy/apply.ts).
        const misfit = err instanceof UnexpectedResponseError && method === 'GET'
        if (!misfit || attempt >= READ_ATTEMPTS || !(await this.#transport.pause(attempt)))
          throw err
      }
    }
  }

  #parse<T extends z.ZodType>(
    spec: RequestContext,
    status: number,
    json: unknown,
    schema: T
  ): z.output<T> {
    const parsed = schema.safeParse(json)
    if (parsed.success) return parsed.data
    const issue = parsed.error.issues[0]
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : ''
    const problem = issue ? `${where}${issue.message.toLowerCase()}` : 'does not fit the interface'
    throw new UnexpectedResponseError(spec, status, this.redactor.redact(problem))
  }
}

/** Ids go into paths as one segment, whatever they contain. */
function seg(id: string): string {
  return encodeURIComponent(id)
}
