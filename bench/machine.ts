// The machine and the code the numbers come from.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { NODE24 } from './bundle.ts'

const ROOT = join(import.meta.dirname, '..')

function run(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' }).trim()
  } catch {
    return 'unknown'
  }
}

export interface Machine {
  date: string
  nproc: number
  cpu: string
  memory: string
  node: string
  os: string
  commit: string
  distState: string
  /** 1, 5 and 15 min load averages when the bench started. */
  load: string
}

export const loadAverage = (): string =>
  os
    .loadavg()
    .map(x => x.toFixed(2))
    .join(' / ')

export function machine(): Machine {
  let cpu = os.cpus()[0]?.model ?? 'unknown'
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find(l => l.startsWith('model name'))
    if (line) cpu = line.split(':')[1]!.trim()
  } catch {
    // not Linux: the os module's name will do
  }
  const dirty = run('git', ['status', '--porcelain', '--', 'dist/index.js'])
  return {
    date: new Date().toISOString(),
    nproc: os.availableParallelism(),
    cpu,
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    node: `${run(NODE24, ['--version'])} (node_modules/node; the bench itself on ${process.version})`,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    commit: run('git', ['rev-parse', '--short', 'HEAD']),
    distState: dirty === '' ? 'as committed' : 'differs from HEAD (working tree)',
    load: loadAverage()
  }
}
