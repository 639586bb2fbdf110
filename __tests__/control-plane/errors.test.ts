import { describe, expect, test } from '@jest/globals'
import {
  ApiError,
  NetworkError,
  renderValidationEntry,
  renderValidationErrors,
  UnexpectedResponseError,
  type Operation,
  type SentContext
} from '../../src/control-plane/errors.ts'
import { Redactor } from '../../src/control-plane/redact.ts'
import { sanitizeServerText } from '../../src/inert.ts'
import { sayAs } from '../../src/interface/naming.ts'
import { ACTION_SAY } from '../builders.ts'
import * as scripted from '../builders/scripted-server.ts'

const ESC = '\u001b'

function ctx(operation: Operation, method: string, path: string): SentContext {
  return { operation, method, path, say: ACTION_SAY }
}

/** No line of a log message may start a workflow command, nor carry a terminal escape. */
function expectLogSafe(text: string): void {
  for (const line of text.split(/\r?\n|\r/)) expect(line.trimStart().startsWith('::')).toBe(false)
  expect(text).not.toContain(ESC)
  expect(text).not.toContain('\r')
}

describe('422 rendering', () => {
  test.each([
    [
      ['body', 'source_config', 'repo_url'],
      'Field required',
      'source_config.repo_url: Field required'
    ],
    [
      ['query', 'limit'],
      'Input should be less than or equal to 100',
      'limit: Input should be less than or equal to 100'
    ],
    [
      ['path', 'listener_id'],
      'Input should be a valid UUID',
      'listener_id: Input should be a valid UUID'
    ],
    [
      ['body', 'secrets', 0, 'value'],
      'Input should be a string',
      'secrets.0.value: Input should be a string'
    ],
    [['body'], 'Field required', 'body: Field required'],
    [[], 'Something is wrong', 'Something is wrong']
  ])('%j -> one line', (loc, msg, line) => {
    expect(renderValidationEntry({ loc, msg, type: 'x' })).toBe(line)
  })

  test('one line per entry; a long list is cut with a count', () => {
    const entries = Array.from({ length: 25 }, (_, i) => ({
      loc: ['body', `field_${i}`],
      msg: 'Field required',
      type: 'missing'
    }))
    const lines = renderValidationErrors(entries).split('\n')
    expect(lines).toHaveLength(21)
    expect(lines[0]).toBe('field_0: Field required')
    expect(lines[19]).toBe('field_19: Field required')
    expect(lines[20]).toBe('… and 5 more')
  })

  test('a 422 answer is an ApiError with one line per entry and never the echoed input', async () => {
    const secret = 'sk-live-do-not-print-4242'
    const server = await scripted.startServer(
      scripted.reply(422, {
        detail: [
          {
            type: 'missing',
            loc: ['body', 'source_config', 'repo_url'],
            msg: 'Field required',
            input: { secrets: [{ name: 'OPENAI_API_KEY', value: secret }], marker: 'ECHOED-INPUT' }
          },
          {
            type: 'string_pattern_mismatch',
            loc: ['body', 'name'],
            msg: "String should match pattern '^[a-z][a-z0-9-]*$'",
            input: 'My Agent',
            ctx: { pattern: '^[a-z][a-z0-9-]*$' }
          }
        ]
      })
    )
    const client = scripted.makeClient(server.origin)
    const err = await scripted.rejectionOf(client.createDeployment(scripted.createBody(secret)))
    expect(err).toBeInstanceOf(ApiError)
    const api = err as ApiError
    expect(api.status).toBe(422)
    expect(api.method).toBe('POST')
    expect(api.path).toBe('/v2/deployments')
    expect(api.detail.split('\n')).toEqual([
      'source_config.repo_url: Field required',
      "name: String should match pattern '^[a-z][a-z0-9-]*$'"
    ])
    expect(err.message.split('\n')).toEqual([
      'create deployment failed: HTTP 422 on POST /v2/deployments',
      'source_config.repo_url: Field required',
      "name: String should match pattern '^[a-z][a-z0-9-]*$'",
      expect.stringMatching(/^Hint: /)
    ])
    const everything = err.message + JSON.stringify(api)
    expect(everything).not.toContain(secret)
    expect(everything).not.toContain('ECHOED-INPUT')
    expect(everything).not.toContain('My Agent')
    expect(api.validation?.map(e => e.loc.join('.'))).toEqual([
      'body.source_config.repo_url',
      'body.name'
    ])
  })
})

