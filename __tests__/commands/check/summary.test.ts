// The check's job summary as a reader of the run's page sees it: the control plane's own text (an
// image, a status) in its lines stays text, and a plan line cannot end its fence.
import { expect, test } from '@jest/globals'
import { renderCheckSummary } from '../../../src/commands/check/summary.ts'

test('a drift line with an image the control plane reported renders no image, link or code of its own', () => {
  const md = renderCheckSummary(
    {
      name: 'agent',
      deploymentId: undefined,
      differences: [
        {
          kind: 'material',
          text: '"agent" runs image ![x](https://evil.example/p.png) `sh` (revision r1), but "staging" runs image ghcr.io/acme/agent:1.',
          details: []
        },
        {
          kind: 'planned',
          text: 'A deploy with these inputs would change "agent":',
          details: ['image_uri: ```', '</details> <img src=x>']
        }
      ],
      skipped: ['the deployment type: [reported](https://evil.example) as nothing']
    },
    'drift'
  )
  expect(md).toContain('### ⚠️ Drift: `agent`')
  expect(md).not.toContain('![x](')
  expect(md).not.toContain('](https://evil')
  expect(md).not.toContain('`sh`')
  // The plan's lines stay inside one fence, longer than any run of backticks in them.
  expect(md).toContain('  ````\n  image_uri: ```\n  </details> <img src=x>\n  ````')
})
