//go:build !amd64 || purego

package jsonscan

// haveVector is false: this build has no vector string scanner.
const haveVector = false

// scanStringVector scans nothing: it returns i, where the portable scanner
// carries on.
func scanStringVector(w []byte, i, n int) int { return i }

// blockMasks is never called: haveVector is false.
func blockMasks(p *byte) (quotes, bad uint64) { return 0, 0 }

// haveSkeleton is false: this build has no lineSkeleton.
const haveSkeleton = false

// lineSkeleton is never called: haveSkeleton is false.
func lineSkeleton(p *byte, n int, out *[skeletonOut]byte, c *codeSkeletons, digits bool) (size, end, way int) {
	return -1, 0, -1
}
