//go:build !linux

package bench

import "time"

// threadCPU returns 0: only Linux tells a thread's CPU time.
func threadCPU() time.Duration { return 0 }
