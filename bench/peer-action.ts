// The peer of the startup benchmark: the smallest action built on @actions/core that sends one
// request, bundled as the action is (`ncc build`). It reads its inputs, masks the key, sends the
// request the action's dry run sends first (the list of deployments) and writes one output.
import * as core from '@actions/core'
import * as http from 'node:http'

const apiKey = core.getInput('api-key')
core.setSecret(apiKey)
const url = new URL('/v2/deployments', core.getInput('base-url'))
http.get(url, { headers: { 'X-Api-Key': apiKey } }, res => {
  res.resume()
  res.on('end', () => core.setOutput('status', String(res.statusCode)))
})
