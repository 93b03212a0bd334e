// Package prettytest helps the tests of the pretty package and of `btfkit
// pretty`: it builds binary records from BTF struct layouts (Layout, Rec),
// so that tests can make record streams of any shape, and it rebuilds a
// record's bytes from the JSON object pretty's JSONWriter printed for it
// (RecordBytes), which is how the tests check that the JSON loses nothing.
//
// It reads BTF types only through the btf package's public API and knows
// nothing of the pretty package's code: the rebuild is an independent
// reading of the JSON format, so that a mistake in the writer shows up as a
// mismatch instead of being mirrored.
package prettytest
