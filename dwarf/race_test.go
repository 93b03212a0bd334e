//go:build race

package dwarf

const raceEnabled = true
