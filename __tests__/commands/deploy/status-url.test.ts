// The deployment's page in the web app: derived as the vendor's CLIs derive it, and never
// invented for a host whose web app is not known.
import { describe, expect, test } from '@jest/globals'
import { statusUrlOf, webAppOf } from '../../../src/commands/deploy/status-url.ts'

const TENANT = '3f2e1d0c-9b8a-4766-8554-433221100ffe'
const DEPLOYMENT = '0a8f4f39-0c53-4a8e-9a3b-0d2f0c9a1e01'

describe('status-url', () => {
  test('the web app of the hosted API hosts, and none for any other host', () => {
    expect(webAppOf('https://api.host.langchain.com')).toBe('https://smith.langchain.com')
    expect(webAppOf('https://eu.api.host.langchain.com/')).toBe('https://eu.smith.langchain.com')
    expect(webAppOf('https://API.HOST.LANGCHAIN.COM.')).toBe('https://smith.langchain.com')
    for (const other of [
      'https://langsmith.acme.internal/api-host',
      'http://127.0.0.1:8123',
      'https://a.b.api.host.langchain.com',
      'https://evil-api.host.langchain.com',
      'https://api.host.langchain.com.evil.example',
      'not a url'
    ])
      expect({ other, app: webAppOf(other) }).toEqual({ other, app: undefined })
  })

  test('<web app>/o/<tenant>/host/deployments/<id>, in the langsmith dialect only', () => {
    const facts = {
      baseUrl: 'https://eu.api.host.langchain.com',
      dialect: 'langsmith' as const,
      tenantId: TENANT,
      deploymentId: DEPLOYMENT
    }
    expect(statusUrlOf(facts)).toBe(
      `https://eu.smith.langchain.com/o/${TENANT}/host/deployments/${DEPLOYMENT}`
    )
    expect(statusUrlOf({ ...facts, dialect: 'interface' })).toBeUndefined()
    expect(statusUrlOf({ ...facts, tenantId: undefined })).toBeUndefined()
    expect(statusUrlOf({ ...facts, deploymentId: undefined })).toBeUndefined()
    expect(statusUrlOf({ ...facts, baseUrl: 'https://cp.example.com' })).toBeUndefined()
  })
})