describe('hints', () => {
  test.each([
    [401, 'Invalid API key.', '/v2/deployments', /api-key/],
    [
      403,
      'Organization-scoped key requires workspace specification',
      '/v2/deployments',
      /tenant-id/
    ],
    [403, 'Deployments are not enabled for this organization', '/v2/deployments', /not enabled/],
    [403, 'Forbidden', '/v2/deployments', /tenant-id/],
    [400, "Deployment 'my-agent' already exists", '/v2/deployments', /name is taken/],
    [409, 'Conflict', '/v2/deployments', /already exists/],
    [429, 'Too many requests', '/v2/deployments', /rate limiting/],
    [500, 'Internal Server Error', '/v2/deployments', /re-run/]
  ])('HTTP %d %j', (status, detail, path, hint) => {
    const err = new ApiError(ctx('list deployments', 'GET', path), status, detail)
    expect(err.hint).toMatch(hint)
    expect(err.message).toContain(`HTTP ${status} on GET ${path}: ${detail}`)
    expect(err.message.endsWith(err.hint!)).toBe(true)
  })

  test('403 on a listener says listeners need a self-hosted enterprise plan', () => {
    const err = new ApiError(
      ctx('delete listener', 'DELETE', `/v2/listeners/${scripted.LISTENER_ID}`),
      403,
      "Listeners cannot be created for LangSmith workspace ID 'ws'. Creating listeners is only allowed for LangSmith organizations with self-hosted enterprise plans."
    )
    expect(err.hint).toMatch(/listeners are only allowed .* self-hosted enterprise plans/)
  })

  test('the workspace hint wins over the listener hint for an organization-scoped key', () => {
    const err = new ApiError(
      ctx('delete listener', 'DELETE', `/v2/listeners/${scripted.LISTENER_ID}`),
      403,
      'This API key requires workspace specification.'
    )
    expect(err.hint).toMatch(/tenant-id/)
  })

  test.each([
    [
      'get deployment',
      `/v2/deployments/${scripted.DEPLOYMENT_ID}`,
      `deployment ${scripted.DEPLOYMENT_ID}`
    ],
    [
      'patch deployment',
      `/v2/deployments/${scripted.DEPLOYMENT_ID}`,
      `deployment ${scripted.DEPLOYMENT_ID}`
    ],
    [
      'get revision',
      `/v2/deployments/${scripted.DEPLOYMENT_ID}/revisions/${scripted.REVISION_ID}`,
      `revision ${scripted.REVISION_ID} of deployment ${scripted.DEPLOYMENT_ID}`
    ],
    [
      'delete listener',
      `/v2/listeners/${scripted.LISTENER_ID}`,
      `listener ${scripted.LISTENER_ID}`
    ],
    [
      'list repositories',
      `/v1/integrations/forge/codehost/${scripted.INTEGRATION_ID}/repos`,
      `forge integration ${scripted.INTEGRATION_ID} (integration-id)`
    ]
  ] as const)('404 on %s names what was not found', (operation, path, subject) => {
    const err = new ApiError(ctx(operation, 'GET', path), 404, 'Not found.')
    expect(err.hint).toMatch(/^Hint: .* was not found/)
    expect(err.hint).toContain(subject)
  })

  test('a 404 on the forge path names the other dialect as a cause; elsewhere it does not', () => {
    const forge = (kind: string) =>
      new ApiError(
        ctx(
          'list repositories',
          'GET',
          `/v1/integrations/forge/${kind}/${scripted.INTEGRATION_ID}/repos`
        ),
        404,
        'Not Found'
      ).hint
    expect(forge('codehost')).toContain('set `api-dialect: langsmith`')
    expect(forge('github')).toContain('set `api-dialect: interface`')
    const other = new ApiError(
      ctx('get deployment', 'GET', `/v2/deployments/${scripted.DEPLOYMENT_ID}`),
      404,
      'x'
    )
    expect(other.hint).not.toContain('api-dialect')
  })

  test('an unusual 4xx has no hint and no dangling line', () => {
    const err = new ApiError(ctx('get deployment', 'GET', '/v2/x'), 418, "I'm a teapot")
    expect(err.hint).toBeUndefined()
    expect(err.message).toBe("get deployment failed: HTTP 418 on GET /v2/x: I'm a teapot")
  })

  test('over HTTP: 401 with the api-key hint; 404 naming the revision id', async () => {
    const server = await scripted.startServer((req, res) => {
      if (req.url?.includes('/revisions/'))
        return scripted.reply(404, { detail: `Revision ${scripted.REVISION_ID} not found.` })(
          req,
          res,
          '',
          0
        )
      scripted.reply(401, { detail: 'Invalid API key.' })(req, res, '', 0)
    })
    const client = scripted.makeClient(server.origin)
    const unauthorized = (await scripted.rejectionOf(
      client.getDeployment(scripted.DEPLOYMENT_ID)
    )) as ApiError
    expect(unauthorized).toBeInstanceOf(ApiError)
    expect(unauthorized.status).toBe(401)
    expect(unauthorized.message).toMatch(
      /^get deployment failed: HTTP 401 on GET \/v2\/deployments\//
    )
    expect(unauthorized.message).toMatch(/Hint: check the API key \(`api-key`\)/)
    const missing = (await scripted.rejectionOf(
      client.getRevision(scripted.DEPLOYMENT_ID, scripted.REVISION_ID)
    )) as ApiError
    expect(missing.status).toBe(404)
    expect(missing.detail).toBe(`Revision ${scripted.REVISION_ID} not found.`)
    expect(missing.hint).toContain(
      `revision ${scripted.REVISION_ID} of deployment ${scripted.DEPLOYMENT_ID}`
    )
    // 4xx are not retried.
    expect(server.requests).toHaveLength(2)
  })
})

