//go:build race

package positional

// raceEnabled: the race detector instruments every access and makes
// sync.Pool drop its items (so regexp allocates a machine per search),
// which voids allocation and heap measurements.
const raceEnabled = true
