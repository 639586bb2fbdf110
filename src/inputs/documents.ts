// The YAML/JSON document inputs, checked synchronously like every input. Their parser brings yaml
// and the zod model, a third of the action's start-up: loaded by `loadDocumentParser` only when
// one of them is set, before the inputs are read (and by the smoke-test file's reader).
import type * as Parser from './document-parser.ts'
import { defaultOf, DOCUMENT_INPUTS, type InputName, type RawInputs } from '../interface/names.ts'
import type { Fail } from './problems.ts'
import { loadSchema, type Model } from '../control-plane/load-schema.ts'
import type { SecretReference } from '../control-plane/schema.ts'
import type { ResourceSpec } from '../control-plane/resource-spec.ts'

let loadedParser: { parser: typeof Parser; model: Model } | undefined

/** Loads the document parser and the model (once); `raw` given, only when a document input is set. */
export async function loadDocumentParser(raw?: Partial<RawInputs>): Promise<void> {
  if (raw && !DOCUMENT_INPUTS.some(name => isSet(raw, name))) return
  if (loadedParser) return
  const [parser, model] = await Promise.all([import('./document-parser.ts'), loadSchema()])
  loadedParser = { parser, model }
}

const isSet = (raw: Partial<RawInputs>, name: InputName) =>
  (raw[name] ?? '').trim() !== '' || defaultOf(name) !== ''

function loaded(): { parser: typeof Parser; model: Model } {
  if (loadedParser === undefined) {
    throw new Error('A YAML/JSON input was read before loadDocumentParser() loaded its parser.')
  }
  return loadedParser
}

export const itemPlaces: typeof Parser.itemPlaces = (...args) => loaded().parser.itemPlaces(...args)

export const parseDocumentInput: typeof Parser.parseDocumentInput = (...args) =>
  loaded().parser.parseDocumentInput(...args)

export function parseSecretReferences(v: string, fail: Fail): SecretReference[] | undefined {
  if (v === '') return undefined
  const { parser, model } = loaded()
  return parser.parseSecretReferences(model, v, fail)
}

export function parseResourceSpec(v: string, fail: Fail): ResourceSpec | undefined {
  if (v === '') return undefined
  const { parser, model } = loaded()
  return parser.parseResourceSpec(model, v, fail)
}
