// The client with the operations that only the tests use: the interface's own (a revision by
// POST, the display name alone, listeners, revision lists, the deployment's whole deploy log),
// which the action never sends. Held here so that src/ carries only what a run needs, while the
// contract and production tests still prove these operations of the emulator and the model.
import type { z } from 'zod'
import { checked, ControlPlaneClient, seg } from '../../src/control-plane/client.ts'
import {
  type CallOptions,
  type RevisionLogsOptions,
  MAX_LOG_MESSAGE_CHARS
} from '../../src/control-plane/client-options.ts'
import { readAllPages } from '../../src/control-plane/paging.ts'
import { capText } from '../../src/inert.ts'
import type {
  CreateRevisionRequest,
  Deployment,
  ListRevisionsQuery,
  Revision,
  RevisionList,
  RevisionLogPage
} from '../../src/control-plane/schema.ts'

export class TestClient extends ControlPlaneClient {
  /** `POST .../revisions`, Terraform's update: a new revision from `body` (docs/decisions.md). */
  async createRevision(deploymentId: string, body: z.input<typeof CreateRevisionRequest>) {
    const path = `/v2/deployments/${seg(deploymentId)}/revisions`
    const payload = await checked('CreateRevisionRequest', body)
    return this.call('create revision', 'POST', path, 'Revision', { body: payload })
  }

  /** A PATCH of the display name alone (no revision): one character at least, never cleared. */
  async setDisplayName(deploymentId: string, displayName: string): Promise<Deployment> {
    const body = await checked('PatchDeploymentRequest', { display_name: displayName })
    const path = `/v2/deployments/${seg(deploymentId)}`
    return this.call('set display name', 'PATCH', path, 'Deployment', { body })
  }

  /** One page of the deployment's whole deploy log (the v1 POST); redacted and cut as below. */
  async getDeploymentLogs(
    deploymentId: string,
    opts: Omit<RevisionLogsOptions, 'type'> = {},
    call: CallOptions = {}
  ): Promise<RevisionLogPage> {
    const { type: _type, ...body } = await checked('RevisionLogsQuery', {
      ...opts,
      type: 'deploy'
    })
    const path = `/v1/projects/${seg(deploymentId)}/deploy_logs`
    const extra = { ...call, body, idempotent: true }
    const page = await this.call('get deployment logs', 'POST', path, 'RevisionLogPage', extra)
    const cut = (m: string) => capText(this.redactor.redact(m), MAX_LOG_MESSAGE_CHARS)
    return { ...page, logs: page.logs.map(l => ({ ...l, message: cut(l.message) })) }
  }

  /** One page of a deployment's revisions, newest first. */
  async listRevisions(
    deploymentId: string,
    query: ListRevisionsQuery = {},
    call: CallOptions = {}
  ): Promise<RevisionList> {
    const { status, ...rest } = query
    const wire = await checked('ListRevisionsQuery', {
      ...rest,
      status: typeof status === 'string' || status === undefined ? status : status.join(',')
    })
    const path = `/v2/deployments/${seg(deploymentId)}/revisions`
    return this.call('list revisions', 'GET', path, 'RevisionList', { ...call, query: wire })
  }

  /** Every revision of a deployment matching the query, newest first, each once; bounded. */
  iterateRevisions(
    deploymentId: string,
    query: Omit<ListRevisionsQuery, 'offset' | 'limit'> = {},
    pageSize = 100
  ): AsyncGenerator<Revision> {
    const path = `/v2/deployments/${seg(deploymentId)}/revisions`
    return readAllPages(
      offset => this.listRevisions(deploymentId, { ...query, limit: pageSize, offset }),
      pageSize,
      { operation: 'list revisions', method: 'GET', path },
      'revision'
    )
  }

  async deleteListener(listenerId: string): Promise<void> {
    await this.send({
      operation: 'delete listener',
      method: 'DELETE',
      path: `/v2/listeners/${seg(listenerId)}`
    })
  }
}
