// Peak memory (RSS) of whole action runs, through a preload that records maxRSS at exit.
import { startEmulator, type Fixture } from '../src/emulator/server.ts'
import { clock, describeFailure, runBare, runBundle } from './bundle.ts'
import { manyDeployments, manyRepositories } from './fixtures.ts'
import { DEPLOYMENTS, MATCHING, REPOSITORIES, TARGET } from './scale.ts'
import { mib, summarize, type Summary } from './stats.ts'

export interface MemoryRow {
  label: string
  rss: Summary
  wall: Summary
}

interface Case {
  label: string
  fixture?: Fixture
  inputs: Record<string, string>
  speed?: number
}

export async function memory(runs: number): Promise<MemoryRow[]> {
  const rows: MemoryRow[] = []
  const bare = []
  for (let i = 0; i < runs; i++) bare.push(await runBare(true))
  rows.push({
    label: 'bare `node -e 0`',
    rss: summarize(bare.map(r => r.maxRssBytes!)),
    wall: summarize(bare.map(r => r.exitedAt - r.startedAt))
  })
  const cases: Case[] = [
    { label: 'dry run, demo fixture', inputs: { name: 'mem-dry', 'dry-run': 'true' } },
    {
      label: 'full run: create, wait until DEPLOYED (3 s lifecycle)',
      inputs: { name: 'mem-full' }
    },
    {
      label: `dry run, ${DEPLOYMENTS.toLocaleString('en')} deployments (${MATCHING} match)`,
      fixture: manyDeployments(DEPLOYMENTS, MATCHING, TARGET),
      inputs: { name: TARGET, 'dry-run': 'true' }
    },
    {
      label: `dry run, ${REPOSITORIES.toLocaleString('en')} repositories`,
      fixture: manyRepositories(REPOSITORIES),
      inputs: { name: 'mem-repos', 'dry-run': 'true' }
    }
  ]
  for (const c of cases) {
    const emu = await startEmulator({ port: 0, now: clock, fixture: c.fixture })
    try {
      const cred = emu.credentials()
      const results = []
      for (let i = 0; i < runs; i++) {
        const r = await runBundle({
          rss: true,
          inputs: {
            'api-key': cred.apiKey,
            'base-url': emu.url,
            'integration-id': cred.integrationId!,
            ...c.inputs,
            ...(c.inputs['dry-run'] ? {} : { name: `${c.inputs.name}-${i}` })
          }
        })
        if (r.code !== 0 || r.maxRssBytes === undefined)
          throw new Error(`${c.label}: ${describeFailure(r)}`)
        results.push(r)
      }
      rows.push({
        label: c.label,
        rss: summarize(results.map(r => r.maxRssBytes!)),
        wall: summarize(results.map(r => r.exitedAt - r.startedAt))
      })
    } finally {
      await emu.close()
    }
  }
  return rows
}

export const MEMORY_HEADERS = ['Run', 'Peak RSS median', 'min – max', 'Wall median']

export const memoryRows = (rows: MemoryRow[], fmtMs: (v: number) => string) =>
  rows.map(r => [
    r.label,
    mib(r.rss.median),
    `${mib(r.rss.min)} – ${mib(r.rss.max)}`,
    fmtMs(r.wall.median)
  ])
