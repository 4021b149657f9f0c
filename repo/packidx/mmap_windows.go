//go:build windows

package packidx

import (
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// openForMap opens path for reading, to be mapped, shared for reading,
// writing and deleting: os.Open leaves FILE_SHARE_DELETE out, and git for
// Windows' gc and repack could then not delete an old pack while it is
// open here. (The mapping itself still keeps the file from being deleted
// until it is unmapped: Windows refuses to delete a mapped file. Reading
// whole packs into memory instead would cost their size, gigabytes in
// large repositories, so packs are mapped, and a pack git gc would delete
// while a git-edit process uses it stays until the next gc.)
func openForMap(path string) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}

// mmap maps the first size bytes of f read-only (CreateFileMapping with
// PAGE_READONLY, then MapViewOfFile); the view outlives f's closing and
// the mapping handle's, which is closed at once.
func mmap(f *os.File, size int) ([]byte, error) {
	n := uint64(size)
	h, err := windows.CreateFileMapping(windows.Handle(f.Fd()), nil, windows.PAGE_READONLY, uint32(n>>32), uint32(n), nil)
	if err != nil {
		return nil, os.NewSyscallError("CreateFileMapping", err)
	}
	defer windows.CloseHandle(h)
	addr, err := windows.MapViewOfFile(h, windows.FILE_MAP_READ, 0, 0, uintptr(size))
	if err != nil {
		return nil, os.NewSyscallError("MapViewOfFile", err)
	}
	// addr is the view's address, memory Go does not manage.
	return unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&addr))), size), nil
}

// munmap unmaps what mmap returned.
func munmap(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	return os.NewSyscallError("UnmapViewOfFile", windows.UnmapViewOfFile(uintptr(unsafe.Pointer(&b[0]))))
}
