//go:build !race

package positional

// raceEnabled: see race_on_test.go.
const raceEnabled = false
