// The runner's proxy variables, read once at the door: lower case before upper, empty as unset.
import { expect, test } from '@jest/globals'
import { githubContext } from '../../src/runner/context.ts'
import { proxyVariables } from '../../src/runner/proxy.ts'

test('lower case first, then upper; an empty variable is unset; none set is undefined', () => {
  expect(
    proxyVariables({
      https_proxy: 'http://lower:1',
      HTTPS_PROXY: 'http://upper:1',
      HTTP_PROXY: 'http://plain:2',
      no_proxy: '',
      NO_PROXY: 'corp'
    })
  ).toEqual({ httpsProxy: 'http://lower:1', httpProxy: 'http://plain:2', noProxy: 'corp' })
  expect(proxyVariables({ PATH: '/bin', https_proxy: '' })).toBeUndefined()
})

test("the GitHub context carries them for GitHub's API; none, no key", () => {
  expect(githubContext({ HTTPS_PROXY: 'http://p:3' }, {}).proxy).toEqual({
    httpsProxy: 'http://p:3'
  })
  expect('proxy' in githubContext({}, {})).toBe(false)
})
