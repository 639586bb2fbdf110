import { expect, test } from '@jest/globals'
import { isLoopbackHost } from '../../src/control-plane/base-url.ts'
import { probeTarget } from '../../src/health/target.ts'

const href = (url: string | null, path: string) => {
  const t = probeTarget(url, path)
  return 'url' in t ? t.url.href : `refused: ${t.problem}`
}

test('the path is appended to custom_url, never resolved against it', () => {
  expect(href('https://a.example.com', '/ok')).toBe('https://a.example.com/ok')
  expect(href('https://a.example.com/x/', '/ok?check_db=1')).toBe(
    'https://a.example.com/x/ok?check_db=1'
  )
  expect(href('https://a.example.com', '//evil.example.net/ok')).toBe(
    'https://a.example.com//evil.example.net/ok'
  )
  expect(href('https://a.example.com', '/@evil.example.net')).toBe(
    'https://a.example.com/@evil.example.net'
  )
})

test('names that only look like loopback are another machine', () => {
  for (const host of ['127.0.0.1.nip.io', 'localhost.example.com', '128.0.0.1', '::2', '0.0.0.0'])
    expect([host, isLoopbackHost(host)]).toEqual([host, false])
  for (const host of ['127.0.0.1', '127.255.0.9', '[::1]', 'LOCALHOST'])
    expect([host, isLoopbackHost(host)]).toEqual([host, true])
  expect(href('http://127.0.0.1.nip.io', '/ok')).toMatch(
    /^refused: .*plain http to another machine/
  )
  expect(href('http://127.1:8000', '/ok')).toBe('http://127.0.0.1:8000/ok')
})

test('without a custom_url there is nothing to probe', () => {
  expect(href(null, '/ok')).toMatch(/no source_config.custom_url/)
  expect(href('not a url', '/ok')).toMatch(/is not a URL/)
})
