//go:build !purego

package cpu

// Purego tells that the module is built with the purego tag: its assembly
// is left out, and the process runs the portable level.
const Purego = false
