import { describe, expect, test } from '@jest/globals'
import { makeClock } from '../../src/clock.ts'
import { baseUrlProblem } from '../../src/control-plane/base-url.ts'
import { ControlPlaneClient } from '../../src/control-plane/client.ts'
import { ACTION_SAY } from '../builders.ts'

describe('where the key may be sent', () => {
  test.each([
    'https://api.host.langchain.com',
    'https://eu.api.host.langchain.com',
    'https://deploy.example.com/api-host',
    'http://localhost:4010',
    'http://127.0.0.1:4010/api-host',
    'http://127.8.9.10',
    'http://[::1]:4010'
  ])('%s is allowed', url => {
    expect(baseUrlProblem(url)).toBeUndefined()
  })

  test.each([
    ['http://api.host.langchain.com', /plain http is refused for api.host.langchain.com/],
    ['http://10.0.0.5:4010', /plain http is refused/],
    ['http://localhost.example.com', /plain http is refused/],
    ['file:///etc/passwd', /file: scheme is not supported/],
    ['ftp://host/api', /ftp: scheme is not supported/],
    ['https://user:pass@host.example.com', /must not carry credentials/],
    ['not a url', /not a URL/]
  ])('%s is refused', (url, why) => {
    expect(baseUrlProblem(url)).toMatch(why)
  })

  test('the client refuses to be built for such a URL, before any request', () => {
    expect(
      () =>
        new ControlPlaneClient({
          baseUrl: 'http://api.host.langchain.com',
          apiKey: 'k-123456',
          say: ACTION_SAY,
          clock: makeClock()
        })
    ).toThrow('Refusing base URL: plain http is refused for api.host.langchain.com')
  })
})
