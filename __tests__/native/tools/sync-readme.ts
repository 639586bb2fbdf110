// `node __tests__/native/tools/sync-readme.ts`: copies each examples/*.yml into the README's yaml
// block that follows its `<!-- examples/NAME.yml -->` marker, so the README shows the examples
// verbatim (the native tests check that it does, and lint the files themselves).
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '../../..')
const readmePath = join(root, 'README.md')
const readme = readFileSync(readmePath, 'utf8')
const synced = readme.replace(
  /<!-- (examples\/[\w.-]+\.ya?ml) -->\n\n```yaml\n[\s\S]*?```/g,
  (_, path: string) =>
    `<!-- ${path} -->\n\n\`\`\`yaml\n${readFileSync(join(root, path), 'utf8')}\`\`\``
)
if (synced !== readme) {
  writeFileSync(readmePath, synced)
  console.log('README.md: examples updated')
} else console.log('README.md: examples already in sync')
