//go:build !amd64 || purego

package jsonscan

// SkeletonVariants names the variants of lineSkeleton this build runs:
// none.
func SkeletonVariants() []string { return nil }

// UseSkeletonVariant does nothing: this build has no lineSkeleton.
func UseSkeletonVariant(name string) (restore func()) { return func() {} }