describe('unexpected responses', () => {
  test('a non-JSON 200 says so and shows how the body starts', async () => {
    const server = await scripted.startServer(
      scripted.reply(200, '<html><body>Sign in to continue</body></html>')
    )
    const client = scripted.makeClient(server.origin)
    const err = await scripted.rejectionOf(client.listDeployments())
    expect(err).toBeInstanceOf(UnexpectedResponseError)
    expect(err.message).toBe(
      'list deployments: unexpected response from the control plane (HTTP 200 on GET /v2/deployments): ' +
        'the body is not JSON (starts with "<html><body>Sign in to continue</body></html>")'
    )
    // A read is repeated before it is given up: the same page came back each time.
    expect(server.requests).toHaveLength(5)
  })

  test('a write whose 2xx does not fit is not sent again by the client', async () => {
    const server = await scripted.startServer(scripted.reply(201, '<html>Created?</html>'))
    const client = scripted.makeClient(server.origin)
    const err = await scripted.rejectionOf(
      client.patchDeployment('44444444-4444-4444-8444-444444444444', {})
    )
    expect(err).toBeInstanceOf(UnexpectedResponseError)
    expect(server.requests).toHaveLength(1)
  })

  test('a body that does not fit the interface names the field', async () => {
    const server = await scripted.startServer(
      scripted.reply(200, { resources: [scripted.deploymentBody({ id: 'dep-1' })], offset: 1 })
    )
    const client = scripted.makeClient(server.origin)
    const err = await scripted.rejectionOf(client.listDeployments())
    expect(err).toBeInstanceOf(UnexpectedResponseError)
    expect(err.message).toMatch(
      /^list deployments: unexpected response from the control plane \(HTTP 200 on GET \/v2\/deployments\): resources\.0\.id: \S/
    )
  })

  test('a missing required field is named', async () => {
    const body = scripted.deploymentBody()
    delete body.latest_revision_id
    const server = await scripted.startServer(scripted.reply(200, body))
    const client = scripted.makeClient(server.origin)
    const err = await scripted.rejectionOf(client.getDeployment(scripted.DEPLOYMENT_ID))
    expect(err).toBeInstanceOf(UnexpectedResponseError)
    expect(err.message).toContain(
      `(HTTP 200 on GET /v2/deployments/${scripted.DEPLOYMENT_ID}): latest_revision_id: `
    )
  })

  test('an empty 200 where a deployment is expected is an unexpected response', async () => {
    const server = await scripted.startServer(scripted.reply(200, ''))
    const client = scripted.makeClient(server.origin)
    const err = await scripted.rejectionOf(client.getDeployment(scripted.DEPLOYMENT_ID))
    expect(err).toBeInstanceOf(UnexpectedResponseError)
    expect((err as UnexpectedResponseError).status).toBe(200)
  })
})

