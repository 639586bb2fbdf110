// The version comes from package.json: the bundler inlines it, so releases keep one source of truth.
import pkg from '../package.json' with { type: 'json' }

export const VERSION: string = pkg.version
