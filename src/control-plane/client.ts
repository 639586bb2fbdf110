// A typed client of the Deployment Control Plane: one method per operation of the interface and
// of production beyond it (docs/control-plane.md). Every answer is checked against the schema, so
// a service that changes shape fails here in words, not as `undefined` in the flow. Callers speak
// interface vocabulary: dialect.ts translates at the wire, here and nowhere else.
import type { z } from 'zod'
import {
  ApiError,
  OtherResourceError,
  UnexpectedResponseError,
  type Operation,
  type RequestContext
} from './errors.ts'
import { DEFAULT_RETRY, Transport, type RequestSpec } from './http.ts'
import {
  MAX_LOG_MESSAGE_CHARS,
  type CallOptions,
  type ClientOptions,
  type DeleteOutcome,
  type RevisionLogsOptions,
  type Verify
} from './client-options.ts'
import { baseUrlProblem } from './base-url.ts'
import { pathToWire, requestToWire, responseFromWire, type Dialect } from './dialect.ts'
import { readAllPages } from './paging.ts'
import { Redactor } from './redact.ts'
import { capText } from '../inert.ts'
import { deploymentsQueryProblem, MAX_PAGE_SIZE } from './vocabulary.ts'
import { loadSchema, type Model } from './load-schema.ts'
import type {
  CreateDeploymentRequest,
  Deployment,
  DeploymentList,
  ListDeploymentsQuery,
  PatchDeploymentRequest,
  ResourceTiersRequest,
  RepositoryEntry,
  Revision,
  RevisionLogPage,
  SkippedEntry,
  UploadUrl
} from './schema.ts'
import { VERSION } from '../version.ts'

/** Reads of one GET whose answer does not fit, the first included. */
const READ_ATTEMPTS = 5

export const USER_AGENT = `control-plane-deploy/${VERSION}`

/** A schema of the model by its name: the model is loaded when it is first needed (load-schema.ts). */
type SchemaName = { [K in keyof Model]: Model[K] extends z.ZodType ? K : never }[keyof Model]
type Out<K extends SchemaName> = z.output<Model[K]>

interface CallExtra<T> extends CallOptions {
  query?: RequestSpec['query']
  body?: unknown
  /** A read sent by POST (the v1 log form): retried like a GET. */
  idempotent?: boolean
  verify?: Verify<T>
}

/** Check a request body before it leaves: a bad body is our bug, and better caught here. */
export async function checked<K extends SchemaName>(
  name: K,
  value: z.input<Model[K]>
): Promise<Out<K>> {
  return schemaOf(await loadSchema(), name).parse(value) as Out<K>
}

function schemaOf(model: Model, name: SchemaName): z.ZodType {
  return model[name]
}

export class ControlPlaneClient {
  readonly #transport: Transport
  readonly redactor: Redactor
  /** How long one request may take before it is abandoned. */
  readonly requestTimeoutMs: number
  readonly dialect: Dialect
  /** The run's deadline (the clock's ms): what is sent besides, an upload, ends by it too. */
  readonly deadline: number | undefined
  readonly #mask: ((value: string) => void) | undefined
  readonly #debug: ((line: string) => void) | undefined

