//go:build unix

package packidx

import (
	"os"
	"syscall"
)

// openForMap opens path for reading, to be mapped.
func openForMap(path string) (*os.File, error) { return os.Open(path) }

// mmap maps the first size bytes of f read-only and private; the mapping
// outlives f's closing and the file's deletion.
func mmap(f *os.File, size int) ([]byte, error) {
	return syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_PRIVATE)
}

// munmap unmaps what mmap returned.
func munmap(b []byte) error { return syscall.Munmap(b) }