describe('sanitizeServerText', () => {
  test('terminal escape codes are removed', () => {
    expect(sanitizeServerText(`${ESC}[31;1mred${ESC}[0m and ${ESC}]8;;https://x${ESC}\\link`)).toBe(
      'red and link'
    )
    expect(sanitizeServerText(`a${ESC}]0;title\u0007b`)).toBe('ab')
    expect(sanitizeServerText('a\u009b31mb')).not.toContain('\u009b')
  })

  test('line breaks fold into spaces so nothing starts a new line', () => {
    expect(sanitizeServerText('one\r\ntwo\nthree\rfour\u2028five')).toBe('one two three four five')
  })

  test('workflow commands are defused', () => {
    const out = sanitizeServerText('oops\n::add-mask::x\n::set-output name=a::b\r\n::error::boom')
    expect(out).not.toContain('::')
    expectLogSafe(out)
    expect(sanitizeServerText('::warning::x')).not.toMatch(/^::/)
  })

  test('the older ##[ commands are defused anywhere in a line', () => {
    for (const cmd of [
      '##[add-mask]x',
      '##[set-output name=a]b',
      '##[error]boom',
      '##[stop-commands]t'
    ]) {
      const out = sanitizeServerText(`a build line then ${cmd}`)
      expect(out).not.toContain('##[')
      expect(out).toContain(cmd.replace('##[', '# #['))
    }
    expect(sanitizeServerText('###[x')).not.toContain('##[')
    expect(sanitizeServerText('a # b ## c')).toBe('a # b ## c')
  })

  test('long text is cut to the limit with a count of what was dropped', () => {
    const out = sanitizeServerText('x'.repeat(10_000), 500)
    expect(out.startsWith('x'.repeat(500) + '…')).toBe(true)
    expect(out).toContain('(9500 more characters)')
    expect(out.length).toBeLessThan(540)
    expect(sanitizeServerText('short', 500)).toBe('short')
  })

  test('server text in an ApiError is sanitised and bounded', async () => {
    const nasty =
      `bad request\n::error file=a.ts::forged\r\n${ESC}[2J${ESC}[31mred${ESC}[0m\n::add-mask::zzz ` +
      'y'.repeat(20_000)
    const server = await scripted.startServer(scripted.reply(400, { detail: nasty }))
    const client = scripted.makeClient(server.origin)
    const err = (await scripted.rejectionOf(
      client.getDeployment(scripted.DEPLOYMENT_ID)
    )) as ApiError
    expect(err).toBeInstanceOf(ApiError)
    expect(err.detail).toMatch(/^bad request/)
    expect(err.detail).toContain('red')
    expectLogSafe(err.message)
    // head, detail, hint: no line comes from the server's line breaks.
    expect(err.message.split('\n')).toHaveLength(2)
    expect(err.message.length).toBeLessThan(1000)
  })

  test('a plain-text or HTML error page becomes a short detail', async () => {
    const page = `<html>\n<h1>502 Bad Gateway</h1>\n${'<p>filler</p>\n'.repeat(1000)}</html>`
    const server = await scripted.startServer(scripted.reply(502, page))
    const client = scripted.makeClient(server.origin, { retry: { maxAttempts: 1 } })
    const err = (await scripted.rejectionOf(
      client.getDeployment(scripted.DEPLOYMENT_ID)
    )) as ApiError
    expect(err.status).toBe(502)
    expect(err.detail).toMatch(/^<html> <h1>502 Bad Gateway<\/h1>/)
    expect(err.detail.length).toBeLessThan(560)
    expectLogSafe(err.message)
  })

  test('the start of a non-JSON 200 is sanitised too', async () => {
    const server = await scripted.startServer(scripted.reply(200, `::error::forged\n${ESC}[31mX`))
    const client = scripted.makeClient(server.origin)
    const err = await scripted.rejectionOf(client.listDeployments())
    expect(err).toBeInstanceOf(UnexpectedResponseError)
    expectLogSafe(err.message)
    expect(err.message).not.toContain('::')
  })
})