  constructor(opts: ClientOptions) {
    const problem = baseUrlProblem(opts.baseUrl)
    if (problem) throw new Error(`Refusing base URL: ${problem}.`)
    this.redactor = opts.redactor ?? new Redactor()
    for (const value of [opts.apiKey, ...(opts.secrets ?? [])]) this.redactor.add(value)
    this.#mask = opts.mask
    this.#debug = opts.debug
    const headers: Record<string, string> = {
      'X-Api-Key': opts.apiKey,
      Accept: 'application/json',
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT
    }
    if (opts.tenantId) headers['X-Tenant-Id'] = opts.tenantId
    this.requestTimeoutMs = opts.requestTimeoutMs ?? 30_000
    this.dialect = opts.dialect ?? 'interface'
    this.deadline = opts.deadline
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
      onRateLimited: opts.onRateLimited,
      say: opts.say,
      clock: opts.clock,
      random: opts.random
    })
  }

  /** Requests sent so far, retries included. */
  get requestCount(): number {
    return this.#transport.requestCount
  }

  /** One page of `GET /v2/deployments`; an entry that does not parse is skipped (a debug line). */
  async listDeployments(query: ListDeploymentsQuery = {}): Promise<DeploymentList> {
    const page = await this.call('list deployments', 'GET', '/v2/deployments', 'DeploymentList', {
      query: await checked('ListDeploymentsQuery', query)
    })
    this.#saySkipped(page)
    return page
  }

  /** Every deployment matching the query, once each (paging.ts); skipped entries to `onSkipped`. */
  async *iterateDeployments(
    query: Omit<ListDeploymentsQuery, 'offset' | 'limit'> = {},
    pageSize = MAX_PAGE_SIZE,
    onSkipped?: (entry: SkippedEntry) => void
  ): AsyncGenerator<Deployment> {
    // Checked without zod (vocabulary.ts): the first page, often the run's first request, need not
    // wait for the model to load.
    const page = async (offset: number) => {
      const q = { limit: pageSize, offset, ...query }
      const problem = deploymentsQueryProblem(q)
      if (problem)
        throw new TypeError(`list deployments: a query the interface refuses: ${problem}`)
      const list = await this.call('list deployments', 'GET', '/v2/deployments', 'DeploymentList', {
        query: q
      })
      this.#saySkipped(list)
      for (const entry of list.skipped) onSkipped?.(entry)
      return list
    }
    yield* readAllPages(
      page,
      pageSize,
      { operation: 'list deployments', method: 'GET', path: '/v2/deployments' },
      'deployment'
    )
  }

  async createDeployment(body: z.input<typeof CreateDeploymentRequest>): Promise<Deployment> {
    const payload = await checked('CreateDeploymentRequest', body)
    return this.call('create deployment', 'POST', '/v2/deployments', 'Deployment', {
      body: payload
    })
  }

  async getDeployment(deploymentId: string, call: CallOptions = {}): Promise<Deployment> {
    const path = `/v2/deployments/${seg(deploymentId)}`
    return this.call('get deployment', 'GET', path, 'Deployment', {
      ...call,
      verify: aboutDeployment(deploymentId)
    })
  }

  async patchDeployment(
    deploymentId: string,
    body: z.input<typeof PatchDeploymentRequest>
  ): Promise<Deployment> {
    const payload = await checked('PatchDeploymentRequest', body)
    return this.call(
      'patch deployment',
      'PATCH',
      `/v2/deployments/${seg(deploymentId)}`,
      'Deployment',
      { body: payload, verify: aboutDeployment(deploymentId) }
    )
  }

  /** `PATCH .../resource-tiers`: a new size, as a new revision; answers the deployment. */
  async setResourceTiers(
    deploymentId: string,
    body: z.input<typeof ResourceTiersRequest>
  ): Promise<Deployment> {
    const payload = await checked('ResourceTiersRequest', body)
    const path = `/v2/deployments/${seg(deploymentId)}/resource-tiers`
    return this.call('resize deployment', 'PATCH', path, 'Deployment', {
      body: payload,
      verify: aboutDeployment(deploymentId)
    })
  }

  async getRevision(
    deploymentId: string,
    revisionId: string,
    call: CallOptions = {}
  ): Promise<Revision> {
    const path = `/v2/deployments/${seg(deploymentId)}/revisions/${seg(revisionId)}`
    // An answer about another revision is malformed: its status would be reported as this one's.
    const verify: Verify<Revision> = r =>
      sameId(r.id, revisionId) ? undefined : otherId('revision', r.id, revisionId)
    return this.call('get revision', 'GET', path, 'Revision', { ...call, verify })
  }

  /** Redeploys a revision's configuration; answers the deployment (usually with a new revision). */
  async redeployRevision(deploymentId: string, revisionId: string): Promise<Deployment> {
    const path = `/v2/deployments/${seg(deploymentId)}/revisions/${seg(revisionId)}/redeploy`
    return this.call('redeploy revision', 'POST', path, 'Deployment', {
      verify: aboutDeployment(deploymentId)
    })
  }

  /** Deletes a deployment (its tracing project too when asked: that frees the name); idempotent. */
  async deleteDeployment(
    deploymentId: string,
    opts: { deleteTracingProject?: boolean } = {},
    call: CallOptions = {}
  ): Promise<DeleteOutcome> {
    try {
      await this.send({
        operation: 'delete deployment',
        method: 'DELETE',
        path: `/v2/deployments/${seg(deploymentId)}`,
        // Only when asked: the parameter's default is false, and an absent one is the same.
        query: opts.deleteTracingProject ? { delete_tracing_project: true } : undefined,
        deadline: call.deadline
      })
      return 'deleted'
    } catch (err) {
      if (err instanceof ApiError && err.status === 404)
        return err.afterUnknownOutcome ? 'deleted' : 'not-found'
      throw err
    }
  }

  /**
   * One page of a revision's build or deploy log; after a 404, once in the older v1 form (its own
   * 404 throws the v2 error). Messages redacted and cut, not sanitized: the caller does that.
   */
  async getRevisionLogs(
    deploymentId: string,
    revisionId: string,
    opts: RevisionLogsOptions,
    call: CallOptions = {}
  ): Promise<RevisionLogPage> {
    const query = await checked('RevisionLogsQuery', opts)
    const revision = `${seg(deploymentId)}/revisions/${seg(revisionId)}`
    let page: RevisionLogPage
    try {
      page = await this.call(
        'get revision logs',
        'GET',
        `/v2/deployments/${revision}/logs`,
        'RevisionLogPage',
        { ...call, query }
      )
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err
      const { order, limit, offset, start_time } = query
      try {
        page = await this.call(
          'get revision logs',
          'POST',
          `/v1/projects/${revision}/${query.type}_logs`,
          'RevisionLogPage',
          { ...call, body: { order, limit, offset, start_time }, idempotent: true }
        )
      } catch (v1) {
        throw v1 instanceof ApiError && v1.status === 404 ? err : v1
      }
    }
    // Redacted before it is cut: a cut through a secret would hide it from the redactor.
    const logs = page.logs.map(line => ({
      ...line,
      message: capText(this.redactor.redact(line.message), MAX_LOG_MESSAGE_CHARS)
    }))
    return { logs, next_offset: page.next_offset }
  }

  /**
   * `POST .../upload-url`: where to PUT an archive (upload/put.ts) and the `object_path` a PATCH
   * names. Safe to repeat: each call gives a fresh slot, and one never PUT to is named by nothing.
   */
  async requestUploadUrl(deploymentId: string, call: CallOptions = {}): Promise<UploadUrl> {
    const path = `/v2/deployments/${seg(deploymentId)}/upload-url`
    return this.call('request upload url', 'POST', path, 'UploadUrl', { ...call, idempotent: true })
  }

  async listRepositories(integrationId: string): Promise<RepositoryEntry[]> {
    const path = `/v1/integrations/forge/codehost/${seg(integrationId)}/repos`
    return this.call('list repositories', 'GET', path, 'RepositoryList')
  }

  /** The transport's pause before the caller tries again (Transport.pause). */
  pause(attempt: number, ms?: number): Promise<boolean> {
    return this.#transport.pause(attempt, ms)
  }

  close(): void {
    this.#transport.close()
  }

  #saySkipped(list: DeploymentList): void {
    for (const e of list.skipped) {
      const named = e.name === undefined ? '' : ` ("${e.name}")`
      this.#debug?.(
        this.redactor.redact(
          `list deployments: entry ${e.index + 1} of the page, deployment ${e.id}${named}, skipped: ${e.problem}`
        )
      )
    }
  }

  /** The secret values an answer carries, parsed or not, masked before anything reads on. */
  #maskSecrets(json: unknown): void {
    const entries = (json as { resources?: unknown } | null)?.resources
    for (const d of Array.isArray(entries) ? entries : [json]) {
      const secrets = (d as { secrets?: unknown } | null)?.secrets
      if (!Array.isArray(secrets)) continue
      for (const secret of secrets) {
        const value = (secret as { value?: unknown } | null)?.value
        if (typeof value !== 'string') continue
        for (const added of this.redactor.learn(value)) this.#mask?.(added)
      }
    }
  }

  /** Sends a request in the client's dialect: the path and the body translated to the wire. */
  protected send(spec: RequestSpec): Promise<{ status: number; json: unknown }> {
    return this.#transport.send(this.#wire(spec))
  }

  #wire(spec: RequestSpec): RequestSpec {
    const body = spec.body === undefined ? undefined : requestToWire(this.dialect, spec.body)
    return { ...spec, path: pathToWire(this.dialect, spec.path), body }
  }

  /** One operation: sent in the client's dialect, retried when safe, its answer checked by the model. */
  protected async call<K extends SchemaName>(
    operation: Operation,
    method: string,
    path: string,
    schema: K,
    extra: CallExtra<Out<K>> = {}
  ): Promise<Out<K>> {
    const { verify, ...rest } = extra
    const spec = this.#wire({ operation, method, path, ...rest })
    const safe = extra.idempotent ?? method === 'GET'
    for (let attempt = 1; ; attempt++) {
      try {
        const { status, json } = await this.#transport.send(spec)
        this.#maskSecrets(json)
        const model = await loadSchema()
        const wire = responseFromWire(this.dialect, json)
        const value = this.#parse(spec, status, wire, schemaOf(model, schema)) as Out<K>
        const problem = verify?.(value)
        if (problem) throw new OtherResourceError(spec, status, this.redactor.redact(problem))
        return value
      } catch (err) {
        // A 2xx of another shape comes from a proxy's page or a service mid-deploy as often as
        // from a changed service, which fails the same way each time: a read is asked again.
        // Writes are reconciled by their callers (commands/deploy/steps/converging-writes.ts).
        const misfit = err instanceof UnexpectedResponseError && safe
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
export function seg(id: string): string {
  return encodeURIComponent(id)
}

/** An answer about another deployment (a proxy's) is malformed: acting on it would hit that one. */
function aboutDeployment(deploymentId: string): Verify<Deployment> {
  return d => (sameId(d.id, deploymentId) ? undefined : otherId('deployment', d.id, deploymentId))
}

function otherId(what: string, got: string, asked: string): string {
  return `the answer is about ${what} ${got}, not about ${what} ${asked} that was asked for`
}

/** Uuids compare without regard to case. */
function sameId(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase()
}
