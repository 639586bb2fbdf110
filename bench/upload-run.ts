// One upload deploy's archive and PUT, as a process of its own so that its peak RSS is its own:
//   node bench/upload-run.ts <workspace> <graph-config-path> <upload url>
// Prints one JSON line: the phases' times, the archive and the process's peak RSS. With
// UPLOAD_RUN_SAMPLE=1 it also samples process.memoryUsage() every few ms: where the peak is (rss
// against V8's heap, Buffers' external memory, and what neither counts: native zlib state, malloc).
import { makeClock } from '../src/clock.ts'
import { buildArchive } from '../src/upload/archive.ts'
import { putArchive } from '../src/upload/put.ts'

const [workspace, graphConfigPath, url] = process.argv.slice(2) as [string, string, string]
const sampler = process.env.UPLOAD_RUN_SAMPLE === '1' ? sampleMemory() : undefined
const t0 = performance.now()
const archive = await buildArchive({ workspace, graphConfigPath, inputName: 'graph-config-path' })
const t1 = performance.now()
const put = await putArchive({ url, file: archive.file, size: archive.size, clock: makeClock() })
const t2 = performance.now()
await archive.cleanup()
if (put.outcome !== 'stored') throw new Error(`PUT ${put.outcome}`)
process.stdout.write(
  JSON.stringify({
    archiveMs: t1 - t0,
    putMs: t2 - t1,
    size: archive.size,
    files: archive.files.length,
    digest: archive.digest,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    ...(sampler ? { memory: sampler() } : {})
  }) + '\n'
)

/** Samples memoryUsage(); returns the sample at the highest rss and each field's own maximum. */
function sampleMemory(): () => { atPeak: NodeJS.MemoryUsage; max: NodeJS.MemoryUsage } {
  let atPeak = process.memoryUsage()
  const max = { ...atPeak }
  const take = () => {
    const m = process.memoryUsage()
    if (m.rss > atPeak.rss) atPeak = m
    for (const k of Object.keys(max) as Array<keyof NodeJS.MemoryUsage>)
      max[k] = Math.max(max[k], m[k])
  }
  const timer = setInterval(take, 2)
  return () => {
    take()
    clearInterval(timer)
    return { atPeak, max }
  }
}
