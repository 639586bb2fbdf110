#!/usr/bin/env node
// The CLI bundle: `npm run build` writes both.
import './cli/index.js'
