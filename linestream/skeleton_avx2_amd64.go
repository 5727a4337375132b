//go:build skeleton_avx2 && !purego

package linestream

// The build tag skeleton_avx2 makes lineSkeleton run its AVX2 variant on a
// CPU that has AVX-512 VBMI2 too, to measure and test it there:
//
//	go test -c -tags skeleton_avx2 ./bench
//	go test -tags skeleton_avx2 ./fuzz -run '^$' -fuzz '^FuzzSkeleton$'
func init() { skeleton512 = false }
