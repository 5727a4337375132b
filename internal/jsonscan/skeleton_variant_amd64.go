//go:build !purego

package jsonscan

import "github.com/chatwire/chatwire/internal/cpu"

// SkeletonVariants names the variants of lineSkeleton this process runs,
// by internal/cpu's level: "avx512" (lineSkeleton512) and "avx2"
// (lineSkeleton256), for the tests that run each.
func SkeletonVariants() []string {
	var v []string
	if cpu.Active() >= cpu.AVX512 {
		v = append(v, "avx512")
	}
	if cpu.Active() >= cpu.AVX2 {
		v = append(v, "avx2")
	}
	return v
}

// UseSkeletonVariant makes lineSkeleton run the variant named (one of
// SkeletonVariants) and returns a function that restores the one before.
func UseSkeletonVariant(name string) (restore func()) {
	was := skeleton512
	skeleton512 = name == "avx512"
	return func() { skeleton512 = was }
}
