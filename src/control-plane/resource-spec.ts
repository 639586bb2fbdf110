// ResourceSpec and its Kubernetes-shaped parts, with the production service's limits
// (production-openapi.json, `ResourceSpec-Input`) on requests only: a value the service itself set
// is never a reason to fail a run.
import { z } from 'zod'

const str = z.string().nullish()
const freeMap = z.record(z.string(), z.unknown()).nullish()
const freeObject = z.record(z.string(), z.unknown())

export const VolumeMount = z.object({
  name: str,
  mountPath: str,
  subPath: str,
  mountPropagation: str,
  subPathExpr: str,
  readOnly: z.boolean().nullish()
})

export const Volume = z.object({
  name: str,
  configMap: freeMap,
  secret: freeMap,
  emptyDir: freeMap,
  persistentVolumeClaim: freeMap,
  nfs: freeMap,
  projected: freeMap,
  downwardAPI: freeMap,
  csi: freeMap
})

export const EnvVar = z.object({ name: str, value: str, valueFrom: freeMap })

export const Container = z.object({
  name: str,
  image: str,
  imagePullPolicy: str,
  workingDir: str,
  restartPolicy: str,
  command: z.array(z.string()).nullish(),
  args: z.array(z.string()).nullish(),
  env: z.array(EnvVar).nullish(),
  envFrom: z.array(freeObject).nullish(),
  resources: z.object({ limits: freeMap, requests: freeMap }).nullish(),
  volumeMounts: z.array(VolumeMount).nullish(),
  securityContext: freeMap
})

/** Every numeric field of ResourceSpec, by group; units follow the suffix of the name. */
export const RESOURCE_SPEC_NUMBERS = {
  application: ['min_scale', 'max_scale', 'cpu', 'cpu_limit', 'memory_mb', 'memory_limit_mb'],
  queue: [
    'queue_min_scale',
    'queue_max_scale',
    'queue_cpu',
    'queue_cpu_limit',
    'queue_memory_mb',
    'queue_memory_limit_mb'
  ],
  orchestrator: [
    'orchestrator_cpu',
    'orchestrator_cpu_limit',
    'orchestrator_memory_mb',
    'orchestrator_memory_limit_mb',
    'orchestrator_min_scale',
    'orchestrator_max_scale'
  ],
  executor: [
    'executor_cpu',
    'executor_cpu_limit',
    'executor_memory_mb',
    'executor_memory_limit_mb'
  ],
  redis: ['redis_cpu', 'redis_cpu_limit', 'redis_memory_mb', 'redis_memory_limit_mb'],
  database: [
    'db_cpu',
    'db_cpu_limit',
    'db_memory_mb',
    'db_memory_limit_mb',
    'db_storage_gi',
    'db_max_connections'
  ]
} as const
export type ResourceSpecNumber =
  (typeof RESOURCE_SPEC_NUMBERS)[keyof typeof RESOURCE_SPEC_NUMBERS][number]

/** What production accepts of a numeric field: `int` (a count, a size), bounded cores, any number. */
export type NumberLimit = 'int' | 'number' | { min: number; max: number }
const CPU = { min: 0.1, max: 8 } as const
const CPU_LIMIT = { min: 0.1, max: 16 } as const
/** The groups whose cpu and cpu_limit production bounds. */
const BOUNDED_CPU: ReadonlySet<string> = new Set(['application', 'queue', 'redis'])

function limitOf(group: string, field: string): NumberLimit {
  if (!/cpu(_limit)?$/.test(field)) return 'int'
  if (!BOUNDED_CPU.has(group)) return 'number'
  return field.endsWith('_limit') ? CPU_LIMIT : CPU
}

export const RESOURCE_SPEC_LIMITS = Object.fromEntries(
  Object.entries(RESOURCE_SPEC_NUMBERS).flatMap(([group, fields]) =>
    fields.map(f => [f, limitOf(group, f)])
  )
) as Readonly<Record<ResourceSpecNumber, NumberLimit>>

type NumberField = z.ZodOptional<z.ZodNullable<z.ZodNumber>>

function limited(limit: NumberLimit): NumberField {
  if (limit === 'int') return z.number().int().nullish()
  if (limit === 'number') return z.number().nullish()
  return z.number().min(limit.min).max(limit.max).nullish()
}

type Numbers = Record<ResourceSpecNumber, NumberField>
const strictNumbers = Object.fromEntries(
  Object.entries(RESOURCE_SPEC_LIMITS).map(([k, limit]) => [k, limited(limit)])
) as Numbers
const looseNumbers = Object.fromEntries(
  Object.keys(RESOURCE_SPEC_LIMITS).map(k => [k, z.number().nullish()])
) as Numbers

const parts = {
  labels: freeMap,
  annotations: freeMap,
  service_account_name: str,
  image_pull_secrets: z.array(z.object({ name: str })).nullish(),
  volumes: z.array(Volume).nullish(),
  volume_mounts: z.array(VolumeMount).nullish(),
  init_containers: z.array(Container).nullish(),
  sidecars: z.array(Container).nullish()
}

/** A ResourceSpec as a request carries it: the production limits apply. */
export const ResourceSpec = z.object({ ...strictNumbers, ...parts })
export type ResourceSpec = z.infer<typeof ResourceSpec>

/** A ResourceSpec as an answer carries it: the same fields, any number. */
export const ResourceSpecInResponse = z.object({ ...looseNumbers, ...parts })
