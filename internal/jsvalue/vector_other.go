//go:build !amd64 || purego

package jsvalue

// haveVector is false: this build has no vector text decoder.
const haveVector = false

// textVector decodes nothing: appendJSRaw's portable code does it all.
func textVector(dst, src *byte, n int) (read, written int) { return 0, 0 }
