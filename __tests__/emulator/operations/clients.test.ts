// The emulator as the production service's real clients meet it (the LangGraph CLI, the Terraform
// provider): creating revisions, the remote build (upload-url, the PUT, the PATCH), the push
// token, display names, the extra deployment types, template ids, the integration lists, the
// deployment's deploy log and log line ids; with the same validation rigour as the interface.
import { randomBytes } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from '@jest/globals'
import type { Dialect } from '../../../src/control-plane/dialect.ts'

import { answerProblems } from '../../builders/openapi.ts'
import {
  call,
  CLOUD,
  codehostBody,
  dockerBody,
  emulatorPerTest,
  INTEGRATION,
  type Json,
  OTHER_INTEGRATION,
  SELF_KEY
} from '../../builders/emulator.ts'
import { buildFromUpload } from '../../../emulator/builds/source-build.ts'
import { Store, type UploadRecord } from '../../../emulator/state/store.ts'
import { project, tarball } from '../../builders/tarballs.ts'

const { emu, clock, setup } = emulatorPerTest({}, { eager: false, manualClock: true })

const TARBALL = project(['agent'])

function sourceBody(name: string, source: string, extra: Record<string, unknown> = {}) {
  return { name, source, source_config: {}, source_revision_config: {}, secrets: [], ...extra }
}

async function create(body: unknown): Promise<Json> {
  const r = await call(emu!, 'POST', '/v2/deployments', { body })
  expect(r.status).toBe(201)
  return r.body
}

const put = (url: string, body: Buffer | string = TARBALL, method = 'PUT') =>
  fetch(url, { method, headers: { 'content-type': 'application/gzip' }, body })

async function revisionStatus(depId: string, revId: string): Promise<string> {
  return ((await call(emu!, 'GET', `/v2/deployments/${depId}/revisions/${revId}`)).body as Json)
    .status
}

