// One upload deploy's archive and PUT, as a process of its own so that its peak RSS is its own:
//   node bench/upload-run.ts <workspace> <graph-config-path> <upload url>
// Prints one JSON line: the phases' times, the archive and the process's peak RSS.
import { buildArchive } from '../src/upload/archive.ts'
import { putArchive } from '../src/upload/put.ts'

const [workspace, graphConfigPath, url] = process.argv.slice(2) as [string, string, string]
const t0 = performance.now()
const archive = await buildArchive({ workspace, graphConfigPath })
const t1 = performance.now()
const put = await putArchive({ url, file: archive.file, size: archive.size })
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
    maxRssBytes: process.resourceUsage().maxRSS * 1024
  }) + '\n'
)
