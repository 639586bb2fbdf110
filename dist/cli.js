#!/usr/bin/env node
// Loads the bundle in ./cli/ (`npm run build` writes both).
import './cli/index.js'