describe('Redactor', () => {
  test('replaces every occurrence, plain, URL-encoded and JSON-escaped', () => {
    const secret = 'p@ss "w/rd"\\x'
    const r = new Redactor([secret])
    expect(r.redact(`a ${secret} b ${secret}`)).toBe('a *** b ***')
    expect(r.redact(`q=${encodeURIComponent(secret)}`)).toBe('q=***')
    expect(r.redact(JSON.stringify({ value: secret }))).toBe('{"value":"***"}')
  })

  test('each line of a multi-line secret is redacted on its own', () => {
    const pem = '-----BEGIN KEY-----\nMIIBOgIBAAJBAKj34GkxFhD9\n-----END KEY-----'
    const r = new Redactor([pem])
    const out = r.redact('first line of the key: MIIBOgIBAAJBAKj34GkxFhD9 (truncated)')
    expect(out).not.toContain('MIIBOgIBAAJBAKj34GkxFhD9')
    expect(r.redact(pem)).toBe('***')
  })

  test('a secret that contains another is replaced whole', () => {
    const r = new Redactor(['abcdef', 'abcdefghij'])
    expect(r.redact('x abcdefghij y')).toBe('x *** y')
  })

  test('empty and very short values are not redacted (they would mangle every message)', () => {
    const r = new Redactor(['', undefined, 'ab'])
    expect(r.redact('a tab was absent')).toBe('a tab was absent')
  })
})

describe('no message or debug line carries the key or a secret', () => {
  const secret = 'sk-proj-VERY-secret-value-0987654321'

  test('a key or secret echoed in an error detail is redacted', async () => {
    const server = await scripted.startServer(
      scripted.reply(400, {
        detail: `Invalid value ${secret} for OPENAI_API_KEY; key ${scripted.API_KEY} is fine`
      })
    )
    const debug: string[] = []
    const client = scripted.makeClient(server.origin, {
      secrets: [secret],
      debug: l => debug.push(l)
    })
    const err = (await scripted.rejectionOf(
      client.createDeployment(scripted.createBody(secret))
    )) as ApiError
    expect(err.status).toBe(400)
    expect(err.message).toContain('Invalid value *** for OPENAI_API_KEY; key *** is fine')
    for (const text of [err.message, err.detail, ...debug]) {
      expect(text).not.toContain(secret)
      expect(text).not.toContain(scripted.API_KEY)
    }
  })

  test('the debug callback sees request bodies with their secrets redacted', async () => {
    const tricky = 'line1 "quoted" \\ back\nline2-of-the-secret'
    const server = await scripted.startServer(scripted.reply(201, scripted.deploymentBody()))
    const debug: string[] = []
    const client = scripted.makeClient(server.origin, {
      secrets: [secret, tricky],
      debug: l => debug.push(l)
    })
    const body = scripted.createBody(secret)
    body.secrets.push({ name: 'PEM', value: tricky })
    await client.createDeployment(body)
    // The server did get the real values...
    expect(server.requests[0]?.body).toContain(secret)
    // ...the log did not.
    const sent = debug.find(l => l.startsWith('→ POST /v2/deployments'))
    expect(sent).toBeDefined()
    expect(sent).toContain('"name":"OPENAI_API_KEY","value":"***"')
    expect(sent).toContain('"name":"PEM","value":"***"')
    for (const line of debug) {
      expect(line).not.toContain(secret)
      expect(line).not.toContain(JSON.stringify(tricky).slice(1, -1))
      expect(line).not.toContain('line2-of-the-secret')
      expect(line).not.toContain(scripted.API_KEY)
    }
  })

  test('a secret echoed in a 422 message is redacted', async () => {
    const server = await scripted.startServer(
      scripted.reply(422, {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'secrets', 0, 'value'],
            msg: `Value error, '${secret}' looks like a placeholder`,
            input: secret
          }
        ]
      })
    )
    const client = scripted.makeClient(server.origin, { secrets: [secret] })
    const err = (await scripted.rejectionOf(
      client.createDeployment(scripted.createBody(secret))
    )) as ApiError
    expect(err.detail).toBe("secrets.0.value: Value error, '***' looks like a placeholder")
    expect(err.message).not.toContain(secret)
  })

  test('a key echoed in a non-JSON 200 is redacted', async () => {
    const server = await scripted.startServer(scripted.reply(200, `key=${scripted.API_KEY}`))
    const client = scripted.makeClient(server.origin)
    const err = await scripted.rejectionOf(client.listDeployments())
    expect(err.message).toContain('starts with "key=***"')
    expect(err.message).not.toContain(scripted.API_KEY)
  })

  // Sanitising before redacting changes the secret's text (`::` -> `: :`, a cut in the middle),
  // so the redactor no longer finds it and the altered secret is printed.
  test('a secret containing "::" echoed by the server is not printed', async () => {
    const colonSecret = 'Zq9::hunter2::Xv7'
    const server = await scripted.startServer(
      scripted.reply(400, { detail: `bad secret ${colonSecret}` })
    )
    const client = scripted.makeClient(server.origin, { secrets: [colonSecret] })
    const err = (await scripted.rejectionOf(
      client.getDeployment(scripted.DEPLOYMENT_ID)
    )) as ApiError
    expect(err.message).not.toContain(colonSecret)
    expect(err.message).not.toContain(sanitizeServerText(colonSecret))
    expect(err.message).not.toContain('hunter2')
  })

  test('a secret at the cut of a long server detail does not leak its first characters', async () => {
    const longSecret = 'sk-live-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
    // The detail is cut at 500 characters: the secret starts at 480.
    const detail = `${'e'.repeat(480)}${longSecret} and more text after it`
    const server = await scripted.startServer(scripted.reply(400, { detail }))
    const client = scripted.makeClient(server.origin, { secrets: [longSecret] })
    const err = (await scripted.rejectionOf(
      client.getDeployment(scripted.DEPLOYMENT_ID)
    )) as ApiError
    expect(err.message).not.toContain(longSecret.slice(0, 12))
  })
  test('a secret at the cut of a long 422 message does not leak its first characters', async () => {
    const longSecret = 'sk-live-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
    // Each 422 message is cut at 300 characters: the secret starts at 290.
    const server = await scripted.startServer(
      scripted.reply(422, {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'secrets', 0, 'value'],
            msg: `${'m'.repeat(290)}${longSecret}`
          }
        ]
      })
    )
    const client = scripted.makeClient(server.origin, { secrets: [longSecret] })
    const err = (await scripted.rejectionOf(
      client.createDeployment(scripted.createBody(longSecret))
    )) as ApiError
    expect(err.status).toBe(422)
    expect(err.message).not.toContain(longSecret.slice(0, 10))
  })

  test('a key at the cut of a non-JSON 200 does not leak its first characters', async () => {
    // The start of a non-JSON body is cut at 80 characters: the key starts at 70.
    const server = await scripted.startServer(
      scripted.reply(200, `${'h'.repeat(70)}${scripted.API_KEY}`)
    )
    const client = scripted.makeClient(server.origin)
    const err = await scripted.rejectionOf(client.listDeployments())
    expect(err).toBeInstanceOf(UnexpectedResponseError)
    expect(err.message).not.toContain(scripted.API_KEY.slice(0, 10))
  })
})

