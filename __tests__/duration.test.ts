import { formatDuration, parseDuration } from '../src/duration.ts'

describe('parseDuration', () => {
  test.each([
    ['90s', 90_000],
    ['15m', 900_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['2h15m30s', 8_130_000],
    ['1h5s', 3_605_000],
    ['600', 600_000],
    ['1', 1_000],
    ['  45s  ', 45_000],
    ['1H30M', 5_400_000],
    ['0', 0],
    ['0s', 0]
  ])('%j -> %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms)
  })

  test.each([
    '',
    '   ',
    '-5',
    '-5m',
    '+5m',
    '1.5h',
    '1.5.h',
    '10 minutes',
    '1h 30m',
    '30m1h',
    'h',
    '5d',
    '5ms',
    'abc',
    '1e3',
    '0x10',
    '99999999999999999999',
    '9999999999999h'
  ])('rejects %j', text => {
    expect(parseDuration(text)).toBeUndefined()
  })
})

describe('formatDuration', () => {
  test.each([
    [0, '0s'],
    [-1000, '0s'],
    [Number.NaN, '0s'],
    [250, '250ms'],
    [45_000, '45s'],
    [90_000, '1m30s'],
    [125_000, '2m05s'],
    [1_800_000, '30m'],
    [3_600_000, '1h'],
    [5_400_000, '1h30m'],
    [3_725_000, '1h02m05s'],
    [3_605_000, '1h00m05s'],
    [21_600_000, '6h'],
    [59_600, '1m']
  ])('%d ms -> %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text)
  })

  test.each(['90s', '15m', '1h', '1h30m', '2h15m30s'])(
    'formats what parseDuration reads back to the same milliseconds (%s)',
    text => {
      const ms = parseDuration(text) as number
      expect(parseDuration(formatDuration(ms))).toBe(ms)
    }
  )
})
