//go:build !race

package dwarf

const raceEnabled = false