describe('where a request went: the host, the full path, inputs as the door names them', () => {
  const base = { host: 'eu.api.example.com', path: '/api-host' }
  const cli = sayAs(
    i => `CONTROL_PLANE_${i.toUpperCase().replace(/-/g, '_')}`,
    (i, v) => `--${i} ${v}`
  )

  test('a network error: one sentence (operation, host, cause in words), then what to check', () => {
    const cause = Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })
    const err = new NetworkError(
      { ...ctx('list deployments', 'GET', '/v2/deployments'), base, say: cli },
      'ENOTFOUND',
      5,
      { cause }
    )
    expect(err.message).toBe(
      'list deployments failed at eu.api.example.com: its DNS name was not found (ENOTFOUND; GET /api-host/v2/deployments, 5 attempts).\n' +
        'Hint: check `CONTROL_PLANE_BASE_URL` (eu.api.example.com), and the proxy (HTTPS_PROXY, NO_PROXY) if this network needs one.'
    )
    const tls = Object.assign(new Error('x'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' })
    expect(
      new NetworkError({ ...ctx('get deployment', 'GET', '/v2/x'), base }, 'x', 1, { cause: tls })
        .message
    ).toMatch(/TLS handshake failed.*\nHint: .*NODE_EXTRA_CA_CERTS/)
  })

  test('a 404 shows the path with the base path; its hints name inputs as the door does', () => {
    const err = new ApiError(
      {
        ...ctx('get deployment', 'GET', `/v2/deployments/${scripted.DEPLOYMENT_ID}`),
        base,
        say: cli
      },
      404,
      'Not Found'
    )
    expect(err.message).toContain(
      `HTTP 404 on GET /api-host/v2/deployments/${scripted.DEPLOYMENT_ID}`
    )
    expect(err.hint).toContain(
      'check the id, `CONTROL_PLANE_TENANT_ID` and `CONTROL_PLANE_BASE_URL`'
    )
    expect(err.hint).not.toMatch(/`(tenant-id|base-url|api-dialect: langsmith)`/)
  })
})
