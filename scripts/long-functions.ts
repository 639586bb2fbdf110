// Functions too long to read at once: `node scripts/long-functions.ts <max> <file>...` prints, as
// JSON, each function (declaration, method, arrow) over `max` lines. A process of its own: the
// TypeScript compiler loads there from Node's code cache, where a test file would compile its
// 9 MB again.
import { readFileSync } from 'node:fs'
import ts from 'typescript'

export function longFunctions(file: string, max: number): string[] {
  const text = readFileSync(file, 'utf8')
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const line = (pos: number) => source.getLineAndCharacterOfPosition(pos).line
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const lines = line(node.getEnd()) - line(node.getStart()) + 1
      const name = 'name' in node && node.name ? node.name.getText() : '(anonymous)'
      if (lines > max) found.push(`${file}: ${name} (${lines} lines)`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

if (import.meta.main) {
  const [max, ...files] = process.argv.slice(2)
  process.stdout.write(JSON.stringify(files.flatMap(f => longFunctions(f, Number(max)))))
}
