package cputest

import (
	"syscall"
	"testing"
)

// PageBeforeGuard returns a page of memory whose next page is unreadable,
// for tests that put input at its very end: a fast path that reads past the
// page of its input's last byte crashes the test. The pages are freed when
// t ends.
func PageBeforeGuard(t testing.TB) []byte {
	t.Helper()
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap two pages: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Fatalf("protect the second page: %v", err)
	}
	return mem[:page:page]
}