describe.each(['interface', 'langsmith'] as const)('remote build (%s)', (dialect: Dialect) => {
  const config = dialect === 'langsmith' ? 'langgraph_config_path' : 'graph_config_path'

  it('upload-url, PUT of the tarball, PATCH internal_source, then DEPLOYED', async () => {
    await setup({ dialect, basePath: '/api-host' })
    const d = await create(sourceBody('remote', 'internal_source'))
    expect(d.source_config.deployment_type).toBe('serverless')
    const slot = (await call(emu!, 'POST', `/v2/deployments/${d.id}/upload-url`)).body as Json
    expect(slot.upload_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api-host\/_uploads\//)
    expect(slot.object_path).toMatch(new RegExp(`^uploads/${CLOUD}/${d.id}/.+\\.tar\\.gz$`))
    expect((await put(slot.upload_url)).status).toBe(200)
    const patched = await call(emu!, 'PATCH', `/v2/deployments/${d.id}`, {
      body: {
        revision_source: 'internal_source',
        source_revision_config: {
          source_tarball_path: slot.object_path,
          [config]: 'langgraph.json'
        }
      }
    })
    expect(patched.status).toBe(200)
    const rev = (patched.body as Json).latest_revision_id
    expect(rev).not.toBe(d.latest_revision_id)
    clock.advance(5000)
    expect(await revisionStatus(d.id, rev)).toBe('DEPLOYED')
    // The create's own revision had nothing to build and was superseded before it failed.
    expect(await revisionStatus(d.id, d.latest_revision_id)).toBe('SKIPPED')
    const revisions = emu!.state().tenants[0]!.deployments.find(x => x.id === d.id)!.revisions
    expect(revisions.map(r => r.graphs)).toEqual([[], ['agent']])
    const build = emu!.revisionLogs(rev)!.build!
    expect(build[0]!.message).toBe(`Unpacking source tarball ${slot.object_path}`)
  })
})

describe('upload-url and the tarball path: only what was handed out for this deployment', () => {
  it('refuses arbitrary paths, paths of another deployment, and paths on create', async () => {
    await setup()
    const a = await create(sourceBody('a', 'internal_source'))
    const b = await create(sourceBody('b', 'internal_source'))
    const slotB = (await call(emu!, 'POST', `/v2/deployments/${b.id}/upload-url`)).body as Json
    await put(slotB.upload_url)
    const patch = (id: string, path: string) =>
      call(emu!, 'PATCH', `/v2/deployments/${id}`, {
        body: { source_revision_config: { source_tarball_path: path } }
      })
    const arbitrary = await patch(a.id, 'gs://somewhere/else.tar.gz')
    expect(arbitrary.status).toBe(400)
    expect((arbitrary.body as Json).detail).toContain('is not an object path returned by POST')
    expect((await patch(a.id, slotB.object_path)).status).toBe(400)
    expect((await patch(b.id, slotB.object_path)).status).toBe(200)
    const onCreate = await call(emu!, 'POST', '/v2/deployments', {
      body: sourceBody('c', 'internal_source', {
        source_revision_config: { source_tarball_path: slotB.object_path }
      })
    })
    expect(onCreate.status).toBe(400)
    // Nothing was made by the refused requests.
    expect(emu!.state().tenants[0]!.deployments.find(d => d.name === 'a')!.revisions).toHaveLength(
      1
    )
  })

  it('the upload URL takes one gzip PUT with its signature, without an API key', async () => {
    await setup()
    const d = await create(sourceBody('up', 'internal_source'))
    const slot = (await call(emu!, 'POST', `/v2/deployments/${d.id}/upload-url`)).body as Json
    const unsigned = slot.upload_url.replace(/signature=\w+/, 'signature=forged')
    expect((await put(unsigned)).status).toBe(403)
    expect((await put(`${emu!.url}/_uploads/uploads/x/y.tar.gz?signature=x`)).status).toBe(403)
    expect((await put(slot.upload_url, 'not a tarball')).status).toBe(400)
    expect((await fetch(slot.upload_url)).status).toBe(405)
    expect((await put(slot.upload_url)).status).toBe(200)
    // A tarball may be larger than an API body.
    await emu!.close()
    await setup({ maxBodyBytes: 1024 })
    const big = await create(sourceBody('big', 'internal_source'))
    const bigSlot = (await call(emu!, 'POST', `/v2/deployments/${big.id}/upload-url`)).body as Json
    const large = gzipSync(randomBytes(4096))
    expect(large.length).toBeGreaterThan(1024)
    expect((await put(bigSlot.upload_url, large)).status).toBe(200)
    // The upload is not an API request: it needs no key and is not in the request log.
    expect(emu!.requests().some(r => r.path.startsWith('/_uploads/'))).toBe(false)
  })

  it('upload-url and push-token serve one source each (400 naming it), 404 for an unknown deployment', async () => {
    await setup()
    const source = await create(sourceBody('src', 'internal_source'))
    const image = await create(sourceBody('img', 'internal_docker'))
    const token = await call(emu!, 'POST', `/v2/deployments/${image.id}/push-token`)
    expect(token.status).toBe(200)
    expect((token.body as Json).registry_url).toMatch(/^127\.0\.0\.1:5000\//)
    expect((token.body as Json).token).toEqual(expect.any(String))
    const wrongToken = await call(emu!, 'POST', `/v2/deployments/${source.id}/push-token`)
    expect([wrongToken.status, (wrongToken.body as Json).detail]).toEqual([
      400,
      "A push token is only available for 'internal_docker' source deployments."
    ])
    const wrongUpload = await call(emu!, 'POST', `/v2/deployments/${image.id}/upload-url`)
    expect(wrongUpload.status).toBe(400)
    const missing = '00000000-0000-4000-8000-000000000000'
    expect((await call(emu!, 'POST', `/v2/deployments/${missing}/push-token`)).status).toBe(404)
    expect((await call(emu!, 'POST', '/v2/deployments/nope/upload-url')).status).toBe(422)
    expect(
      (await call(emu!, 'POST', `/v2/deployments/${image.id}/push-token`, { key: null })).status
    ).toBe(401)
  })

  it('a revision with nothing to build ends CREATE_FAILED, its log naming what is missing', async () => {
    await setup()
    const d = await create(sourceBody('empty', 'internal_docker'))
    clock.advance(5000)
    expect(await revisionStatus(d.id, d.latest_revision_id)).toBe('CREATE_FAILED')
    expect(emu!.revisionLogs(d.latest_revision_id)).toEqual({
      build: [
        expect.objectContaining({
          level: 'ERROR',
          message: expect.stringContaining('source_revision_config.image_uri is not set')
        })
      ],
      deploy: null
    })
  })
})

describe('the build of an upload: the emulator unpacks it and reads its config', () => {
  /** Creates an internal_source deployment, uploads `body` (unless null), PATCHes; the new revision. */
  async function uploadAndPatch(body: Buffer | null, configPath = 'langgraph.json') {
    const d = await create(
      sourceBody(`up-${Math.random().toString(36).slice(2, 8)}`, 'internal_source')
    )
    const slot = (await call(emu!, 'POST', `/v2/deployments/${d.id}/upload-url`)).body as Json
    if (body) expect((await put(slot.upload_url, body)).status).toBe(200)
    const patched = await call(emu!, 'PATCH', `/v2/deployments/${d.id}`, {
      body: {
        revision_source: 'internal_source',
        source_revision_config: {
          source_tarball_path: slot.object_path,
          graph_config_path: configPath
        }
      }
    })
    expect(patched.status).toBe(200)
    const rev = (patched.body as Json).latest_revision_id as string
    clock.advance(5000)
    const view = emu!.state().tenants[0]!.deployments.find(x => x.id === d.id)!
    return {
      dep: view,
      rev: view.revisions.find(r => r.id === rev)!,
      build: emu!.revisionLogs(rev)!.build!.map(l => `${l.level} ${l.message}`)
    }
  }

  it("the config's graphs become the revision's graphs, shown in its build log", async () => {
    await setup()
    const { dep, rev, build } = await uploadAndPatch(project(['agent', 'researcher']))
    expect(rev.status).toBe('DEPLOYED')
    expect(rev.graphs).toEqual(['agent', 'researcher'])
    expect(build).toContain('INFO Graphs: agent, researcher')
    // The service hosts what it built: custom_url points at the emulator's agent server.
    expect(dep.source_config.custom_url).toBe(`${new URL(emu!.url).origin}/_agents/${dep.id}`)
    // Whose assistants are the config's graphs.
    const search = await fetch(`${dep.source_config.custom_url}/assistants/search`, {
      method: 'POST',
      headers: { 'x-api-key': emu!.credentials().apiKey },
      body: JSON.stringify({ limit: 10 })
    })
    const found = (await search.json()) as Json[]
    expect(found.map(a => a.graph_id)).toEqual(['agent', 'researcher'])
  })

  it('a LangGraph.js project builds with npm and Node, a Python one with pip and Python', async () => {
    await setup()
    const js = await uploadAndPatch(
      tarball([
        {
          path: 'langgraph.json',
          content: JSON.stringify({ node_version: '20', graphs: { agent: './src/agent.ts:graph' } })
        },
        { path: 'package.json', content: '{"name": "agent"}' },
        { path: 'package-lock.json', content: '{}' },
        { path: 'src/agent.ts', content: 'export const graph = 1' }
      ])
    )
    expect(js.rev.status).toBe('DEPLOYED')
    expect(js.build).toContain('INFO Using Node.js 20 (node_version in langgraph.json)')
    expect(js.build).toContain('INFO Installing dependencies: npm ci')
    expect(js.build.join('\n')).not.toMatch(/pip|python/i)
    // A .ts graph without node_version is Node too; without a lockfile, npm install.
    const bare = await uploadAndPatch(
      tarball([
        { path: 'langgraph.json', content: '{"graphs": {"agent": "./agent.mts:graph"}}' },
        { path: 'agent.mts', content: 'x' }
      ])
    )
    expect(bare.build).toContain('WARNING langgraph.json: node_version not set, using 20')
    expect(bare.build).toContain('INFO Installing dependencies: npm install')
    const py = await uploadAndPatch(project(['agent']))
    expect(py.build).toContain('WARNING langgraph.json: python_version not set, using 3.11')
    expect(py.build).toContain('INFO Installing dependencies: pip install -e .')
  })

  it('reads a config in a folder, behind a long (PAX) path, with ./ in the config path', async () => {
    await setup()
    const deep = `${'very-long-folder-name/'.repeat(6)}langgraph.json`
    const body = tarball([
      { path: 'apps', type: '5' },
      { path: deep, content: JSON.stringify({ graphs: { deep: './a.py:g' } }) },
      { path: deep.replace('langgraph.json', 'a.py'), content: 'g = None\n' },
      { path: 'link.json', type: '2', linkTo: deep }
    ])
    const { rev } = await uploadAndPatch(body, `./${deep}`)
    expect([rev.status, rev.graphs]).toEqual(['DEPLOYED', ['deep']])
  })

  it.each([
    [
      'the config is missing',
      project(['agent'], 'other.json'),
      'langgraph.json',
      'ERROR ERROR: langgraph.json not found in the source tarball'
    ],
    [
      'the config is not JSON',
      tarball([{ path: 'langgraph.json', content: '{"graphs": {' }]),
      'langgraph.json',
      'ERROR ERROR: langgraph.json is not valid JSON'
    ],
    [
      'the config has no graphs',
      tarball([{ path: 'langgraph.json', content: '{"dependencies": ["."]}' }]),
      'langgraph.json',
      'ERROR ERROR: langgraph.json has no "graphs" object'
    ],
    [
      'the config is a symlink',
      tarball([{ path: 'langgraph.json', type: '2', linkTo: '/etc/passwd' }]),
      'langgraph.json',
      'ERROR ERROR: langgraph.json not found in the source tarball'
    ],
    [
      'the config path leaves the archive',
      project(['agent']),
      '../langgraph.json',
      'ERROR ERROR: ../langgraph.json: the config path must stay inside the archive'
    ],
    [
      'a member leaves the root',
      tarball([
        { path: '../evil.py', content: 'x' },
        { path: 'langgraph.json', content: '{}' }
      ]),
      'langgraph.json',
      "ERROR ERROR: the source tarball could not be unpacked: member '../evil.py' leaves the archive root (..)"
    ],
    [
      'a member is absolute',
      tarball([{ path: '/etc/cron.d/x', content: 'x' }]),
      'langgraph.json',
      "ERROR ERROR: the source tarball could not be unpacked: member '/etc/cron.d/x' has an absolute path"
    ],
    [
      'it is gzip but not tar',
      gzipSync(Buffer.from('langgraph.json\0agent.py\0')),
      'langgraph.json',
      'ERROR ERROR: the source tarball could not be unpacked: not a tar archive'
    ],
    [
      "a graph's file is not in the upload",
      tarball([
        {
          path: 'apps/a/langgraph.json',
          content: JSON.stringify({ graphs: { ok: './a.py:g', lost: './src/agent.py:graph' } })
        },
        { path: 'apps/a/a.py', content: 'g = None\n' }
      ]),
      'apps/a/langgraph.json',
      "ERROR ERROR: graph 'lost': ./src/agent.py (apps/a/src/agent.py in the upload) not found in the source tarball"
    ],
    ['nothing was uploaded', null, 'langgraph.json', 'ERROR ERROR: no uploaded object at uploads/']
  ])(
    'BUILD_FAILED when %s, the last build line saying why',
    async (_why, body, configPath, line) => {
      await setup()
      const { rev, build } = await uploadAndPatch(body, configPath)
      expect(rev.status).toBe('BUILD_FAILED')
      expect(rev.graphs).toEqual([])
      expect(build.at(-1)).toContain(line)
      expect(build.filter(l => l.startsWith('ERROR'))).toHaveLength(1)
    }
  )

  it('custom_url is the agent server for internal_docker too, none for external_docker', async () => {
    await setup()
    const image = await create(sourceBody('img-url', 'internal_docker'))
    expect(image.source_config.custom_url).toBe(`${new URL(emu!.url).origin}/_agents/${image.id}`)
    const docker = await call(emu!, 'POST', '/v2/deployments', {
      key: SELF_KEY,
      body: dockerBody('ext')
    })
    expect((docker.body as Json).source_config.custom_url).toBeNull()
  })

  it('the build log of a revision whose build has not started is an empty page; the deploy log is 404', async () => {
    await setup()
    const d = await create(codehostBody('early'))
    const rev = d.latest_revision_id
    const v2 = await call(emu!, 'GET', `/v2/deployments/${d.id}/revisions/${rev}/logs?type=build`)
    expect([v2.status, v2.body]).toEqual([200, { logs: [], next_offset: null }])
    const v1 = await call(emu!, 'POST', `/v1/projects/${d.id}/revisions/${rev}/build_logs`, {
      body: {}
    })
    expect([v1.status, v1.body]).toEqual([200, { logs: [], next_offset: null }])
    const deploy = await call(
      emu!,
      'GET',
      `/v2/deployments/${d.id}/revisions/${rev}/logs?type=deploy`
    )
    expect(deploy.status).toBe(404)
  })
})

describe('POST /v2/deployments/{id}/revisions', () => {
  it('makes a new revision from the body: 201 with the revision, secrets kept when omitted or empty', async () => {
    await setup({ dialect: 'langsmith' })
    const d = await create({
      ...codehostBody('tf'),
      source: 'github',
      source_revision_config: { repo_ref: 'main', langgraph_config_path: 'langgraph.json' }
    })
    for (const secrets of [undefined, []]) {
      const r = await call(emu!, 'POST', `/v2/deployments/${d.id}/revisions`, {
        body: { source_revision_config: { repo_ref: 'main' }, ...(secrets ? { secrets } : {}) }
      })
      expect(r.status).toBe(201)
      const rev = r.body as Json
      expect(rev).toMatchObject({ status: 'CREATING', source: 'github' })
      expect(rev.source_revision_config).toMatchObject({
        repo_ref: 'main',
        langgraph_config_path: 'langgraph.json'
      })
      const read = (await call(emu!, 'GET', `/v2/deployments/${d.id}`)).body as Json
      expect(read.latest_revision_id).toBe(rev.id)
      expect(read.secrets).toEqual([{ name: 'OPENAI_API_KEY', value: 'sk-secret-value' }])
    }
    expect(emu!.state().tenants[0]!.deployments[0]!.revisions).toHaveLength(3)
  })

  it('deployment-level settings in the body are not part of a revision and change nothing', async () => {
    await setup()
    const d = await create(codehostBody('levels'))
    const r = await call(emu!, 'POST', `/v2/deployments/${d.id}/revisions`, {
      body: {
        source_revision_config: {},
        source_config: {
          build_on_push: true,
          custom_url: 'x.example.com',
          install_command: 'uv sync'
        }
      }
    })
    expect(r.status).toBe(201)
    const read = (await call(emu!, 'GET', `/v2/deployments/${d.id}`)).body as Json
    expect(read.source_config).toMatchObject({
      build_on_push: false,
      // As created: the emulator's agent server, not the body's x.example.com.
      custom_url: d.source_config.custom_url,
      install_command: 'uv sync'
    })
    expect(read.source_config.custom_url).not.toBe('x.example.com')
  })

  it('validates like a PATCH: 422 for the body, 400 for the rules, 404 for an unknown deployment', async () => {
    await setup()
    const d = await create(codehostBody('strict'))
    const path = `/v2/deployments/${d.id}/revisions`
    const missing = await call(emu!, 'POST', path, { body: { secrets: [] } })
    expect(missing.status).toBe(422)
    expect((missing.body as Json).detail[0]).toMatchObject({
      loc: ['body', 'source_revision_config'],
      type: 'missing'
    })
    expect((await call(emu!, 'POST', path)).status).toBe(422)
    const reserved = await call(emu!, 'POST', path, {
      body: { source_revision_config: {}, secrets: [{ name: 'PORT', value: '1' }] }
    })
    expect([reserved.status, (reserved.body as Json).detail]).toEqual([
      400,
      "Secret name 'PORT' is reserved and cannot be used."
    ])
    const unknown = '00000000-0000-4000-8000-000000000000'
    expect(
      (
        await call(emu!, 'POST', `/v2/deployments/${unknown}/revisions`, {
          body: { source_revision_config: {} }
        })
      ).status
    ).toBe(404)
    expect((await call(emu!, 'PUT', path, { body: {} })).status).toBe(405)
  })
})

describe('display_name, deployment types, template_id', () => {
  it('display_name: set by PATCH without a revision, read back, never empty; create ignores it', async () => {
    await setup()
    const d = await create({ ...codehostBody('shown'), display_name: 'ignored on create' })
    expect(d.display_name).toBeNull()
    const named = await call(emu!, 'PATCH', `/v2/deployments/${d.id}`, {
      body: { display_name: 'Shown name' }
    })
    expect(named.status).toBe(200)
    expect((named.body as Json).latest_revision_id).toBe(d.latest_revision_id)
    expect(
      ((await call(emu!, 'GET', '/v2/deployments')).body as Json).resources[0].display_name
    ).toBe('Shown name')
    const empty = await call(emu!, 'PATCH', `/v2/deployments/${d.id}`, {
      body: { display_name: '' }
    })
    expect(empty.status).toBe(422)
    expect((empty.body as Json).detail).toEqual([
      expect.objectContaining({
        loc: ['body', 'display_name'],
        type: 'string_too_short',
        input: ''
      })
    ])
    const number = await call(emu!, 'PATCH', `/v2/deployments/${d.id}`, {
      body: { display_name: 7 }
    })
    expect((number.body as Json).detail[0]).toMatchObject({ type: 'string_type' })
  })

  it('dev_zero and dev_free_zero are accepted and filtered on; the default is prod, none for self-hosted', async () => {
    await setup()
    for (const [name, type] of [
      ['z', 'dev_zero'],
      ['fz', 'dev_free_zero']
    ]) {
      const d = await create({
        ...codehostBody(name!),
        source_config: { ...codehostBody(name!).source_config, deployment_type: type }
      })
      expect(d.source_config.deployment_type).toBe(type)
    }
    const listed = (await call(emu!, 'GET', '/v2/deployments?deployment_type=dev_zero'))
      .body as Json
    expect(listed.resources.map((d: Json) => d.name)).toEqual(['z'])
    expect((await create(codehostBody('plain'))).source_config.deployment_type).toBe('serverless')
    const docker = await call(emu!, 'POST', '/v2/deployments', {
      key: SELF_KEY,
      body: dockerBody('s')
    })
    expect((docker.body as Json).source_config.deployment_type).toBeNull()
  })

  it('template_id of an internal_template deployment is kept and read back', async () => {
    await setup()
    const d = await create(
      sourceBody('tpl', 'internal_template', { source_config: { template_id: 'deep-research' } })
    )
    const read = (await call(emu!, 'GET', `/v2/deployments/${d.id}`)).body as Json
    expect(read.source_config.template_id).toBe('deep-research')
  })
})

describe('integration lists', () => {
  it('langsmith: the three other integration paths of the production description answer, as described', async () => {
    await setup({ dialect: 'langsmith' })
    for (const path of [
      '/v1/integrations/github/install',
      '/v1/integrations/forge/github/install',
      `/v1/integrations/github/${INTEGRATION}/repos`,
      `/v1/integrations/forge/github/${INTEGRATION}/repos`
    ]) {
      const r = await call(emu!, 'GET', path)
      expect({
        path,
        status: r.status,
        problems: answerProblems('GET', path, r.status, r.body)
      }).toEqual({ path, status: 200, problems: [] })
    }
    const integrations = (await call(emu!, 'GET', '/v1/integrations/github/install')).body as Json
    expect(integrations.map((i: Json) => i.id)).toEqual([INTEGRATION])
    expect(
      (await call(emu!, 'GET', `/v1/integrations/github/${OTHER_INTEGRATION}/repos`)).status
    ).toBe(404)
    // The interface's names are not the production service's.
    expect((await call(emu!, 'GET', '/v1/integrations/codehost/install')).status).toBe(404)
  })

  it('interface: the same lists under the codehost names', async () => {
    await setup()
    expect((await call(emu!, 'GET', '/v1/integrations/codehost/install')).status).toBe(200)
    expect((await call(emu!, 'GET', '/v1/integrations/forge/codehost/install')).status).toBe(200)
    expect((await call(emu!, 'GET', `/v1/integrations/codehost/${INTEGRATION}/repos`)).status).toBe(
      200
    )
    expect((await call(emu!, 'GET', '/v1/integrations/github/install')).status).toBe(404)
    expect(
      (await call(emu!, 'GET', '/v1/integrations/codehost/install', { key: null })).status
    ).toBe(401)
  })
})

describe('log line ids and the deployment deploy log (POST /v1/projects/{id}/deploy_logs)', () => {
  it('every line has a stable, unique id; start_time is inclusive, so a follower dedupes on ids', async () => {
    await setup()
    const d = await create(codehostBody('followed'))
    const logs = (body: unknown) =>
      call(emu!, 'POST', `/v1/projects/${d.id}/deploy_logs`, { body }).then(r => r.body as Json)
    clock.advance(2900)
    const first = await logs({ limit: 100, order: 'desc' })
    expect(first.logs.length).toBeGreaterThan(0)
    const newest = first.logs[0]
    clock.advance(30_000)
    const next = await logs({ limit: 100, order: 'asc', start_time: newest.timestamp })
    expect(next.logs[0]).toEqual(newest)
    const ids = next.logs.map((l: Json) => l.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(next.logs.at(-1).message).toBe('"GET /ok HTTP/1.1" 200')
    // Read again, the same lines have the same ids.
    const again = await logs({ limit: 100, order: 'asc', start_time: newest.timestamp })
    expect(again.logs.map((l: Json) => l.id)).toEqual(ids.slice(0, again.logs.length))
  })

  it("holds every revision's deploy log in time order, and grows while a revision is live", async () => {
    await setup()
    const d = await create(codehostBody('history'))
    clock.advance(5000)
    const patched = (
      await call(emu!, 'PATCH', `/v2/deployments/${d.id}`, {
        body: { source_revision_config: { repo_ref: 'main' } }
      })
    ).body as Json
    clock.advance(5000)
    const page = (
      await call(emu!, 'POST', `/v1/projects/${d.id}/deploy_logs`, { body: { limit: 1000 } })
    ).body as Json
    const live = page.logs
      .filter((l: Json) => l.message.endsWith(' is live'))
      .map((l: Json) => l.message)
    expect(live).toEqual([
      `Revision ${d.latest_revision_id} is live`,
      `Revision ${patched.latest_revision_id} is live`
    ])
    const times = page.logs.map((l: Json) => Date.parse(l.timestamp))
    expect([...times].sort((a, b) => a - b)).toEqual(times)
    clock.advance(60_000)
    const later = (
      await call(emu!, 'POST', `/v1/projects/${d.id}/deploy_logs`, { body: { limit: 1000 } })
    ).body as Json
    expect(later.logs.length).toBeGreaterThan(page.logs.length)
    // Absent body: the defaults (asc, 50).
    expect((await call(emu!, 'POST', `/v1/projects/${d.id}/deploy_logs`)).status).toBe(200)
  })

  it('--logs-api v2 turns the v1 POSTs off (404); v1 keeps them', async () => {
    await setup({ logsApi: 'v2' })
    const d = await create(codehostBody('modern'))
    expect(
      (await call(emu!, 'POST', `/v1/projects/${d.id}/deploy_logs`, { body: {} })).status
    ).toBe(404)
    await emu!.close()
    await setup({ logsApi: 'v1' })
    const old = await create(codehostBody('old'))
    expect(
      (await call(emu!, 'POST', `/v1/projects/${old.id}/deploy_logs`, { body: {} })).status
    ).toBe(200)
  })
})

describe('uploaded bytes are bounded', () => {
  it('past the bound the oldest uploads lose their bytes, and a build of one finds no object', () => {
    const store = new Store()
    const body = project(['agent'])
    store.keptUploadBytes = body.length + 1 // room for one tarball
    const slot = (n: number): UploadRecord => {
      const upload = {
        object_path: `p${n}`,
        token: 't',
        deployment_id: 'd',
        bytes: null,
        data: null
      }
      store.addUpload(upload)
      return upload
    }
    const [first, second] = [slot(1), slot(2)]
    store.keepUpload(first, body)
    expect(buildFromUpload(store, 'p1', 'langgraph.json')).toMatchObject({
      ok: true,
      graphs: ['agent'],
      files: ['agent.py', 'langgraph.json']
    })
    store.keepUpload(second, body)
    expect([first.data, second.data?.length]).toEqual([null, body.length])
    expect(buildFromUpload(store, 'p1', 'langgraph.json')).toMatchObject({
      ok: false,
      message: expect.stringContaining('no uploaded object at p1')
    })
    expect(buildFromUpload(store, 'p2', 'langgraph.json')).toMatchObject({ ok: true })
  })
})
