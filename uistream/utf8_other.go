//go:build !amd64 || purego

package uistream

// utf8Blocks checks nothing here: there is no vector code (see
// utf8_amd64.go).
func utf8Blocks(p *byte, n int) int { return 0 }

// haveUTF8Blocks tells whether utf8Blocks is the vector code.
const haveUTF8Blocks = false
